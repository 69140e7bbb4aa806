import Foundation
import Scenarios
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Issue 29, families 2, 4 and 7 and the stop without a start: the real `keysim` binary on
/// each bad input ends with exit 0 or 2 and a message naming the file, line and limit.
final class ReliabilityRound3Tests: XCTestCase {
    private let limit = "out of range (at most 9007199254.740992 ms, about 104 days)"
    private let regressions = "Fuzz/regressions/FuzzCalibration/"

    /// The CPU time of the children waited for so far, in seconds.
    private func childrenSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// `keysim arguments…` with its CPU time.
    private func timed(_ arguments: [String], in directory: URL = KeysimProcess.packageRoot) throws -> (KeysimProcess.Output, Double) {
        let before = childrenSeconds()
        let result = try KeysimProcess.run(arguments, in: directory)
        return (result, childrenSeconds() - before)
    }

    // MARK: Family 2: durations past the limit

    func testCalibrateRefusesDurationsPastTheLimitInEveryFormat() throws {
        let folder = try TemporaryFolder()
        let cases = [
            ("largest-double.csv", "largest-double.csv:7:8: error: duration_ms 1.7976931348623157e308 ms is " + limit),
            ("beyond-limit.csv", "beyond-limit.csv:7:8: error: duration_ms 1.2e29 ms is " + limit),
            ("instruments-huge-duration.xml", "instruments-huge-duration.xml:4:68: error: duration 9223372036854775807 ns is " + limit),
            ("signpost-ten-thousand-years.ndjson", "signpost-ten-thousand-years.ndjson:2:111: error: signpost 1 \"lookup\" lasts 253402660739999999 µs since line 1, " + limit),
            ("metrickit-infinite-edge.json", "metrickit-infinite-edge.json:1:226: error: \"bucketStart\" \"1e305 min\" is " + limit),
            ("metrickit-count-total.json", "metrickit-count-total.json:1:221: error: \"bucketCount\" 900000000000 brings \"rerank\" to 1800000000000 durations, out of range (at most 1000000000000)"),
        ]
        for (name, message) in cases {
            // --html too: the page once drew the CDF at NaN and stopped on a precondition.
            let (result, seconds) = try timed(["calibrate", regressions + name, "--out", folder.path("o.json5"), "--html", folder.path("o.html"), "--map", "rerank=rerank"])
            XCTAssertEqual(result.status, 2, name + result.stderr)
            XCTAssertEqual(result.stderr, regressions + message + "\n")
            XCTAssertLessThan(seconds, 10, name)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path), [], "nothing written for \(name)")
        }
        // The limit itself is a duration, and the table prints numbers, never inf.
        let (atLimit, _) = try timed(["calibrate", regressions + "at-limit.csv", "--out", folder.path("o.json5"), "--html", folder.path("o.html")])
        XCTAssertEqual(atLimit.status, 0, atLimit.stderr)
        XCTAssertTrue(atLimit.stdout.contains("8556839292.25"), atLimit.stdout)
        XCTAssertFalse(atLimit.stdout.contains("inf"), atLimit.stdout)
    }

    /// A trace's `measure` line and a CSV row past the limit fail alike, at the same limit.
    func testTheTraceAndTheCSVReadersShareTheLimit() throws {
        let folder = try TemporaryFolder()
        let trace = try folder.write("m.jsonl", """
            {"keysim":"trace","version":1}
            {"t":1,"type":"measure","kind":"lookup","durationMs":9007199254.740993}

            """)
        let csv = try folder.write("m.csv", "kind,duration_ms\nlookup,9007199254.740993\n")
        let fromTrace = try KeysimProcess.run(["calibrate", trace, "--out", folder.path("o.json5")])
        XCTAssertEqual(fromTrace.status, 2)
        XCTAssertEqual(fromTrace.stderr, "\(trace):2:54: error: \"durationMs\" 9007199254.740993 ms is \(limit)\n")
        let fromCSV = try KeysimProcess.run(["calibrate", csv, "--out", folder.path("o.json5")])
        XCTAssertEqual(fromCSV.status, 2)
        XCTAssertEqual(fromCSV.stderr, "\(csv):2:8: error: duration_ms 9007199254.740993 ms is \(limit)\n")
    }

    /// A scenario's durations obey the same limit: past it is an error naming the field,
    /// where it was once clamped to 104 days without a word.
    func testScenarioDurationsPastTheLimitAreErrors() throws {
        let folder = try TemporaryFolder()
        let trace = KeysimProcess.packageRoot.appendingPathComponent("traces/english-typing.jsonl").path
        let cases = [
            ("debounce: { policy: \"fixed\", delayMs: 1e20 }", "2:41: error: debounce.delayMs: 1e+20 ms is "),
            ("keyboard: { work: { key: { thread: \"main\", priority: 10, cost: { type: \"constant\", valueMs: 1e300 } } } }",
             "2:95: error: keyboard.work.key.cost.valueMs: 1e+300 ms is "),
            ("network: { timeoutMs: 9007199254.741 }", "2:25: error: network.timeoutMs: 9007199254.741 ms is "),
        ]
        for (field, message) in cases {
            let scenario = try folder.write("s.json5", "{ name: \"s\", seed: 1, replications: 1, traces: [\"\(trace)\"],\n  \(field) }\n")
            let result = try KeysimProcess.run(["run", scenario, "--db", folder.path("r.sqlite")])
            XCTAssertEqual(result.status, 2, field)
            XCTAssertEqual(result.stderr, scenario + ":" + message + limit + "\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("r.sqlite")))
        }
    }

    // MARK: Family 4: one long word

    /// A word of a million letters (a pasted token), and the same trace a quarter as long:
    /// linear time makes the ratio about 4 (a quadratic anonymiser made it 16).
    func testAnonymizeIsLinearInTheLengthOfOneWord() throws {
        let folder = try TemporaryFolder()
        func trace(_ letters: Int, meant: Bool = false) throws -> String {
            let word = String(repeating: "b", count: letters)
            return try folder.write("w\(letters).jsonl", """
                {"keysim":"trace","version":1,"name":"token","language":"en","intendedText":"\(meant ? word : "b") ok"}
                {"t":1,"type":"paste","text":"\(word)"}
                {"t":2,"type":"key","text":" "}
                {"t":3,"type":"key","text":"o"}
                {"t":4,"type":"key","text":"k"}

                """)
        }
        let (small, smallSeconds) = try timed(["trace", "anonymize", try trace(250_000), folder.path("s.jsonl"), "--seed", "4"])
        XCTAssertEqual(small.status, 0, small.stderr)
        let (large, largeSeconds) = try timed(["trace", "anonymize", try trace(1_000_000), folder.path("l.jsonl"), "--seed", "4"])
        XCTAssertEqual(large.status, 0, large.stderr)
        XCTAssertLessThan(largeSeconds, 120, "a sanity bound for a debug build on a shared machine")
        XCTAssertLessThan(largeSeconds, 8 * smallSeconds + 1, "\(largeSeconds) s for 1M letters against \(smallSeconds) s for 250k")

        var reader = try TraceFileReader(path: folder.path("l.jsonl"))
        guard case .paste(let pasted)? = try reader.nextEvent()?.kind else { return XCTFail("no paste") }
        XCTAssertEqual(pasted.unicodeScalars.count, 1_000_000)
        XCTAssertGreaterThan(Set(pasted.prefix(1000)).count, 20, "each position drawn afresh")
        // The word meant is replaced as the pasted word is.
        let meant = try KeysimProcess.run(["trace", "anonymize", try trace(30_000, meant: true), folder.path("m.jsonl"), "--seed", "4"])
        XCTAssertEqual(meant.status, 0, meant.stderr)
        var smaller = try TraceFileReader(path: folder.path("m.jsonl"))
        guard case .paste(let smallPaste)? = try smaller.nextEvent()?.kind else { return XCTFail("no paste") }
        XCTAssertEqual(smaller.header.intendedText?.unicodeScalars.count, 30_003)
        XCTAssertTrue(smaller.header.intendedText!.hasPrefix(smallPaste + " "), "the pasted word and the word meant are the same word")
    }

    // MARK: Family 7: the header's free text

    func testAnonymizeKeepsNoWordOfTheHeadersNameOrSource() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("in.jsonl", """
            {"keysim":"trace","version":1,"name":"Q3 layoffs list for Alice","language":"en","source":"recorded on Bob's iPhone"}
            {"t":1,"type":"key","text":"h"}
            {"t":2,"type":"key","text":"i"}

            """)
        let result = try KeysimProcess.run(["trace", "anonymize", input, folder.path("out.jsonl"), "--seed", "9"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let header = try String(contentsOfFile: folder.path("out.jsonl"), encoding: .utf8).split(separator: "\n")[0]
        for word in ["Q3", "layoffs", "list", "for", "Alice", "recorded", "Bob", "iPhone"] {
            XCTAssertFalse(header.contains(word), "\(word) in \(header)")
        }
        let anonymous = try TraceFileReader(path: folder.path("out.jsonl")).header
        XCTAssertEqual(anonymous.source, "anonymized")
        XCTAssertEqual(anonymous.name?.map(\.isLetter), "Q3 layoffs list for Alice".map(\.isLetter))
        XCTAssertEqual(anonymous.language, "en")
    }

    // MARK: Also seen: a stop without a start

    /// Every command that reads a trace refuses what `trace validate` refuses, with the same
    /// message and exit 2.
    func testEveryTraceReaderRefusesAStopWithoutAStart() throws {
        let folder = try TemporaryFolder()
        let trace = try folder.write("stop.jsonl", """
            {"keysim":"trace","version":1,"name":"t","language":"en"}
            {"t":1,"type":"measure","kind":"lookup","durationMs":3}
            {"t":2,"type":"dictation.stop"}

            """)
        let scenario = try folder.write("s.json5", "{ name: \"s\", seed: 1, replications: 1, traces: [\"stop.jsonl\"] }\n")
        let message = "\(trace):3:1: error: dictation.stop without a dictation.start before it"
        let commands: [[String]] = [
            ["trace", "validate", trace], ["trace", "stats", trace], ["trace", "fit", trace, "--out", folder.path("t.json5")],
            ["trace", "compare", trace, trace], ["trace", "anonymize", trace, folder.path("a.jsonl"), "--seed", "1"],
            ["calibrate", trace, "--out", folder.path("c.json5")], ["run", scenario, "--db", folder.path("r.sqlite")],
        ]
        for command in commands {
            let (result, seconds) = try timed(command)
            XCTAssertEqual(result.status, 2, command.joined(separator: " "))
            XCTAssertTrue(result.stderr.contains(message), "\(command): \(result.stderr)")
            XCTAssertLessThan(seconds, 10)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted(), ["s.json5", "stop.jsonl"], "nothing written")
    }
}
