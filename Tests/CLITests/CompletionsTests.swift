import Foundation
import Report
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
        XCTAssertEqual(commands, ["run", "compare", "gate", "sweep", "fleet", "report", "merge", "trace", "dict", "calibrate", "completions"])
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

    /// Option values complete from the declarations: formats, detail levels, typists,
    /// shells and datasets from their lists, `--policy` from the scenario on the command
    /// line, paths from files. Bash runs its script for real; zsh and fish are read as text
    /// (and run where installed, above).
    func testOptionValuesComplete() throws {
        let folder = try TemporaryFolder()
        let script = try folder.write("keysim.bash", try runKeysim(["completions", "bash"]).stdout)
        try folder.write("chapter.txt", "x")
        let keysim = KeysimProcess.executable.path
        let scenario = KeysimProcess.packageRoot.appendingPathComponent("scenarios/default.json5").path
        func complete(_ words: [String]) throws -> String {
            let quoted = ([keysim] + words).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            let result = try runKeysim(["-c", "source \(script) && COMP_WORDS=(\(quoted)) && COMP_CWORD=\(words.count) && { _keysim; echo \"${COMPREPLY[*]}\"; }"],
                                       in: folder.url, executable: URL(fileURLWithPath: "/bin/bash"))
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.trimmingCharacters(in: .newlines)
        }
        let cases: [([String], String)] = [
            (["run", scenario, "--detail", ""], "summary default full"),
            (["sweep", scenario, "--detail", "f"], "full"),
            (["run", scenario, "--detail", "=", "s"], "summary"),
            (["report", "r.sqlite", "--format", "c"], "csv chrome-trace"),
            (["trace", "synth", "--typist", "c"], "chat copying chapter.txt"),
            (["trace", "import", "--format", ""], "aalto136m typing37k"),
            (["calibrate", "x.csv", "--kind", "shifted-g"], "shifted-gamma"),
            (["completions", ""], "bash zsh fish"),
            (["trace", "f"], "fit"),
            (["run", scenario, "--policy", ""], "seed fixed-1s adaptive"),
            (["run", "--seed", "3", "--db", "r.sqlite", scenario, "--policy", "f"], "fixed-1s"),
            (["compare", scenario, "--policy", "seed", "--policy", ""], "seed fixed-1s adaptive"),
            (["gate", "--rules", "rules.json5", scenario, "--policy", "s"], "seed"),
            (["run", "missing.json5", "--policy", ""], ""),
            (["run", scenario, "--db", "cha"], "chapter.txt"),
            (["run", scenario, "--seed", ""], ""),
            (["gate", "--ju"], "--junit"),
        ]
        for (words, expected) in cases {
            XCTAssertEqual(try complete(words), expected, "\(words)")
        }

        let formats = ExporterRegistry.standard  // the formats a new exporter adds itself to
        let zsh = try runKeysim(["completions", "zsh"]).stdout
        for line in ["'--detail[How much the report keeps: summary, default or full (default: the scenario'\\''s detail, else default).]:LEVEL:(summary default full)'",
                     "'--format[\(formats.optionHelp)]:FORMAT:(\(formats.names.joined(separator: " ")))'",
                     ":PRESET|FILE:{_keysim_words_or_files chat email copying}'", ":NAME:_keysim_policies'",
                     "'--out-dir[Folder for the traces (default: the current folder).]:DIR:_files -/'",
                     "'1:shell:(bash zsh fish)'",
                     "policies=(${(f)\"$($keysim completions --policies-of ${(Q)line[1]} 2>/dev/null)\"})"] {
            XCTAssertTrue(zsh.contains(line), "zsh: \(line)")
        }
        let fish = try runKeysim(["completions", "fish"]).stdout
        for line in ["complete -c keysim -n '__fish_seen_subcommand_from run' -l detail -r -f -a 'summary default full' -d ",
                     "complete -c keysim -n '__fish_seen_subcommand_from report' -l format -r -f -a '\(formats.names.joined(separator: " "))' -d ",
                     "-l typist -r -F -a 'chat email copying' -d ",
                     "complete -c keysim -n '__fish_seen_subcommand_from run' -l policy -r -f -a '(__keysim_policies --seed --replications --max-replications --precision --jobs --db --policy --set --detail --shard)' -d ",
                     "complete -c keysim -f -n '__fish_seen_subcommand_from completions' -a 'bash zsh fish'",
                     "            $tokens[1] completions --policies-of $token 2>/dev/null"] {
            XCTAssertTrue(fish.contains(line), "fish: \(line)")
        }
        // The hidden helper the scripts call: not in help, not completed, errors exit 2.
        XCTAssertEqual(try runKeysim(["completions", "--policies-of", "scenarios/default.json5"]).stdout, "seed\nfixed-1s\nadaptive\n")
        XCTAssertFalse(try runKeysim(["completions", "--help"]).stdout.contains("policies-of"))
        XCTAssertEqual(try runKeysim(["completions", "--policies-of", "nowhere.json5"]).status, 2)
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
