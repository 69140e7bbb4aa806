import Foundation
import Report
import Scenarios

/// The subcommands, in the order `keysim --help` lists them.
let commands: [(spec: CommandSpec, run: (ParsedArguments) throws -> Int32)] = [
    (RunCommand.spec, RunCommand.run),
    (CompareCommand.spec, CompareCommand.run),
    (GateCommand.spec, GateCommand.run),
    (SweepCommand.spec, SweepCommand.run),
    (ReportCommand.spec, ReportCommand.run),
    (MergeCommand.spec, MergeCommand.run),
    (TraceCommand.spec, TraceCommand.run),
    (DictCommand.spec, DictCommand.run),
    (CompletionsCommand.spec, CompletionsCommand.run),
]

let toolHelp = """
OVERVIEW: keysim — a deterministic discrete-event simulator of AI phone keyboards.

Replays recorded keystroke and audio traces against models of the keyboard extension's
threads, the local checker, the debounce timers in front of a cloud LLM, the network, the
underline protocol and the dictation pipeline; checks the 10 ms key, 200 ms suggestion and
100 ms dictation budgets; and writes every measurement to a SQLite report.

USAGE: keysim <command> [options]

COMMANDS:
\(commands.map { "  " + commandColumn($0.spec.name) + $0.spec.abstract }.joined(separator: "\n"))

Run 'keysim <command> --help' for a command's options; 'keysim --version' prints the version.
Exit codes: 0 ok, 1 a checked budget or gate failed, 2 bad input or usage.

"""

@MainActor func main() -> Int32 {
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
        print(toolHelp, terminator: "")
        return arguments.isEmpty ? 2 : 0
    }
    if name == "--version" {
        print("keysim \(KeysimVersion.current)")
        return 0
    }
    arguments.removeFirst()
    // A subcommand's spec is named with both words ("trace synth"), so that its usage
    // errors name it and point at its own --help; commands are found by the first word.
    guard let command = commands.first(where: { $0.spec.name.prefix(while: { $0 != " " }) == name }) else {
        printError("keysim: error: unknown command '\(name)'; run 'keysim --help' for the list")
        return 2
    }
    do {
        let parsed = try ParsedArguments(arguments, spec: command.spec)
        if parsed.wantsHelp {
            print(command.spec.help, terminator: "")
            return 0
        }
        return try command.run(parsed)
    } catch let error as UsageError {
        printError("keysim \(error.command): error: \(error.message)")
        printError("Usage: keysim \(command.spec.usage)  (see 'keysim \(error.command) --help')")
        return 2
    } catch {
        printError("\(error)")
        return 2
    }
}

/// A command's name padded to the column of the abstracts (a longer name gets one space).
func commandColumn(_ name: String) -> String {
    name.count < 10 ? name.padding(toLength: 10, withPad: " ", startingAt: 0) : name + " "
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

exit(main())
