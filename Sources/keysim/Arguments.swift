/// A command-line option of a subcommand.
struct OptionSpec {
    /// The long name without dashes ("seed").
    var name: String
    /// The value's placeholder ("N"), or nil for a flag.
    var value: String?
    /// One line of help.
    var help: String
    /// Whether it may be given more than once.
    var repeatable = false
}

/// What a subcommand accepts, and the text of its `--help`.
struct CommandSpec {
    /// "run", "trace validate"…
    var name: String
    /// One sentence.
    var abstract: String
    /// The usage line after "keysim ".
    var usage: String
    /// Positional arguments with their help.
    var arguments: [(name: String, help: String)] = []
    /// Options.
    var options: [OptionSpec] = []
    /// Further text after the options.
    var discussion: String = ""

    /// The `--help` text.
    var help: String {
        var lines = ["OVERVIEW: \(abstract)", "", "USAGE: keysim \(usage)"]
        if !arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            for argument in arguments { lines.append(Self.row(argument.name, argument.help)) }
        }
        lines += ["", "OPTIONS:"]
        for option in options {
            let label = "--\(option.name)" + (option.value.map { " <\($0)>" } ?? "")
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

/// A usage mistake: exit code 2 with the command's usage line.
struct UsageError: Error {
    var command: String
    var message: String
}

/// Arguments after parsing against a `CommandSpec`.
struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var wantsHelp = false
    let command: String

    /// Parses `arguments` (after the subcommand name).
    init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
        command = spec.name
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            if argument == "-h" || argument == "--help" { wantsHelp = true; continue }
            guard argument.hasPrefix("--") else {
                throw UsageError(command: spec.name, message: "unknown option '\(argument)'")
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                throw UsageError(command: spec.name, message: "unknown option '--\(name)'")
            }
            if option.value == nil {
                guard inlineValue == nil else { throw UsageError(command: spec.name, message: "--\(name) takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError(command: spec.name, message: "--\(name) needs a value <\(option.value!)>")
                }
                value = arguments[index]
                index += 1
            }
            if !option.repeatable, values[name] != nil {
                throw UsageError(command: spec.name, message: "--\(name) given more than once")
            }
            values[name, default: []].append(value)
        }
    }

    /// The single value of an option.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// An integer option within a range.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw UsageError(command: command, message: "--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }

    /// Exactly `count` positional arguments, named for the error message.
    func positionals(exactly count: Int, _ names: String) throws(UsageError) -> [String] {
        guard positionals.count == count else {
            let problem = positionals.count < count ? "missing \(names)" : "unexpected argument '\(positionals[count])'"
            throw UsageError(command: command, message: problem)
        }
        return positionals
    }
}
