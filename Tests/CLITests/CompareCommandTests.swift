import Foundation
import Report
import XCTest

final class CompareCommandTests: XCTestCase {
    let scenario = "scenarios/default.json5"

    func testComparePoliciesPrintsPairedDifferencesAndStoresThem() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("c.sqlite")
        let result = try runKeysim(["compare", scenario, "--policy", "seed", "--policy", "fixed-1s", "--replications", "3", "--db", db])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "keysim compare scenarios/default.json5: seed (A) vs fixed-1s (B), seed 42, 3 replication(s) × 1 trace(s)")
        XCTAssertEqual(lines[1], "3 pairs of runs")
        XCTAssertTrue(lines[2].hasPrefix("metric"), lines[2])
        for header in ["seed", "fixed-1s", "difference (B − A)", "95% CI", "significant"] {
            XCTAssertTrue(lines[2].contains(header), lines[2])
        }
        let requests = try XCTUnwrap(lines.first { $0.hasPrefix("cloud requests per 100 words") })
        XCTAssertTrue(requests.hasSuffix("yes"), requests)
        let keys = try XCTUnwrap(lines.first { $0.hasPrefix("key latency, mean (ms)") })
        XCTAssertTrue(keys.contains("[0.00, 0.00]") && keys.hasSuffix("no"), "common random numbers: \(keys)")
        XCTAssertEqual(lines.last, "report: \(db)")
        // Progress went to standard error as plain lines: this is not a terminal.
        XCTAssertTrue(result.stderr.contains("keysim compare: 6/6 runs (100%)"), result.stderr)
        let store = try ReportStore(path: db, readOnly: true)
        XCTAssertEqual(try store.database.query("SELECT label_a, label_b, pairs FROM comparisons"), [["seed", "fixed-1s", 3]])
        XCTAssertEqual(try store.database.query("SELECT COUNT(*) FROM comparison_metrics"), [[.integer(Int64(RunMetric.all.count))]])
    }

    func testCompareTwoFilesPairsTheirRuns() throws {
        let folder = try TemporaryFolder()
        let trace = KeysimProcess.packageRoot.appendingPathComponent("traces/english-typing.jsonl").path
        let a = try folder.write("fast.json5", "{name: 'fast', traces: ['\(trace)'], replications: 2, network: {roundTrip: 20}}")
        let b = try folder.write("slow.json5", "{name: 'slow', traces: ['\(trace)'], network: {roundTrip: 500}}")
        let result = try runKeysim(["compare", a, b, "--db", folder.path("c.sqlite")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("fast (A) vs slow (B), seed 1, 2 replication(s)"), result.stdout)
        let roundTrip = try XCTUnwrap(result.stdout.split(separator: "\n").first { $0.hasPrefix("request round trip, mean (ms)") })
        // 480 ms more network on every request; the service times of the two runs' requests are
        // paired by request order, and a slower network shifts a few keys' landing (cloud chips
        // are drawn on the main thread), so a request or two differs: about +480 ms.
        let difference = try XCTUnwrap(roundTrip.split(separator: " ").first { $0.hasPrefix("+") }.flatMap { Double($0.dropFirst()) })
        XCTAssertEqual(difference, 480, accuracy: 20, "a constant 480 ms more on every request: \(roundTrip)")
    }

    func testCompareUsageErrorsExitWithTwoAndWriteNothing() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("c.sqlite")
        let trace = KeysimProcess.packageRoot.appendingPathComponent("traces/english-typing.jsonl").path
        let two = try folder.write("two.json5", "{traces: ['\(trace)', '\(trace)']}")
        let cases: [([String], String)] = [
            (["compare"], "keysim compare: error: missing <scenario>"),
            (["compare", scenario, "--policy", "seed"], "give --policy two or more times (the first is the baseline), or two or more scenario files"),
            (["compare", scenario, "--policy", "seed", "--policy", "fixed-1s", "--baseline", "fixed-2s"],
             "--baseline fixed-2s is not one of the sides compared: seed, fixed-1s"),
            (["compare", scenario, "--policy", "seed", "--policy", "fixed-1s", "--objective", "verdict_coverge"],
             "--objective: unknown metric 'verdict_coverge'; did you mean 'verdict_coverage'?"),
            (["compare", scenario, "--policy", "seed", "--policy", "seed"], "--policy seed is given twice"),
            (["compare", scenario, "--policy", "seed", "--policy", "fast"], "no policy named 'fast'; known: adaptive, fixed-1s, seed"),
            (["compare", scenario, scenario, "--policy", "seed"], "--policy applies to one scenario"),
            (["compare", scenario, two], "replays 2 trace(s) but scenarios/default.json5 replays 1"),
            (["compare", scenario, "--policy", "seed", "--policy", "fixed-1s", "--shard", "3/2"], "shard 3 is out of range 1...2"),
            (["compare", scenario, "--policy", "seed", "--policy", "fixed-1s", "--set", "debounce.otherwiseMz=3"], "unknown field 'otherwiseMz'"),
        ]
        for (arguments, message) in cases {
            let result = try runKeysim(arguments + ["--db", db])
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))
        let help = try runKeysim(["compare", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("OVERVIEW: Compare policies with common random numbers"), help.stdout)
        XCTAssertTrue(help.stdout.contains("--policy <NAME>") && help.stdout.contains("--shard <K/N>")
                      && help.stdout.contains("--baseline <NAME>") && help.stdout.contains("--objective <METRIC>"), help.stdout)
    }
}
