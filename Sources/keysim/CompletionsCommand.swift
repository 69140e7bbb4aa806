import Foundation
import Report
import Scenarios

/// `keysim completions bash|zsh|fish`: shell completion scripts generated from the same
/// declarations `keysim --help` lists, so a command, option or value added there completes too.
struct CompletionsCommand: ParsableCommand {
    /// The shells a script is written for.
    static let shells = ["bash", "zsh", "fish"]

    var shell: [String] = []
    /// `--policies-of FILE` (hidden): the scripts ask for the policies of a scenario this way.
    var policiesOf: String?

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "completions",
            abstract: "Print a shell completion script for bash, zsh or fish.",
            usage: "completions <shell>",
            arguments: [.many("<shell>", \.shell, help: "bash, zsh or fish.", minimum: 0, maximum: 1, completion: .choices(shells))],
            options: [
                .option("policies-of", \.policiesOf, value: "FILE", help: "Print the policies of a scenario file, one a line.",
                        .file, hidden: true),
            ],
            discussion: """
            Install, for example:
              keysim completions bash > ~/.local/share/bash-completion/completions/keysim
              keysim completions zsh > "${fpath[1]}/_keysim"
              keysim completions fish > ~/.config/fish/completions/keysim.fish
            """
        )
    }

    mutating func validate() throws {
        guard policiesOf == nil else {
            if let extra = shell.first { throw Self.usage("unexpected argument '\(extra)'") }
            return
        }
        guard let shell = shell.first else { throw Self.usage("missing <shell>") }
        guard Self.shells.contains(shell) else {
            throw Self.usage("unknown shell '\(shell)'; expected one of: \(Self.shells.joined(separator: ", "))"
                             + NameSuggester.hint(for: shell, among: Self.shells))
        }
    }

    func run() throws -> Int32 {
        if let policiesOf {
            for name in try ScenarioLoader.policyNames(path: policiesOf) { print(name) }
            return 0
        }
        let scripts = CompletionScripts(entries: Keysim.entries)
        switch shell[0] {
        case "bash": print(scripts.bash(), terminator: "")
        case "zsh": print(scripts.zsh(), terminator: "")
        default: print(scripts.fish(), terminator: "")
        }
        return 0
    }
}
