import Foundation
import Scenarios
import Sim
import XCTest

/// `keysim trace synth --typist`, `trace fit` and `trace compare` end to end.
final class TypistCommandTests: XCTestCase {
    private func root(_ path: String) -> String { KeysimProcess.packageRoot.appendingPathComponent(path).path }

    func testSynthWithAPresetFitAndSynthAgainFromTheProfile() throws {
        let folder = try TemporaryFolder()
        let text = root("traces/text/english-messages.txt")
        let chat = folder.path("chat.jsonl")
        let made = try KeysimProcess.run(["trace", "synth", "--text", text, "--typist", "chat", "--seed", "3", "--out", chat])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(made.stdout.hasPrefix("\(chat): "), made.stdout)
        let validate = try KeysimProcess.run(["trace", "validate", chat])
        XCTAssertEqual(validate.status, 0, validate.stdout + validate.stderr)
        let stats = try KeysimProcess.run(["trace", "stats", chat])
        for fragment in ["field 9", "  fields          8", "  pauses          ", " per 100 words over 400 ms / 1 s / 2 s (", "  errors left     "] {
            XCTAssertTrue(stats.stdout.contains(fragment), "missing '\(fragment)' in:\n\(stats.stdout)")
        }

        let profile = folder.path("typist.json5")
        let fit = try KeysimProcess.run(["trace", "fit", chat, "--out", profile, "--factor", "3"])
        XCTAssertEqual(fit.status, 0, fit.stderr)
        for fragment in ["\(profile): typist 'typist' fitted to 1 trace, 434 words", "resynthesis ×3", "typing speed (WPM)",
                         "gaps > 2 s / 100 words", "characters left wrong", "KS distance, within-word intervals: 0.0"] {
            XCTAssertTrue(fit.stdout.contains(fragment), "missing '\(fragment)' in:\n\(fit.stdout)")
        }
        let written = try String(contentsOfFile: profile, encoding: .utf8)
        XCTAssertTrue(written.contains("name: \"typist\""), written)
        XCTAssertFalse(written.contains("Sam"), "a profile holds no text")
        XCTAssertNoThrow(try TypistProfile.read(path: profile))

        let again = folder.path("again.jsonl")
        let resynth = try KeysimProcess.run(["trace", "synth", "--text", root("traces/text/short-messages.txt"), "--typist", profile,
                                             "--seed", "4", "--out", again])
        XCTAssertEqual(resynth.status, 0, resynth.stderr)
        let compare = try KeysimProcess.run(["trace", "compare", chat, again])
        XCTAssertEqual(compare.status, 0, compare.stderr)
        for fragment in ["chat.jsonl", "again.jsonl", "typing speed (WPM)", "KS distance, all intervals within messages: "] {
            XCTAssertTrue(compare.stdout.contains(fragment), "missing '\(fragment)' in:\n\(compare.stdout)")
        }
    }

    func testSynthScalesAProfileToAWordsPerMinute() throws {
        let folder = try TemporaryFolder()
        let out = folder.path("fast.jsonl")
        let made = try KeysimProcess.run(["trace", "synth", "--text", root("traces/text/english-messages.txt"), "--typist", "copying",
                                          "--wpm", "60", "--seed", "2", "--out", out])
        XCTAssertEqual(made.status, 0, made.stderr)
        let json = try KeysimProcess.run(["trace", "stats", "--json", out])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(object["wordsPerMinute"] as! Double, 60, accuracy: 0.8)
    }

    func testTypoRateTouchSpreadAndLanguageReplaceTheProfiles() throws {
        let folder = try TemporaryFolder()
        let out = folder.path("touch.jsonl")
        let made = try KeysimProcess.run(["trace", "synth", "--text", root("traces/text/english-messages.txt"), "--typist", "email",
                                          "--typo-rate", "0", "--touch-spread", "8", "--language", "en-GB", "--wpm", "45",
                                          "--seed", "8", "--out", out])
        XCTAssertEqual(made.status, 0, made.stderr)
        let header = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
        XCTAssertTrue(header.contains("\"language\":\"en-GB\""), header)
        XCTAssertTrue(header.contains("\"source\":\"keysim trace synth --typist email --seed 8 --wpm 45 --typo-rate 0 --touch-spread 8 --language en-GB\""),
                      header)
        let json = try KeysimProcess.run(["trace", "stats", "--json", out])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(object["wordsPerMinute"] as! Double, 45, accuracy: 0.8, "--wpm after the overrides")
        XCTAssertEqual(object["backspaceRate"] as? Double, 0, "no slips: \(json.stdout)")
        let profile = folder.path("fitted.json5")
        let fit = try KeysimProcess.run(["trace", "fit", out, "--out", profile, "--factor", "1"])
        XCTAssertEqual(fit.status, 0, fit.stderr)
        let fitted = try TypistProfile.read(path: profile)
        XCTAssertEqual(fitted.touchSpreadPoints, 8, accuracy: 0.5)
        XCTAssertEqual(fitted.errors.slipRate, 0)
        XCTAssertEqual(fitted.language, "en-GB")
    }

    func testEverySynthesisedBundledTraceIsRemadeByItsReadmeCommand() throws {
        let traces = KeysimProcess.packageRoot.appendingPathComponent("traces")
        let readme = try String(contentsOf: traces.appendingPathComponent("README.md"), encoding: .utf8)
        let commands = readme.split(separator: "\n").compactMap { line -> [String]? in
            guard line.hasPrefix("| `"), let start = line.range(of: "`keysim trace synth ") else { return nil }
            let rest = line[start.upperBound...]
            guard let end = rest.firstIndex(of: "`") else { return nil }
            return rest[..<end].split(separator: " ").map(String.init)
        }
        XCTAssertEqual(commands.count, 7, "a command in every row but the hand-made traces'")
        for command in commands {
            // Run from the traces folder, as the README says, writing into a fresh folder with
            // the clips beside it (dictation clips are relative to the output).
            let folder = try TemporaryFolder()
            try FileManager.default.copyItem(at: traces.appendingPathComponent("clips"), to: URL(fileURLWithPath: folder.path("clips")))
            guard let outIndex = command.firstIndex(of: "--out"), outIndex + 1 < command.count else { return XCTFail("\(command)") }
            var arguments = ["trace", "synth"] + command
            let name = command[outIndex + 1]
            arguments[outIndex + 3] = folder.path(name)
            let made = try KeysimProcess.run(arguments, in: traces)
            XCTAssertEqual(made.status, 0, "\(command): \(made.stderr)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder.path(name))),
                           try Data(contentsOf: traces.appendingPathComponent(name)), "\(name) is not what its README command makes")
        }
    }

    func testABadProfileIsAnErrorWithItsLineAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        let profile = try folder.write("bad.json5", "{ preset: \"chat\",\n  messages: { hideProbability: 2 } }\n")
        let out = folder.path("x.jsonl")
        let result = try KeysimProcess.run(["trace", "synth", "--text", root("traces/text/short-messages.txt"), "--typist", profile,
                                            "--seed", "1", "--out", out])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "\(profile):2:32: error: messages.hideProbability: must be between 0 and 1 (got 2)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let missing = try KeysimProcess.run(["trace", "fit", folder.path("none.jsonl"), "--out", folder.path("t.json5")])
        XCTAssertEqual(missing.status, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("t.json5")))
    }
}
