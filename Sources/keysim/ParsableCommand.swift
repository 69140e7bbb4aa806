/// A keysim command, in the shape of swift-argument-parser (hand-written: no packages here):
/// a struct whose options are typed properties, declared once in `configuration` — from
/// which the parser, `--help` and the shell completions all come — then checked together
/// by `validate()` and run by `run()`.
///
///     struct HelloCommand: ParsableCommand {
///         var name = "world"
///         static var configuration: CommandConfiguration<Self> {
///             CommandConfiguration(name: "hello", abstract: "Say hello.", usage: "hello [--name NAME]",
///                                  options: [.option("name", \.name, value: "NAME", help: "Whom to greet.", .string)])
///         }
///         func run() throws -> Int32 { print("hello \(name)"); return 0 }
///     }
///
/// (A computed `configuration`: its key paths and parsers are not `Sendable`, so it cannot
/// be a stored static.)
protocol ParsableCommand {
    /// The name, the help texts, the arguments and the options.
    static var configuration: CommandConfiguration<Self> { get }
    /// The command with every option at its default.
    init()
    /// Checks what the options mean together, after each was parsed on its own; throws a
    /// `UsageError` (exit 2 with the usage line).
    mutating func validate() throws
    /// Does the work and returns the exit code.
    func run() throws -> Int32
}

extension ParsableCommand {
    mutating func validate() throws {}

    /// A usage mistake in this command: `keysim NAME: error: message`, then its usage line.
    static func usage(_ message: String) -> UsageError {
        UsageError(command: configuration.name, message: message)
    }
}

/// What a command declares: its help texts, positional arguments and options. The parser,
/// the `--help` text and the completion scripts are generated from it.
struct CommandConfiguration<Command> {
    /// "run", or "trace synth" for a subcommand (errors and help name it so).
    var name: String
    /// One sentence, for the command list and the help's OVERVIEW.
    var abstract: String
    /// The usage line after "keysim ".
    var usage: String
    /// Positional arguments, in order; only the last may take several values.
    var arguments: [ArgumentDeclaration<Command>] = []
    /// Options, in the order help lists them.
    var options: [OptionDeclaration<Command>] = []
    /// Further text after the options.
    var discussion: String = ""

    /// The help and completion view of the declaration.
    var help: CommandHelp {
        CommandHelp(name: name, abstract: abstract, usage: usage, arguments: arguments.map(\.info),
                    options: options.map(\.info), discussion: discussion)
    }
}

/// A usage mistake: exit code 2 with the command's usage line.
struct UsageError: Error {
    /// The command's name as its help names it ("trace synth").
    var command: String
    /// What is wrong.
    var message: String
}

/// A value an option or argument cannot take; the parser adds the command's name.
struct ValueError: Error {
    /// The whole message, naming the option ("--jobs must be a whole number from 1 to 256, not '0'").
    var message: String
    init(_ message: String) { self.message = message }
}
