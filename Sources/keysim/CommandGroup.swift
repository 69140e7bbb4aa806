import Scenarios

/// A command as the tool runs it, whatever its type: its help and a function from its
/// arguments to an exit code (parse, print help when asked, validate, run).
struct AnyCommand {
    /// Its help and completion view.
    let help: CommandHelp
    /// Runs it on the arguments after its name.
    let execute: ([String]) throws -> Int32

    /// The command of type `Command`.
    init<Command: ParsableCommand>(_ type: Command.Type) {
        let help = Command.configuration.help
        self.help = help
        execute = { arguments in
            guard var command = try CommandParser.parse(arguments, as: Command.self) else {
                print(help.text, terminator: "")
                return 0
            }
            try command.validate()
            return try command.run()
        }
    }

    init(help: CommandHelp, execute: @escaping ([String]) throws -> Int32) {
        self.help = help
        self.execute = execute
    }
}

/// A command made of subcommands (`trace`, `dict`): `keysim trace synth …` runs `synth`
/// with the arguments after its name; `keysim trace` alone, `--help` or an unknown name
/// gets the group's own help or error.
struct CommandGroup {
    /// The group's help (`keysim trace --help`), listing the subcommands.
    let help: CommandHelp
    /// The subcommands, in the order the help lists them.
    let subcommands: [AnyCommand]

    /// A group named `name`; `footer` ends its help after the line that points at the
    /// subcommands' own help.
    init(name: String, abstract: String, subcommands: [AnyCommand], footer: String) {
        self.subcommands = subcommands
        let leaves = subcommands.map(\.help.leaf)
        let rows = subcommands.map { "  " + $0.help.leaf.padding(toLength: 11, withPad: " ", startingAt: 0) + $0.help.abstract }
        help = CommandHelp(
            name: name, abstract: abstract, usage: "\(name) <subcommand> [options]",
            arguments: [CommandHelp.Argument(name: "<subcommand>", help: Self.list(leaves) + ".", completion: .choices(leaves))],
            discussion: "SUBCOMMANDS:\n" + rows.joined(separator: "\n")
                + "\n\nRun 'keysim \(name) <subcommand> --help' for a subcommand's options.\n" + footer)
    }

    /// "a, b or c".
    static func list(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The command that runs `arguments` (after the group's name) and the arguments it gets.
    func resolve(_ arguments: [String]) -> (command: AnyCommand, arguments: [String]) {
        if let first = arguments.first, let subcommand = subcommands.first(where: { $0.help.leaf == first }) {
            return (subcommand, Array(arguments.dropFirst()))
        }
        return (AnyCommand(help: help, execute: overview), arguments)
    }

    /// The group without a subcommand: its help, or what is missing or unknown.
    private func overview(_ arguments: [String]) throws -> Int32 {
        let words = try CommandParser.split(arguments, command: help.name, options: [])
        if words.wantsHelp {
            print(help.text, terminator: "")
            return 0
        }
        let leaves = subcommands.map(\.help.leaf)
        guard let name = words.positionals.first else {
            throw UsageError(command: help.name, message: "missing <subcommand> (\(Self.list(leaves)))")
        }
        // `keysim trace -- stats`: the subcommand after `--`, with nothing left to parse as options.
        if let subcommand = subcommands.first(where: { $0.help.leaf == name }) {
            return try subcommand.execute(["--"] + words.positionals.dropFirst())
        }
        let known = NameSuggester.suggestion(for: name, among: leaves).map { "; did you mean '\($0)'?" }
            ?? " (expected \(Self.list(leaves)))"
        throw UsageError(command: help.name, message: "unknown subcommand \(NameSuggester.quoted(name))\(known)")
    }
}

/// One entry of `keysim --help`: a command or a group of subcommands.
enum ToolEntry {
    case command(AnyCommand)
    case group(CommandGroup)

    /// Its help (a group's overview).
    var help: CommandHelp {
        switch self {
        case .command(let command): command.help
        case .group(let group): group.help
        }
    }

    /// The first word of its name ("trace").
    var name: String { String(help.name.prefix { $0 != " " }) }

    /// Its subcommands' help, empty for a plain command.
    var subcommands: [CommandHelp] {
        if case .group(let group) = self { return group.subcommands.map(\.help) }
        return []
    }

    /// The command that runs `arguments` (after the entry's name) and the arguments it gets.
    func resolve(_ arguments: [String]) -> (command: AnyCommand, arguments: [String]) {
        switch self {
        case .command(let command): (command, arguments)
        case .group(let group): group.resolve(arguments)
        }
    }
}
