/// What `--help` shows of a command and what the completion scripts complete, taken from
/// its declarations (`CommandConfiguration`) or, for `trace` and `dict`, from the group.
struct CommandHelp {
    /// A positional argument as help lists it.
    struct Argument {
        /// "<scenario>", "<file>...".
        var name: String
        /// One line of help.
        var help: String
        /// What the shells complete it with.
        var completion: ValueCompletion
    }

    /// An option as help lists it and the shells complete it.
    struct Option {
        /// The long name without dashes ("seed").
        var name: String
        /// The value's placeholder ("N"), or nil for a flag.
        var valueName: String?
        /// One line of help.
        var help: String
        /// Whether it may be given more than once.
        var repeatable: Bool
        /// What the shells complete its value with.
        var completion: ValueCompletion
        /// Left out of help and completions (a helper for the completion scripts).
        var isHidden = false
    }

    /// "run", "trace synth".
    var name: String
    /// One sentence.
    var abstract: String
    /// The usage line after "keysim ".
    var usage: String
    /// Positional arguments.
    var arguments: [Argument] = []
    /// Options.
    var options: [Option] = []
    /// Further text after the options.
    var discussion: String = ""

    /// The options help and completions show.
    var visibleOptions: [Option] { options.filter { !$0.isHidden } }

    /// The last word of the name ("synth" of "trace synth").
    var leaf: String { String(name.split(separator: " ").last ?? "") }

    /// The `--help` text.
    var text: String {
        var lines = ["OVERVIEW: \(abstract)", "", "USAGE: keysim \(usage)"]
        if !arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            for argument in arguments { lines.append(Self.row(argument.name, argument.help)) }
        }
        lines += ["", "OPTIONS:"]
        for option in visibleOptions {
            let label = "--\(option.name)" + (option.valueName.map { " <\($0)>" } ?? "")
            lines.append(Self.row(label, option.help + (option.repeatable ? " (repeatable)" : "")))
        }
        lines.append(Self.row("-h, --help", "Show this help."))
        if !discussion.isEmpty { lines += ["", discussion] }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func row(_ label: String, _ help: String) -> String {
        let padded = label.count < 22 ? label + String(repeating: " ", count: 22 - label.count) : label + "  "
        return "  " + padded + help
    }
}

/// What a shell completes an option's value or an argument with.
enum ValueCompletion: Equatable {
    /// Nothing: a number, a name, free text.
    case none
    /// A file name.
    case file
    /// A folder name.
    case directory
    /// One of these words.
    case choices([String])
    /// One of these words, or a file name (a typist preset or a profile file).
    case choicesOrFile([String])
    /// A policy of the scenario file given on the command line.
    case policy
}
