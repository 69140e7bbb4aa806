import Foundation
import XCTest

final class CompletionsTests: XCTestCase {
    func testVersionPrintsTheVersion() throws {
        let result = try runKeysim(["--version"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "keysim 0.1.0\n")
    }

    /// Every command, subcommand and option `--help` lists appears in every shell's script:
    /// the help texts are read back and their names looked up in the scripts.
    func testEveryCommandAndOptionOfTheHelpCompletesInEveryShell() throws {
        let top = try runKeysim(["--help"])
        let commands = top.stdout.components(separatedBy: "COMMANDS:\n")[1].components(separatedBy: "\n\n")[0]
            .split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        XCTAssertEqual(commands, ["run", "compare", "gate", "sweep", "report", "merge", "trace", "dict", "completions"])
        var words: [(context: String, word: String)] = commands.map { ("keysim", $0) } + [("keysim", "--version")]
        for command in commands {
            let help = try runKeysim([command, "--help"]).stdout
            if let list = help.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first {
                let subcommands = list.components(separatedBy: "\n\n")[0].split(separator: "\n").map { String($0.split(separator: " ")[0]) }
                XCTAssertFalse(subcommands.isEmpty, command)
                for subcommand in subcommands {
                    words.append((command, subcommand))
                    words += try options(try runKeysim([command, subcommand, "--help"]).stdout).map { ("\(command) \(subcommand)", $0) }
                }
            } else {
                words += try options(help).map { (command, $0) }
            }
        }
        XCTAssertTrue(words.contains { $0 == ("gate", "--junit") } && words.contains { $0 == ("trace stats", "--json") })
        for shell in ["bash", "zsh", "fish"] {
            let result = try runKeysim(["completions", shell])
            XCTAssertEqual(result.status, 0, result.stderr)
            let script = result.stdout
            for (context, word) in words {
                let name = word.hasPrefix("--") ? String(word.dropFirst(2)) : word
                let forms = shell == "fish" && word.hasPrefix("--") ? ["-l \(name)"] : [word, "\(name)"]
                XCTAssertTrue(forms.contains { script.contains($0) }, "\(shell): '\(word)' of \(context) is missing")
            }
        }
        // The scripts are in each command's own section: gate's options follow 'gate)'.
        let bash = try runKeysim(["completions", "bash"]).stdout
        let gateLine = try XCTUnwrap(bash.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("gate)") })
        for option in ["--rules", "--junit", "--summary", "--json", "--replications", "--max-replications", "--precision"] {
            XCTAssertTrue(gateLine.contains(option), "\(option) in \(gateLine)")
        }
        let shellCheck = Process()
        shellCheck.executableURL = URL(fileURLWithPath: "/bin/bash")
        let folder = try TemporaryFolder()
        let file = try folder.write("keysim.bash", bash)
        shellCheck.arguments = ["-c", "source \(file) && COMP_WORDS=(keysim gate --ju) && COMP_CWORD=2 && _keysim && echo \"${COMPREPLY[*]}\""]
        let out = Pipe()
        shellCheck.standardOutput = out
        try shellCheck.run()
        shellCheck.waitUntilExit()
        XCTAssertEqual(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "--junit\n")

        // Where zsh and fish are installed, their scripts parse, and fish completes an option.
        for (shell, check) in [("zsh", "zsh -n SCRIPT && echo ok"), ("fish", "fish -c 'source SCRIPT; complete -C \"keysim gate --ju\"'")] {
            guard let path = ["/usr/bin/\(shell)", "/bin/\(shell)"].first(where: FileManager.default.isExecutableFile) else { continue }
            let script = try folder.write("keysim.\(shell)", try runKeysim(["completions", shell]).stdout)
            let result = try runKeysim(["-c", check.replacingOccurrences(of: "SCRIPT", with: script)],
                                       executable: URL(fileURLWithPath: "/bin/sh"))
            XCTAssertEqual(result.status, 0, "\(path): \(result.stderr)")
            XCTAssertTrue(result.stdout.hasPrefix(shell == "zsh" ? "ok" : "--junit"), "\(shell): \(result.stdout)")
        }

        let bad = try runKeysim(["completions", "tcsh"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("unknown shell 'tcsh'; expected one of: bash, zsh, fish"), bad.stderr)
    }

    /// The `--name` options of a help text.
    func options(_ help: String) throws -> [String] {
        guard let section = help.components(separatedBy: "OPTIONS:\n").dropFirst().first else { return [] }
        return section.components(separatedBy: "\n\n")[0].split(separator: "\n").compactMap { line in
            let first = line.trimmingCharacters(in: .whitespaces).split(separator: " ")[0]
            return first.hasPrefix("--") ? String(first) : (first == "-h," ? "--help" : nil)
        }
    }
}
