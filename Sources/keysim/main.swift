import Foundation
import Report
import Scenarios

/// The tool: its commands in the order `keysim --help` lists them, and the dispatch from
/// the command line to one of them.
enum Keysim {
    /// The commands and groups of subcommands, in the order `keysim --help` lists them.
    static var entries: [ToolEntry] {
        [
            .command(AnyCommand(RunCommand.self)),
            .command(AnyCommand(CompareCommand.self)),
            .command(AnyCommand(GateCommand.self)),
            .command(AnyCommand(SweepCommand.self)),
            .command(AnyCommand(FleetCommand.self)),
            .command(AnyCommand(ReportCommand.self)),
            .command(AnyCommand(MergeCommand.self)),
            .group(TraceCommand.group),
            .group(DictCommand.group),
            .command(AnyCommand(CalibrateCommand.self)),
            .command(AnyCommand(CompletionsCommand.self)),
        ]
    }

    /// `keysim --help`.
    static var help: String {
        let entries = entries
        let width = entries.map(\.help.name.count).max()! + 1
        let rows = entries.map { "  " + $0.help.name.padding(toLength: max(width, $0.help.name.count + 1), withPad: " ", startingAt: 0) + $0.help.abstract }
        return """
        OVERVIEW: keysim — a deterministic discrete-event simulator of AI phone keyboards.

        Replays recorded keystroke and audio traces against models of the keyboard extension's
        threads, the local checker, the debounce timers in front of a cloud LLM, the network, the
        underline protocol and the dictation pipeline; checks the 10 ms key, 200 ms suggestion and
        100 ms dictation budgets; and writes every measurement to a SQLite report.

        USAGE: keysim <command> [options]

        COMMANDS:
        \(rows.joined(separator: "\n"))

        Run 'keysim <command> --help' for a command's options; 'keysim --version' prints the version.
        Exit codes: 0 ok, 1 a checked budget or gate failed, 2 bad input or usage.

        """
    }

    /// Runs the command line `arguments` (without the program's name); returns the exit code.
    static func main(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
            print(help, terminator: "")
            return arguments.isEmpty ? 2 : 0
        }
        if name == "--version" {
            print("keysim \(KeysimVersion.current)")
            return 0
        }
        let entries = entries
        guard let entry = entries.first(where: { $0.name == name }) else {
            let hint = NameSuggester.suggestion(for: name, among: entries.map(\.name)).map { "did you mean '\($0)'?" }
                ?? "run 'keysim --help' for the list"
            printError("keysim: error: unknown command \(NameSuggester.quoted(name)); \(hint)")
            return 2
        }
        let (command, rest) = entry.resolve(Array(arguments.dropFirst()))
        do {
            return try command.execute(rest)
        } catch let error as UsageError {
            printError("keysim \(error.command): error: \(error.message)")
            printError("Usage: keysim \(command.help.usage)  (see 'keysim \(error.command) --help')")
            return 2
        } catch {
            printError("\(error)")
            return 2
        }
    }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

exit(Keysim.main(Array(CommandLine.arguments.dropFirst())))
