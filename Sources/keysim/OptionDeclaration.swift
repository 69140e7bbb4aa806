/// One option of a command: what help and the completions show, and how its text sets a
/// typed property of the command (through a key path: no option is ever looked up by name
/// after parsing).
struct OptionDeclaration<Command> {
    /// The help and completion view.
    var info: CommandHelp.Option
    /// Sets the property from one occurrence of the option (nil text for a flag).
    var apply: (inout Command, String?) throws(ValueError) -> Void

    /// A flag: `--check` sets the property to true.
    static func flag(_ name: String, _ property: WritableKeyPath<Command, Bool>, help: String) -> Self {
        Self(info: CommandHelp.Option(name: name, valueName: nil, help: help, repeatable: false, completion: .none)) { command, _ in
            command[keyPath: property] = true
        }
    }

    /// An option with one value, nil until given.
    static func option<Value>(_ name: String, _ property: WritableKeyPath<Command, Value?>, value: String, help: String,
                              _ parser: ValueParser<Value>, hidden: Bool = false) -> Self {
        Self(info: CommandHelp.Option(name: name, valueName: value, help: help, repeatable: false,
                                      completion: parser.completion, isHidden: hidden)) { command, text throws(ValueError) in
            command[keyPath: property] = try parser.parse(text ?? "", name)
        }
    }

    /// An option with one value and a default.
    static func option<Value>(_ name: String, _ property: WritableKeyPath<Command, Value>, value: String, help: String,
                              _ parser: ValueParser<Value>) -> Self {
        Self(info: CommandHelp.Option(name: name, valueName: value, help: help, repeatable: false,
                                      completion: parser.completion)) { command, text throws(ValueError) in
            command[keyPath: property] = try parser.parse(text ?? "", name)
        }
    }

    /// An option that may be given more than once; its values in command-line order.
    static func repeating<Value>(_ name: String, _ property: WritableKeyPath<Command, [Value]>, value: String, help: String,
                                 _ parser: ValueParser<Value>) -> Self {
        Self(info: CommandHelp.Option(name: name, valueName: value, help: help, repeatable: true,
                                      completion: parser.completion)) { command, text throws(ValueError) in
            command[keyPath: property].append(try parser.parse(text ?? "", name))
        }
    }
}

/// The positional arguments of a command: zero or more single ones, then at most one that
/// takes several values. The parser checks their count with the messages the commands have
/// always printed ("missing <in> and <out>", "unexpected argument 'x'").
struct ArgumentDeclaration<Command> {
    /// How many values it takes.
    enum Arity {
        /// Exactly one.
        case one
        /// From `minimum` to `maximum` (nil: no limit); `missing` names them when too few.
        case many(minimum: Int, maximum: Int?, missing: String)
    }

    /// The help and completion view.
    var info: CommandHelp.Argument
    /// How many values it takes.
    var arity: Arity
    /// Sets the property from its values.
    var apply: (inout Command, [String]) throws(ValueError) -> Void

    /// One required argument.
    static func one<Value>(_ name: String, _ property: WritableKeyPath<Command, Value>, help: String,
                           _ parser: ValueParser<Value>) -> Self {
        Self(info: CommandHelp.Argument(name: name, help: help, completion: parser.completion), arity: .one) { command, values throws(ValueError) in
            command[keyPath: property] = try parser.parse(values[0], name)
        }
    }

    /// An argument that takes `minimum`… values (`maximum` at most); `missing` is what the
    /// error says is missing ("<file>", "<in>...: the shard files to combine").
    static func many(_ name: String, _ property: WritableKeyPath<Command, [String]>, help: String, minimum: Int = 1,
                     maximum: Int? = nil, missing: String? = nil, completion: ValueCompletion = .file) -> Self {
        Self(info: CommandHelp.Argument(name: name, help: help, completion: completion),
             arity: .many(minimum: minimum, maximum: maximum, missing: missing ?? name)) { command, values in
            command[keyPath: property] = values
        }
    }
}
