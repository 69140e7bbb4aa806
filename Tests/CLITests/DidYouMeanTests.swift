import Foundation
import Report
import XCTest

/// A mistyped command, subcommand, option, format, detail level, shell, typist or policy
/// gets "did you mean", exit 2, and the usage line where it had one.
final class DidYouMeanTests: XCTestCase {
    func testMistypedNamesGetTheClosestName() throws {
        let scenario = "scenarios/default.json5"
        let cases: [([String], String)] = [
            (["rnu", scenario], "keysim: error: unknown command 'rnu'; did you mean 'run'?\n"),
            (["fly"], "keysim: error: unknown command 'fly'; run 'keysim --help' for the list\n"),
            (["trace", "stat", "a.jsonl"], "keysim trace: error: unknown subcommand 'stat'; did you mean 'stats'?\n"),
            (["dict", "biuld"], "keysim dict: error: unknown subcommand 'biuld'; did you mean 'build'?\n"),
            (["run", scenario, "--sed", "3"], "keysim run: error: unknown option '--sed'; did you mean '--seed'?\n"),
            (["run", scenario, "-seed", "3"], "keysim run: error: unknown option '-seed'; did you mean '--seed'?\n"),
            (["sweep", scenario, "--rep", "3"], "keysim sweep: error: unknown option '--rep'; did you mean '--replications'?\n"),
            (["run", scenario, "--detail", "ful"], "keysim run: error: --detail must be one of summary, default, full, not 'ful'; did you mean 'full'?\n"),
            (["report", "r.sqlite", "--format", "hmtl"],
             "keysim report: error: unknown --format 'hmtl'; use one of \(ExporterRegistry.standard.names.joined(separator: ", ")); did you mean 'html'?\n"),
            (["trace", "import", "--format", "typing37", "x.txt"],
             "keysim trace import: error: unknown --format 'typing37' (expected aalto136m or typing37k); did you mean 'typing37k'?\n"),
            (["calibrate", "x.csv", "--out", "o.json5", "--format", "cvs"],
             "keysim calibrate: error: --format must be one of instruments, unified-log, metrickit, csv, trace, not 'cvs'; did you mean 'csv'?\n"),
            (["completions", "zhs"], "keysim completions: error: unknown shell 'zhs'; expected one of: bash, zsh, fish; did you mean 'zsh'?\n"),
            (["trace", "synth", "--text", "t.txt", "--typist", "emial", "--seed", "1"],
             "keysim trace synth: error: --typist 'emial' is neither a preset (chat, email, copying) nor a profile file (typist.json5); did you mean 'email'?\n"),
        ]
        for (arguments, first) in cases {
            let result = try runKeysim(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.stderr.hasPrefix(first), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "")
            let lines = result.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, arguments[0] == "rnu" || arguments[0] == "fly" ? 1 : 2, result.stderr)
            if lines.count == 2 { XCTAssertTrue(lines[1].hasPrefix("Usage: keysim "), result.stderr) }
        }
        // A policy is named by the scenario file: the loader suggests, as it does for fields.
        let policy = try runKeysim(["run", scenario, "--policy", "fixed-1", "--db", "/nonexistent/r.sqlite"])
        XCTAssertEqual(policy.status, 2)
        XCTAssertEqual(policy.stderr, "scenarios/default.json5: error: policies: no policy named 'fixed-1'; did you mean 'fixed-1s'?\n")
        let compare = try runKeysim(["compare", scenario, "--policy", "sed", "--policy", "fixed-1s", "--db", "/nonexistent/r.sqlite"])
        XCTAssertEqual(compare.stderr, "scenarios/default.json5: error: policies: no policy named 'sed'; did you mean 'seed'?\n")
    }
}
