import Foundation
import XCTest

/// `keysim calibrate` end to end: the docs' Instruments example to an overlay a scenario
/// runs with, the page, unmapped names, and every bad input an error with its file and
/// line, exit code 2 and no file written.
final class CalibrateCommandTests: XCTestCase {
    private var example: String { KeysimProcess.packageRoot.appendingPathComponent("docs/calibration").path }

    func testHelpListsEveryOption() throws {
        let help = try KeysimProcess.run(["calibrate", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("""
            OVERVIEW: Fit cost distributions to durations measured on the device; write a scenario overlay.

            USAGE: keysim calibrate <input>... --out FILE [--map NAME=kind]... [--map-file FILE] [--kind KIND] [--html FILE]

            """), help.stdout)
        for option in ["--out <FILE>", "--map <NAME=kind>", "--map-file <FILE>", "--kind <KIND>", "--format <FORMAT>", "--html <FILE>", "--ks-floor <D>"] {
            XCTAssertTrue(help.stdout.contains("  \(option) "), option)
        }
        XCTAssertTrue(try KeysimProcess.run(["--help"]).stdout.contains("  calibrate   Fit cost distributions"))
    }

    func testTheInstrumentsExampleCalibratesAScenarioThatRuns() throws {
        let folder = try TemporaryFolder()
        for name in ["keyboard-signposts.xml", "signposts.map"] {
            try FileManager.default.copyItem(atPath: example + "/" + name, toPath: folder.path(name))
        }
        let result = try KeysimProcess.run(["calibrate", "keyboard-signposts.xml", "--map-file", "signposts.map",
                                            "--out", "costs.json5", "--html", "costs.html"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, """
            keyboard-signposts.xml: 3 interval(s) without an end (a sentinel duration) left out
            kind     n  measured p50    p99           chosen  fitted p50    p99   KS D  limit  note
            ------  --  ------------  -----  ---------------  ----------  -----  -----  -----  ----
            key     59          2.10   4.95    shifted-gamma        2.08   4.95  0.068  0.212
            lookup  60          3.63   9.38  shifted-weibull        3.57   9.10  0.056  0.210
            rerank  59         16.64  43.84            gamma       16.58  54.05  0.067  0.212
            draw    59          0.86   2.29        lognormal        0.86   2.44  0.060  0.212
            overlay: costs.json5, page: costs.html

            """)
        XCTAssertEqual(result.stderr, "keysim calibrate: warning: unmapped name \"Haptic Feedback\" (10 duration(s) in keyboard-signposts.xml); map it with --map NAME=kind\n")
        // The committed example overlay is exactly what the documented command writes.
        let written = try String(contentsOfFile: folder.path("costs.json5"), encoding: .utf8)
        let committed = try String(contentsOfFile: example + "/costs.json5", encoding: .utf8)
        func body(_ text: String) -> [Substring] {
            text.replacingOccurrences(of: "docs/calibration/", with: "").split(separator: "\n")
                .filter { !$0.hasPrefix("// Made by:") }
        }
        XCTAssertEqual(body(written), body(committed))
        let page = try String(contentsOfFile: folder.path("costs.html"), encoding: .utf8)
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>"))
        XCTAssertFalse(page.contains("<script"))
        for title in ["key: cumulative distribution", "lookup: Q-Q plot of shifted-weibull", "Haptic Feedback"] {
            XCTAssertTrue(page.contains(title), title)
        }
        XCTAssertEqual(page.components(separatedBy: "<svg").count - 1, 8, "a CDF and a Q-Q plot per kind")

        // A scenario that includes the overlay runs, and keys get the measured cost.
        try folder.write("trace.jsonl", "{\"keysim\":\"trace\",\"version\":1}\n{\"t\":0,\"type\":\"key\",\"text\":\"a\"}\n{\"t\":150,\"type\":\"key\",\"text\":\"b\"}\n")
        try folder.write("s.json5", "{traces: ['trace.jsonl'], replications: 2, include: ['costs.json5']}")
        let run = try KeysimProcess.run(["run", "s.json5", "--db", "r.sqlite"], in: folder.url)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertNotNil(run.stdout.range(of: #"\nkey +4 "#, options: .regularExpression), run.stdout)
    }

    func testMeasureLinesChangeNoNumberOfAReplay() throws {
        let folder = try TemporaryFolder()
        let plain = try String(contentsOfFile: KeysimProcess.packageRoot.appendingPathComponent("traces/english-typing.jsonl").path, encoding: .utf8)
        var lines = plain.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // A measurement after every tenth event, at that event's time.
        var measured: [String] = [lines[0]]
        for (index, line) in lines.dropFirst().enumerated() where !line.isEmpty {
            measured.append(line)
            if index % 10 == 0, let range = line.range(of: #"^\{"t":[0-9.]+"#, options: .regularExpression) {
                measured.append(String(line[range]) + #","type":"measure","kind":"key","durationMs":2.\#(index % 7)}"#)
            }
        }
        lines = measured
        try folder.write("plain.jsonl", plain)
        try folder.write("measured.jsonl", lines.joined(separator: "\n") + "\n")
        try folder.write("plain.json5", "{name: 'x', traces: ['plain.jsonl'], replications: 2}")
        try folder.write("measured.json5", "{name: 'x', traces: ['measured.jsonl'], replications: 2}")
        let a = try KeysimProcess.run(["run", "plain.json5", "--db", "a.sqlite"], in: folder.url)
        let b = try KeysimProcess.run(["run", "measured.json5", "--db", "b.sqlite"], in: folder.url)
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertEqual(b.status, 0, b.stderr)
        func table(_ text: String) -> String { text.split(separator: "\n").dropFirst().filter { !$0.hasPrefix("report:") }.joined(separator: "\n") }
        XCTAssertEqual(table(a.stdout), table(b.stdout))
        let validate = try KeysimProcess.run(["trace", "validate", "measured.jsonl"], in: folder.url)
        XCTAssertEqual(validate.status, 0, validate.stderr)
        XCTAssertTrue(validate.stdout.contains("measured cost"), validate.stdout)
        let stats = try KeysimProcess.run(["trace", "stats", "measured.jsonl"], in: folder.url)
        XCTAssertTrue(stats.stdout.contains("measured"), stats.stdout)
        XCTAssertTrue(stats.stdout.contains("key "), stats.stdout)
        let anonymized = try KeysimProcess.run(["trace", "anonymize", "measured.jsonl", "anon.jsonl", "--seed", "5"], in: folder.url)
        XCTAssertEqual(anonymized.status, 0, anonymized.stderr)
        let kept = try String(contentsOfFile: folder.path("anon.jsonl"), encoding: .utf8)
        XCTAssertEqual(kept.components(separatedBy: "\"type\":\"measure\"").count, lines.joined().components(separatedBy: "\"type\":\"measure\"").count)
        let fit = try KeysimProcess.run(["calibrate", "measured.jsonl", "--out", "c.json5", "--kind", "empirical"], in: folder.url)
        XCTAssertEqual(fit.status, 0, fit.stderr)
        XCTAssertTrue(try String(contentsOfFile: folder.path("c.json5"), encoding: .utf8).contains("key: {\n"), "a")
    }

    /// A MetricKit histogram for the cloud's service time and a two-mode CSV cost that no
    /// family fits: the overlay gets the censored fit and the flagged quantile table, the
    /// command warns, and a scenario runs with both.
    func testHistogramsAndUnfittableCostsCalibrateAndRun() throws {
        let folder = try TemporaryFolder()
        try folder.write("payload.json", """
            {"signpostMetrics": [{"signpostName": "CloudCheck", "signpostIntervalData": {"histogrammedSignpostDurations": {
              "histogramNumBuckets": 5, "histogramValue": {
                "0": {"bucketCount": 40, "bucketStart": "0 ms", "bucketEnd": "200 ms"},
                "1": {"bucketCount": 300, "bucketStart": "200 ms", "bucketEnd": "400 ms"},
                "2": {"bucketCount": 120, "bucketStart": "400 ms", "bucketEnd": "800 ms"},
                "3": {"bucketCount": 30, "bucketStart": "800 ms", "bucketEnd": "1,600 ms"},
                "4": {"bucketCount": 5, "bucketStart": "1.6 sec", "bucketEnd": "6.4 sec"}}}}}]}
            """)
        let twoModes = (0..<200).map { "check,\($0 % 2 == 0 ? 1.0 + Double($0 % 7) * 0.01 : 30.0 + Double($0 % 5) * 0.01)" }
        try folder.write("check.csv", "kind,duration_ms\n" + twoModes.joined(separator: "\n") + "\n")
        let result = try KeysimProcess.run(["calibrate", "payload.json", "check.csv", "--map", "CloudCheck=cloud.service", "--out", "costs.json5"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("keysim calibrate: warning: check: no parametric fit is acceptable (best D "), result.stderr)
        XCTAssertTrue(result.stderr.contains("the quantile table is written"), result.stderr)
        XCTAssertTrue(result.stdout.contains("no acceptable fit"), result.stdout)
        let overlay = try String(contentsOfFile: folder.path("costs.json5"), encoding: .utf8)
        XCTAssertTrue(overlay.contains("NO ACCEPTABLE PARAMETRIC FIT"), overlay)
        XCTAssertTrue(overlay.contains("check: {\n"), overlay)
        XCTAssertTrue(overlay.contains("cost: {type: \"quantiles\", table: [[0, 1], "), overlay)
        XCTAssertTrue(overlay.contains("  cloud: {\n    // cloud.service: 495 bucketed (interval-censored) duration(s) from payload.json (metrickit, \"CloudCheck\", 495)"), overlay)
        try folder.write("trace.jsonl", "{\"keysim\":\"trace\",\"version\":1}\n{\"t\":0,\"type\":\"key\",\"text\":\"a\"}\n{\"t\":150,\"type\":\"key\",\"text\":\" \"}\n")
        try folder.write("s.json5", "{traces: ['trace.jsonl'], replications: 1, policies: {calibrated: {include: 'costs.json5'}}}")
        let run = try KeysimProcess.run(["run", "s.json5", "--policy", "calibrated", "--db", "r.sqlite"], in: folder.url)
        XCTAssertEqual(run.status, 0, run.stderr)
    }

    func testBadInputIsAnErrorWithExitCode2AndNothingWritten() throws {
        let folder = try TemporaryFolder()
        try folder.write("ok.csv", "kind,duration_ms\n" + (1...20).map { "lookup,\(Double($0) / 4)" }.joined(separator: "\n") + "\n")
        try folder.write("bad.csv", "kind,duration_ms\nlookup,3\nlookup,3ms\n")
        try folder.write("bad.xml", "<trace-query-result><node><schema name=\"os-signpost-interval\"><col><mnemonic>duration</mnemonic></col><col><mnemonic>name</mnemonic></col></schema>\n<row><duration>x</duration><string>a</string></row></node></trace-query-result>\n")
        try folder.write("bad.ndjson", "{\"eventType\":\"signpostEvent\",\"signpostType\":\"begin\",\"signpostName\":\"a\",\"signpostID\":1}\n")
        try folder.write("bad.json", "{\"signpostMetrics\": [{\"signpostName\": \"a\", \"signpostIntervalData\": {\"histogrammedSignpostDurations\": {\"histogramValue\": {\"0\": {\"bucketCount\": 1, \"bucketStart\": \"0 ms\", \"bucketEnd\": \"ten ms\"}}}}}]}\n")
        try folder.write("bad.map", "lookup=lookup\nfoo\n")
        try folder.write("other.csv", "kind,duration_ms\n" + (1...20).map { "Mystery,\($0)" }.joined(separator: "\n") + "\n")
        let cases: [([String], String)] = [
            (["ok.csv", "bad.csv"], "bad.csv:3:8: error: duration_ms must be a non-negative number of milliseconds, found '3ms'\n"),
            (["bad.xml"], "bad.xml:2:6: error: duration \"x\" is not a non-negative integer of nanoseconds\n"),
            (["bad.ndjson"], "bad.ndjson:1:1: error: signpost event without \"timestamp\"\n"),
            (["bad.json"], "bad.json:1:182: error: \"bucketEnd\" must be a number and a unit (ns, us, µs, μs, ms, s, sec, min), found \"ten ms\"\n"),
            (["missing.csv"], "missing.csv: error: no such file\n"),
            (["ok.csv", "--map-file", "bad.map"], "bad.map:2:1: error: expected NAME=kind, found 'foo'\n"),
            (["ok.csv", "--kind", "cauchy"], "keysim calibrate: error: --kind must be auto or one of lognormal, gamma, weibull, shifted-lognormal, shifted-gamma, shifted-weibull, empirical, quantiles, not 'cauchy'\n"),
            (["ok.csv", "--map", "x=y"], "keysim calibrate: error: --map: unknown kind 'y' (expected one of key, lookup, rerank, draw, check, predict, network.roundTrip, network.bad.roundTrip, cloud.service)\n"),
            (["other.csv"], "keysim calibrate: warning: unmapped name \"Mystery\" (20 duration(s) in other.csv); map it with --map NAME=kind\nother.csv: error: no measured name maps to a kind (see the unmapped names above)\n"),
        ]
        for (arguments, expected) in cases {
            let result = try KeysimProcess.run(["calibrate"] + arguments + ["--out", "out.json5", "--html", "out.html"], in: folder.url)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.stderr.hasPrefix(expected) || result.stderr.hasSuffix(expected), "\(arguments): \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("out.json5")), "\(arguments) wrote the overlay")
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("out.html")), "\(arguments) wrote the page")
        }
        // The page cannot be written: the overlay is not written either.
        let noFolder = try KeysimProcess.run(["calibrate", "ok.csv", "--out", "out.json5", "--html", "missing/out.html"], in: folder.url)
        XCTAssertEqual(noFolder.status, 2)
        XCTAssertTrue(noFolder.stderr.hasPrefix("missing/out.html"), noFolder.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("out.json5")))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("out.json5") }, [])
        let missingOut = try KeysimProcess.run(["calibrate", "ok.csv"], in: folder.url)
        XCTAssertEqual(missingOut.status, 2)
        XCTAssertTrue(missingOut.stderr.hasPrefix("keysim calibrate: error: missing --out <FILE>\n"), missingOut.stderr)
    }
}
