import Foundation
import Scenarios
import Sim
import XCTest

/// `keysim trace …` end to end: help text, usage errors and exit codes, and what each
/// subcommand writes, run through the built binary.
final class TraceCommandTests: XCTestCase {
    private func root(_ path: String) -> String { KeysimProcess.packageRoot.appendingPathComponent(path).path }

    private let header = #"{"keysim":"trace","version":1}"#

    // MARK: Help and usage

    func testOverviewHelpIsGolden() throws {
        let result = try KeysimProcess.run(["trace", "--help"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, """
        OVERVIEW: Work with traces: validate, summarise, synthesise, fit typists, compare, anonymise, import.

        USAGE: keysim trace <subcommand> [options]

        ARGUMENTS:
          <subcommand>          validate, stats, synth, fit, compare, anonymize or import.

        OPTIONS:
          -h, --help            Show this help.

        SUBCOMMANDS:
          validate   Check traces and report every problem with its line, not only the first.
          stats      Summarise traces: events, words, sentences, typing speed, intervals, backspaces, dictation.
          synth      Synthesise a keystroke trace from text with a typist model.
          fit        Fit a typist profile to recorded traces, and report how well it reproduces them.
          compare    Put two traces' typing figures side by side, with the KS distance of their intervals.
          anonymize  Replace every letter and digit of a trace, keeping its timing and shape.
          import     Convert keystroke files of a public typing dataset into traces.

        Run 'keysim trace <subcommand> --help' for a subcommand's options.
        Traces are JSON Lines, optionally zstd-compressed (.jsonl.zst): see docs/trace-format.md.

        """)
        let top = try KeysimProcess.run(["--help"])
        XCTAssertTrue(top.stdout.contains("  trace       Work with traces: validate, summarise, synthesise, fit typists, compare, anonymise, import."), top.stdout)
    }

    func testEverySubcommandHasHelp() throws {
        let expected: [(String, [String])] = [
            ("validate", ["OVERVIEW: Check traces and report every problem with its line", "USAGE: keysim trace validate <file>... [--max-problems N] [--no-audio]",
                          "  --max-problems <N>    Problems to print per file", "  --no-audio"]),
            ("stats", ["OVERVIEW: Summarise traces", "USAGE: keysim trace stats <file>... [--json]", "  --json  "]),
            ("synth", ["OVERVIEW: Synthesise a keystroke trace", "USAGE: keysim trace synth --text FILE (--wpm N | --typist PRESET|FILE [--wpm N]) --seed S [--out FILE]", "  --typist <PRESET|FILE>",
                       "  --touch-spread <PT>   Standard deviation of touches around the key's centre, in points, 0 to 33 (default 6, or the profile's; 0: at the centre).",
                       "  --typo-rate <P>", "  --text <FILE>", "  --wpm <N>", "  --seed <S>", "@dictate AUDIO TRANSCRIPT"]),
            ("fit", ["OVERVIEW: Fit a typist profile", "USAGE: keysim trace fit <trace>... --out FILE", "  --factor <N>", "Kolmogorov-Smirnov"]),
            ("compare", ["OVERVIEW: Put two traces' typing figures side by side", "USAGE: keysim trace compare <a> <b>"]),
            ("anonymize", ["OVERVIEW: Replace every letter and digit", "USAGE: keysim trace anonymize <in> <out> --seed S", "Keep it secret."]),
            ("import", ["OVERVIEW: Convert keystroke files", "USAGE: keysim trace import --format aalto136m|typing37k <file>... [--out-dir DIR] [--zstd]",
                        "  --format <NAME>", "  --out-dir <DIR>", "  --zstd"]),
        ]
        for (name, fragments) in expected {
            for flag in ["--help", "-h"] {
                let result = try KeysimProcess.run(["trace", name, flag])
                XCTAssertEqual(result.status, 0, name)
                XCTAssertEqual(result.stderr, "", name)
                for fragment in fragments {
                    XCTAssertTrue(result.stdout.contains(fragment), "\(name) help lacks '\(fragment)':\n\(result.stdout)")
                }
                XCTAssertTrue(result.stdout.contains("  -h, --help            Show this help.\n"))
            }
        }
    }

    func testUsageErrorsExitWithTwoAndSayWhatIsWrong() throws {
        let text = root("traces/text/short-messages.txt")
        let cases: [([String], [String])] = [
            (["trace"], ["keysim trace: error: missing <subcommand> (validate, stats, synth, fit, compare, anonymize or import)",
                         "Usage: keysim trace <subcommand> [options]"]),
            (["trace", "replay"], ["keysim trace: error: unknown subcommand 'replay' (expected validate, stats, synth, fit, compare, anonymize or import)"]),
            (["trace", "validate"], ["keysim trace validate: error: missing <file>", "Usage: keysim trace validate <file>..."]),
            (["trace", "validate", "--max-problems", "-1", "x.jsonl"], ["--max-problems must be a whole number from 0 to 1000000, not '-1'"]),
            (["trace", "stats"], ["keysim trace stats: error: missing <file>"]),
            (["trace", "synth", "--wpm", "40", "--seed", "1"], ["keysim trace synth: error: missing --text <FILE> (the text to type)"]),
            (["trace", "synth", "--text", text, "--seed", "1"], ["keysim trace synth: error: missing --wpm <N> (words per minute)"]),
            (["trace", "synth", "--text", text, "--wpm", "40"], ["keysim trace synth: error: missing --seed <S>"]),
            (["trace", "synth", "--text", text, "--wpm", "400", "--seed", "1"], ["--wpm must be a number from 5 to 250, not '400'"]),
            (["trace", "synth", "--text", text, "--wpm", "fast", "--seed", "1"], ["--wpm must be a number from 5 to 250, not 'fast'"]),
            (["trace", "synth", "--text", text, "--wpm", "40", "--seed", "-3"], ["--seed must be a whole number from 0 to 18446744073709551615, not '-3'"]),
            (["trace", "synth", "--text", text, "--wpm", "40", "--seed", "1", "--typo-rate", "0.9"], ["--typo-rate must be a number from 0 to 0.5, not '0.9'"]),
            (["trace", "synth", "--text", text, "--wpm", "40", "--seed", "1", "--touch-spread", "40"], ["--touch-spread must be a number from 0 to 33, not '40'"]),
            (["trace", "synth", "--text", text, "--wpm", "40", "--seed", "1", "--language", "english!"], ["--language must be a BCP 47 tag"]),
            (["trace", "synth", "--text", text, "--wpm", "40", "--seed", "1", "--out", "x.txt"], ["--out must name a .jsonl or .jsonl.zst file, not 'x.txt'"]),
            (["trace", "synth", "--text", text, "--wpm", "40", "--seed", "1", "--bogus"],
             ["keysim trace synth: error: unknown option '--bogus'", "Usage: keysim trace synth --text FILE", "(see 'keysim trace synth --help')"]),
            (["trace", "synth", "extra", "--text", text, "--wpm", "40", "--seed", "1"], ["keysim trace synth: error: unexpected argument 'extra'"]),
            (["trace", "synth", "--text", text, "--typist", "texting", "--seed", "1"],
             ["--typist 'texting' is neither a preset (chat, email, copying) nor a profile file (typist.json5)"]),
            (["trace", "synth", "--text", text, "--typist", "chat", "--seed", "1", "--typo-rate", "0.9"],
             ["--typo-rate must be a number from 0 to 0.5, not '0.9'"]),
            (["trace", "synth", "--text", text, "--typist", "chat", "--seed", "1", "--touch-spread", "-1"],
             ["--touch-spread must be a number from 0 to 33, not '-1'"]),
            (["trace", "synth", "--text", text, "--typist", "chat", "--seed", "1", "--language", "ru_RU"],
             ["--language must be a BCP 47 tag such as en or pt-BR, not 'ru_RU'"]),
            (["trace", "fit", "a.jsonl"], ["keysim trace fit: error: missing --out <FILE>"]),
            (["trace", "fit", "a.jsonl", "--out", "typist.txt"], ["--out must name a .json5 file, not 'typist.txt'"]),
            (["trace", "fit", "--out", "t.json5"], ["keysim trace fit: error: missing <trace>"]),
            (["trace", "compare", "a.jsonl"], ["keysim trace compare: error: missing <a> and <b>"]),
            (["trace", "anonymize", "a.jsonl", "--seed", "1"], ["keysim trace anonymize: error: missing <in> and <out>"]),
            (["trace", "anonymize", "a.jsonl", "b.jsonl"], ["keysim trace anonymize: error: missing --seed <S>"]),
            (["trace", "anonymize", "a.jsonl", "b.csv", "--seed", "1"], ["<out> must name a .jsonl or .jsonl.zst file, not 'b.csv'"]),
            (["trace", "import", "x.txt"], ["keysim trace import: error: missing --format <NAME> (aalto136m or typing37k)"]),
            (["trace", "import", "--format", "csv", "x.txt"], ["unknown --format 'csv' (expected aalto136m or typing37k)"]),
            (["trace", "import", "--format", "aalto136m"], ["keysim trace import: error: missing <file>"]),
            (["trace", "import", "--format", "aalto136m", "--out-dir", "/nonexistent/dir", "x.txt"], ["--out-dir '/nonexistent/dir' is not an existing folder"]),
        ]
        for (arguments, fragments) in cases {
            let result = try KeysimProcess.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
            for fragment in fragments {
                XCTAssertTrue(result.stderr.contains(fragment), "\(arguments): expected '\(fragment)' in:\n\(result.stderr)")
            }
        }
    }

    // MARK: validate and stats

    func testValidateReportsEveryProblemAndExitsWithTwo() throws {
        let folder = try TemporaryFolder()
        let bad = try folder.write("bad.jsonl", [
            header,
            #"{"t":10,"type":"key","text":"a"}"#,
            #"{"t":5,"type":"key","text":"b"}"#,
            #"{"t":20,"type":"dictation.stop"}"#,
            #"{"t":30,"type":"tap"}"#,
        ].joined(separator: "\n") + "\n")
        let good = root("traces/english-typing.jsonl")
        let result = try KeysimProcess.run(["trace", "validate", good, bad, root("traces/dictation.jsonl")])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, """
        \(bad):3:6: error: time goes backwards (5 ms after 10 ms)
        \(bad):4:1: error: dictation.stop without a dictation.start before it
        \(bad):5:16: error: unknown event type "tap" (expected one of key, backspace, suggestion, cursor, paste, keyboard.show, keyboard.hide, language, network, dictation.start, dictation.stop, chip.accept, field)

        """)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        XCTAssertTrue(lines[0].hasPrefix("\(good): valid, "), String(lines[0]))
        XCTAssertEqual(lines[1], "\(bad): invalid, 3 errors")
        XCTAssertTrue(lines[2].hasPrefix("\(root("traces/dictation.jsonl")): valid, "))

        let limited = try KeysimProcess.run(["trace", "validate", "--max-problems", "1", bad])
        XCTAssertEqual(limited.stderr.split(separator: "\n").count, 2)
        XCTAssertTrue(limited.stderr.hasSuffix("\(bad): note: 2 more problems not shown (--max-problems 1)\n"), limited.stderr)
        let missing = try KeysimProcess.run(["trace", "validate", folder.path("none.jsonl")])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "\(folder.path("none.jsonl")): error: no such file\n")
    }

    func testEveryBundledTraceIsValid() throws {
        let traces = try FileManager.default.contentsOfDirectory(atPath: root("traces"))
            .filter { $0.hasSuffix(".jsonl") || $0.hasSuffix(".jsonl.zst") }.sorted().map { root("traces/" + $0) }
        XCTAssertGreaterThanOrEqual(traces.count, 5)
        let result = try KeysimProcess.run(["trace", "validate"] + traces)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
    }

    func testStatsTableAndJSON() throws {
        let path = root("traces/dictation.jsonl")
        let table = try KeysimProcess.run(["trace", "stats", path])
        XCTAssertEqual(table.status, 0, table.stderr)
        for fragment in ["\(path): dictation, en (keysim trace synth --typist chat --seed 31 --wpm 40)\n", "  events          ", "keyboard.show 2",
                         "dictation.start 3, dictation.stop 3", "  text            29 words, 6 sentences, 139 characters", "  fields          6",
                         "  typing speed    ", " WPM (", "  inter-key (ms)  p10 ", "  p99 ", "  backspace rate  ",
                         "  dictation       3 sessions, "] {
            XCTAssertTrue(table.stdout.contains(fragment), "missing '\(fragment)' in:\n\(table.stdout)")
        }
        let json = try KeysimProcess.run(["trace", "stats", "--json", path, root("traces/english-typing.jsonl")])
        XCTAssertEqual(json.status, 0, json.stderr)
        let objects = try json.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        XCTAssertEqual(objects.count, 2)
        XCTAssertEqual(objects[0]["dictations"] as? Int, 3)
        XCTAssertEqual(objects[0]["words"] as? Int, 29)
        XCTAssertEqual(objects[1]["words"] as? Int, 434)
        XCTAssertEqual(objects[1]["wordsPerMinute"] as! Double, 45, accuracy: 1.5)
        XCTAssertGreaterThan(objects[1]["backspaceTaps"] as! Int, 20)

        let folder = try TemporaryFolder()
        let broken = try folder.write("broken.jsonl", header + "\n" + #"{"t":1,"type":"key"}"# + "\n")
        let failed = try KeysimProcess.run(["trace", "stats", path, broken])
        XCTAssertEqual(failed.status, 2)
        XCTAssertEqual(failed.stdout, "", "a bad trace prints nothing but its error")
        XCTAssertEqual(failed.stderr, "\(broken):2:1: error: missing field \"text\"\n")
    }

    /// Every kind of damage is one clear error with the file and line, exit code 2, and no
    /// output file: for the streaming reader (stats, anonymize) and the validator alike.
    func testDamagedTracesAreClearErrorsAndWriteNothing() throws {
        let folder = try TemporaryFolder()
        var lines = [header]
        for i in 0..<3_000 { lines.append(#"{"t":\#(i),"type":"key","text":"a","up":\#(i + 1),"x":12.5,"y":40}"#) }
        let good = try folder.write("good.jsonl", lines.joined(separator: "\n") + "\n")
        let compressed = folder.path("good.jsonl.zst")
        XCTAssertEqual(try KeysimProcess.run(["trace", "anonymize", good, compressed, "--seed", "1"]).status, 0)
        let zstd = try Array(Data(contentsOf: URL(fileURLWithPath: compressed)))
        func bytes(_ name: String, _ content: [UInt8]) -> String {
            let path = folder.path(name)
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(content)))
            return path
        }
        var flipped = zstd
        for i in stride(from: 40, to: flipped.count - 8, by: 50) { flipped[i] ^= 0xFF }
        let cases: [(path: String, stats: String, validate: String)] = [
            (bytes("cut.jsonl.zst", Array(zstd.prefix(zstd.count - 7))), ": error: truncated zstd stream (the file ends inside a frame)", "truncated zstd stream"),
            (bytes("corrupt.jsonl.zst", flipped), ": error: corrupt zstd data", "corrupt zstd data"),
            (bytes("utf8.jsonl", Array((header + "\n{\"t\":1,\"type\":\"key\",\"text\":\"").utf8) + [0xE2, 0x28, 0xA1] + Array("\"}\n".utf8)),
             ":2:29: error: invalid UTF-8 (byte 0xE2)", ":2:29: error: invalid UTF-8 (byte 0xE2)"),
            (try folder.write("json.jsonl", header + "\n{\"t\":1,\"type\":\"key\" \"text\":\"a\"}\n"),
             ":2:21: error: expected ',' or '}', found '\"'", ":2:21: error: expected ',' or '}'"),
            (try folder.write("time.jsonl", header + "\n{\"t\":9,\"type\":\"key\",\"text\":\"a\"}\n{\"t\":8.5,\"type\":\"key\",\"text\":\"b\"}\n"),
             ":3:6: error: time goes backwards (8.5 ms after 9 ms)", ":3:6: error: time goes backwards"),
            (try folder.write("type.jsonl", header + "\n{\"t\":1,\"type\":\"swipe\"}\n"),
             ":2:15: error: unknown event type \"swipe\"", ":2:15: error: unknown event type"),
            (try folder.write("version.jsonl", "{\"keysim\":\"trace\",\"version\":2}\n{\"t\":1,\"type\":\"key\",\"text\":\"a\"}\n"),
             ":1:29: error: trace format version 2 is newer than this keysim reads (1)", ":1:29: error: trace format version 2 is newer"),
            (folder.url.path, ": error: is a directory, not a file", ": error: is a directory, not a file"),
        ]
        for (path, statsError, validateError) in cases {
            let stats = try KeysimProcess.run(["trace", "stats", path])
            XCTAssertEqual(stats.status, 2, path)
            XCTAssertEqual(stats.stdout, "", path)
            XCTAssertTrue(stats.stderr.hasPrefix(path) && stats.stderr.contains(statsError), "\(path): \(stats.stderr)")
            XCTAssertEqual(stats.stderr.split(separator: "\n").count, 1, stats.stderr)
            let validate = try KeysimProcess.run(["trace", "validate", path])
            XCTAssertEqual(validate.status, 2, path)
            XCTAssertTrue(validate.stderr.hasPrefix(path) && validate.stderr.contains(validateError), "\(path): \(validate.stderr)")
            let out = folder.path("out.jsonl.zst")
            let anonymize = try KeysimProcess.run(["trace", "anonymize", path, out, "--seed", "3"])
            XCTAssertEqual(anonymize.status, 2, path)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "\(path): no half-written output")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("tmp") || $0.hasPrefix("out") }
        XCTAssertEqual(leftovers, [], "no temporary files left behind")
    }

    // MARK: synth

    func testSynthIsDeterministicToStdoutAndToFiles() throws {
        let folder = try TemporaryFolder()
        let text = root("traces/text/mixed-messages.txt")
        let base = ["trace", "synth", "--text", text, "--wpm", "50", "--seed", "5"]
        let stdout = try KeysimProcess.run(base)
        XCTAssertEqual(stdout.status, 0, stdout.stderr)
        XCTAssertEqual(stdout.stderr, "")
        let again = try KeysimProcess.run(base)
        XCTAssertEqual(stdout.stdout, again.stdout, "the same seed gives the same trace")
        let other = try KeysimProcess.run(["trace", "synth", "--text", text, "--wpm", "50", "--seed", "6"])
        XCTAssertNotEqual(stdout.stdout, other.stdout)
        XCTAssertTrue(stdout.stdout.hasPrefix(#"{"keysim":"trace","version":1,"name":"mixed-messages","language":"en","intendedText":"Morning! 👋"#))

        let plain = try KeysimProcess.run(base + ["--out", folder.path("a.jsonl")])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(plain.stdout.hasPrefix("\(folder.path("a.jsonl")): "), plain.stdout)
        XCTAssertEqual(try String(contentsOfFile: folder.path("a.jsonl"), encoding: .utf8), stdout.stdout)
        let compressed = try KeysimProcess.run(base + ["--out", folder.path("a.jsonl.zst")])
        XCTAssertEqual(compressed.status, 0, compressed.stderr)
        var reader = try TraceFileReader(path: folder.path("a.jsonl.zst"))
        var count = 0
        while try reader.nextEvent() != nil { count += 1 }
        XCTAssertEqual(count, stdout.stdout.split(separator: "\n").count - 1)
        XCTAssertEqual(reader.header.intendedText?.hasPrefix("Morning! 👋"), true)
        XCTAssertLessThan(try FileManager.default.attributesOfItem(atPath: folder.path("a.jsonl.zst"))[.size] as! Int,
                          stdout.stdout.utf8.count / 3)
    }

    func testSynthWritesNothingOnBadInput() throws {
        let folder = try TemporaryFolder()
        let out = folder.path("out.jsonl")
        let cases: [(String, String)] = [
            ("dictate.txt", "Hi\n@dictate clips/none.wav hello there\n"),
            ("utf8.txt", "fine\n\u{1}"),
        ]
        let missingClip = try folder.write(cases[0].0, cases[0].1)
        var result = try KeysimProcess.run(["trace", "synth", "--text", missingClip, "--wpm", "40", "--seed", "1", "--out", out])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "\(missingClip):2:10: error: \(folder.path("clips/none.wav")): no such file\n")
        let invalid = folder.path("bytes.txt")
        XCTAssertTrue(FileManager.default.createFile(atPath: invalid, contents: Data([0x68, 0x69, 0x0A, 0x61, 0xFE])))
        result = try KeysimProcess.run(["trace", "synth", "--text", invalid, "--wpm", "40", "--seed", "1", "--out", out])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "\(invalid):2:2: error: invalid UTF-8 (byte 0xFE)\n")
        result = try KeysimProcess.run(["trace", "synth", "--text", folder.path("none.txt"), "--wpm", "40", "--seed", "1", "--out", out])
        XCTAssertEqual(result.stderr, "\(folder.path("none.txt")): error: no such file\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted(), ["bytes.txt", "dictate.txt"])
    }

    // MARK: anonymize

    func testAnonymizeKeepsShapeAndWritesNothingForABadTrace() throws {
        let folder = try TemporaryFolder()
        let input = root("traces/mixed-typing.jsonl")
        let out = folder.path("anon.jsonl.zst")
        let result = try KeysimProcess.run(["trace", "anonymize", input, out, "--seed", "77"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("\(out): 607 events anonymized from \(input)"), result.stdout)
        let again = try KeysimProcess.run(["trace", "anonymize", input, folder.path("again.jsonl.zst"), "--seed", "77"])
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), try Data(contentsOf: URL(fileURLWithPath: folder.path("again.jsonl.zst"))))

        let original = try KeysimProcess.run(["trace", "stats", "--json", input])
        let anonymous = try KeysimProcess.run(["trace", "stats", "--json", out])
        func figures(_ json: String) throws -> NSDictionary {
            var object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
            object["file"] = nil
            // The header's name is free text, replaced word by word (checked below).
            object["name"] = nil
            // Words are replaced whole, so a word left misspelt no longer shares the letters
            // it does share with the word meant: the errors left are compared apart.
            for key in ["wordErrorsLeft", "wordErrorRate", "characterErrorRate"] { object[key] = nil }
            return object as NSDictionary
        }
        XCTAssertEqual(try figures(anonymous.stdout), try figures(original.stdout), "every figure but the file name is kept")
        let errors = try [original, anonymous].map { try JSONSerialization.jsonObject(with: Data($0.stdout.utf8)) as! [String: Any] }
        XCTAssertGreaterThanOrEqual(errors[1]["wordErrorsLeft"] as! Int, errors[0]["wordErrorsLeft"] as! Int,
                                    "a misspelt word stays misspelt")
        var reader = try TraceFileReader(path: out)
        XCTAssertNotEqual(reader.header.intendedText, try TraceFileReader(path: input).header.intendedText)
        XCTAssertEqual(reader.header.source, "anonymized", "the source is free text: dropped")
        let originalName = try XCTUnwrap(TraceFileReader(path: input).header.name)
        let anonymousName = try XCTUnwrap(reader.header.name)
        XCTAssertNotEqual(anonymousName, originalName)
        XCTAssertEqual(anonymousName.map { $0.isLetter }, originalName.map { $0.isLetter }, "the name keeps its shape")
        while try reader.nextEvent() != nil {}

        let dictation = try KeysimProcess.run(["trace", "anonymize", root("traces/dictation.jsonl"), folder.path("d.jsonl"), "--seed", "1"])
        XCTAssertEqual(dictation.status, 0)
        XCTAssertEqual(dictation.stderr, "\(root("traces/dictation.jsonl")): warning: 3 dictations refer to WAV files, which still hold the spoken words\n")

        let bad = try folder.write("bad.jsonl", header + "\n" + #"{"t":1,"type":"key","text":"a"}"# + "\n" + #"{"t":0,"type":"key","text":"b"}"# + "\n")
        let failed = try KeysimProcess.run(["trace", "anonymize", bad, folder.path("never.jsonl"), "--seed", "1"])
        XCTAssertEqual(failed.status, 2)
        XCTAssertEqual(failed.stderr, "\(bad):3:6: error: time goes backwards (0 ms after 1 ms)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("never.jsonl")), "no half-written output")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("never") }, [])
    }
}
