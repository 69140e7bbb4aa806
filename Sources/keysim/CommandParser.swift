import Scenarios

/// Parses a command's arguments (after its name) into the command's typed value.
///
/// In three steps, so that the first mistake reported is the one a user meets first: the
/// words are read as options and positionals (an unknown option, a flag with a value, an
/// option without one or given twice fail here, before `--help` is looked at); the
/// positionals are counted against the declared arguments; then each option's text is
/// parsed into its property, in the order the options are declared.
enum CommandParser {
    /// The command, or nil when `--help` was asked for (the caller prints the help).
    static func parse<Command: ParsableCommand>(_ arguments: [String], as type: Command.Type) throws(UsageError) -> Command? {
        let configuration = Command.configuration
        let name = configuration.name
        let words = try split(arguments, command: name, options: configuration.options.map(\.info))
        if words.wantsHelp { return nil }
        var command = Command()
        try bind(words.positionals, to: configuration.arguments, command: name, into: &command)
        for (index, option) in configuration.options.enumerated() {
            for value in words.values where value.option == index {
                do {
                    try option.apply(&command, value.text)
                } catch {
                    throw UsageError(command: name, message: error.message)
                }
            }
        }
        return command
    }

    /// The words of a command line, sorted out but not yet parsed.
    struct Words {
        /// Positional arguments, in order.
        var positionals: [String] = []
        /// Each option given: its index among the declarations and its text (nil for a flag).
        var values: [(option: Int, text: String?)] = []
        /// Whether `-h` or `--help` was given.
        var wantsHelp = false
    }

    /// Sorts `arguments` into options and positionals: `--name value`, `--name=value`, flags,
    /// `--` before positionals that start with a dash, and `-` as a positional.
    static func split(_ arguments: [String], command: String, options: [CommandHelp.Option]) throws(UsageError) -> Words {
        var words = Words()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                words.positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            if argument == "-h" || argument == "--help" { words.wantsHelp = true; continue }
            guard argument.hasPrefix("--") else {
                throw UsageError(command: command, message: "unknown option \(NameSuggester.quoted(argument))"
                                 + optionHint(String(argument.dropFirst()), options))
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let optionIndex = options.firstIndex(where: { $0.name == name }) else {
                throw UsageError(command: command, message: "unknown option \(NameSuggester.quoted("--" + name))" + optionHint(name, options))
            }
            let option = options[optionIndex]
            guard let valueName = option.valueName else {
                guard inlineValue == nil else { throw UsageError(command: command, message: "--\(name) takes no value") }
                words.values.append((optionIndex, nil))
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError(command: command, message: "--\(name) needs a value <\(valueName)>")
                }
                value = arguments[index]
                index += 1
            }
            if !option.repeatable, words.values.contains(where: { $0.option == optionIndex }) {
                throw UsageError(command: command, message: "--\(name) given more than once")
            }
            words.values.append((optionIndex, value))
        }
        return words
    }

    /// "; did you mean '--seed'?" for the option closest to `name` (help included).
    private static func optionHint(_ name: String, _ options: [CommandHelp.Option]) -> String {
        NameSuggester.hint(for: name, among: options.filter { !$0.isHidden }.map(\.name) + ["help"]) { "'--\($0)'" }
    }

    /// Hands the positionals to the declared arguments, checking their count.
    private static func bind<Command>(_ positionals: [String], to arguments: [ArgumentDeclaration<Command>], command: String,
                                      into value: inout Command) throws(UsageError) {
        var singles: [String] = []
        var list: (minimum: Int, maximum: Int?, missing: String, name: String)?
        for argument in arguments {
            switch argument.arity {
            case .one: singles.append(argument.info.name)
            case .many(let minimum, let maximum, let missing): list = (minimum, maximum, missing, argument.info.name)
            }
        }
        if positionals.count < singles.count {
            let names = singles + (list.map { $0.minimum > 0 ? [$0.name] : [] } ?? [])
            throw UsageError(command: command, message: "missing \(names.joined(separator: " and "))")
        }
        if let list, positionals.count < singles.count + list.minimum {
            throw UsageError(command: command, message: "missing \(list.missing)")
        }
        let allowed = list.map { $0.maximum.map { singles.count + $0 } ?? .max } ?? singles.count
        if positionals.count > allowed {
            throw UsageError(command: command, message: "unexpected argument '\(positionals[allowed])'")
        }
        var next = 0
        for argument in arguments {
            let taken: [String]
            switch argument.arity {
            case .one: taken = [positionals[next]]
            case .many: taken = Array(positionals[next...])
            }
            next += taken.count
            do {
                try argument.apply(&value, taken)
            } catch {
                throw UsageError(command: command, message: error.message)
            }
        }
    }
}
