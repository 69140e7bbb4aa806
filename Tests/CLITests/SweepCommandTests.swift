import Foundation
import Report
import XCTest

final class SweepCommandTests: XCTestCase {
    let scenario = "scenarios/default.json5"

    func testSweepPrintsTheTradeOffWithItsParetoFront() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("s.sqlite")
        let result = try runKeysim(["sweep", scenario, "--set", "debounce.otherwiseMs=250..1000/250", "--replications", "1", "--db", db])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "keysim sweep scenarios/default.json5: 4 point(s) × 1 replication(s) × 1 trace(s), seed 42")
        XCTAssertTrue(lines[1].hasPrefix("#  debounce.otherwiseMs  runs  cloud requests per 100 words"), lines[1])
        XCTAssertTrue(lines[1].hasSuffix("trade-off"), lines[1])
        let rows = lines[3...6]
        XCTAssertEqual(rows.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }, ["1 250", "2 500", "3 750", "4 1000"])
        XCTAssertTrue(rows.allSatisfy { $0.hasSuffix("front") || $0.hasSuffix("not separable") }, "one replication: nothing is dominated at 95%")
        XCTAssertTrue(rows.contains { $0.hasSuffix(" front") }, "some point is on the front")
        XCTAssertTrue(result.stdout.contains("y: time to verdict (confirm or retract), mean (ms): Mean time from a word being finished to the cloud confirming or retracting its local underline"), result.stdout)
        XCTAssertTrue(result.stdout.contains("\nrecommended: #"), result.stdout)
        // Not a terminal: plain progress lines, one per tenth at most.
        let progress = result.stderr.split(separator: "\n").filter { $0.hasPrefix("keysim sweep: ") }
        XCTAssertTrue(progress.last?.hasPrefix("keysim sweep: 4/4 runs (100%), ") ?? false, result.stderr)
        XCTAssertTrue(progress.allSatisfy { $0.contains(" elapsed, ") && $0.hasSuffix(" left") }, result.stderr)
        XCTAssertFalse(result.stderr.contains("\r"), "no bar redraws in a log")
        let store = try ReportStore(path: db, readOnly: true)
        let points = try store.database.query("SELECT point_index, settings, runs FROM sweep_points ORDER BY point_index")
        XCTAssertEqual(points, [[0, "{\"debounce.otherwiseMs\":250}", 1], [1, "{\"debounce.otherwiseMs\":500}", 1],
                                [2, "{\"debounce.otherwiseMs\":750}", 1], [3, "{\"debounce.otherwiseMs\":1000}", 1]])
        // A longer timer sends fewer requests.
        let costs = try store.database.query("SELECT cost FROM sweep_points ORDER BY point_index").compactMap { row -> Double? in
            if case .real(let x) = row[0] { x } else { nil }
        }
        XCTAssertEqual(costs, costs.sorted(by: >))
    }

    func testSweepOfTwoParametersAndAFixedOne() throws {
        let folder = try TemporaryFolder()
        let result = try runKeysim(["sweep", scenario, "--set", "debounce.otherwiseMs=500,1500", "--set", "debounce.sentenceEndMs=200..400/200",
                                    "--set", "network.roundTrip=80", "--replications", "1", "--jobs", "2", "--db", folder.path("s.sqlite")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("4 point(s)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("#  debounce.otherwiseMs  debounce.sentenceEndMs  runs"), result.stdout)
        let store = try ReportStore(path: folder.path("s.sqlite"), readOnly: true)
        XCTAssertEqual(try store.database.query("SELECT label FROM job_batches ORDER BY batch_index").map(\.[0]),
                       ["debounce.otherwiseMs=500, debounce.sentenceEndMs=200", "debounce.otherwiseMs=500, debounce.sentenceEndMs=400",
                        "debounce.otherwiseMs=1500, debounce.sentenceEndMs=200", "debounce.otherwiseMs=1500, debounce.sentenceEndMs=400"])
        // The fixed value applies everywhere: every answered round trip is 80 ms plus the
        // service time (requests cancelled when the keyboard hid never went out).
        XCTAssertEqual(try store.database.query("SELECT COUNT(*) FROM requests WHERE outcome = 'answered' AND network_ns != 80000000"), [[0]])
        XCTAssertNotEqual(try store.database.query("SELECT COUNT(*) FROM requests WHERE outcome = 'answered'"), [[0]])
    }

    func testSweepBadInputExitsWithTwoAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("s.sqlite")
        XCTAssertEqual(try runKeysim(["run", scenario, "--replications", "1", "--db", db]).status, 0)
        let before = FileManager.default.contents(atPath: db)
        let cases: [([String], String)] = [
            (["--set", "debounce.otherwiseMz=250..500/250"], "scenarios/default.json5: error: debounce.otherwiseMz: unknown field 'otherwiseMz'; did you mean 'otherwiseMs'?"),
            (["--set", "nothing=1..2/1"], "error: nothing: unknown field 'nothing'"),
            (["--set", "debounce.otherwiseMs=5000..250/250"], "keysim sweep: error: --set debounce.otherwiseMs=5000..250/250: empty range (250 is below 5000)"),
            (["--set", "debounce.otherwiseMs=1..2/0"], "the step must be greater than zero"),
            (["--set", "debounce.otherwiseMs=-500..500/500"], "debounce.otherwiseMs: must not be negative"),
            (["--set", "debounce.otherwiseMs=750"], "every --set has a single value"),
            ([], "nothing to sweep: give --set PATH=LOW..HIGH/STEP"),
            (["--set", "debounce.otherwiseMs=1..2/1", "--shard", "2/1"], "shard 2 is out of range 1...1"),
        ]
        for (options, message) in cases {
            let result = try runKeysim(["sweep", scenario, "--db", db] + options)
            XCTAssertEqual(result.status, 2, "\(options)")
            XCTAssertTrue(result.stderr.contains(message), "\(options): \(result.stderr)")
            XCTAssertEqual(result.stdout, "")
        }
        let notReport = try folder.write("notes.sqlite", "just some text, not SQLite at all, long enough for a header ........")
        let refused = try runKeysim(["sweep", scenario, "--set", "debounce.otherwiseMs=500,600", "--db", notReport])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("notes.sqlite: error: not a SQLite file"), refused.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: db), before, "a refused sweep leaves the report as it was")
        let help = try runKeysim(["sweep", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--set <PATH=VALUES>") && help.stdout.contains("not separable"), help.stdout)
    }
}

/// Sweeps over policies and debounce kinds, with chosen axes and constraints.
final class SweepDecisionCommandTests: XCTestCase {
    func testPoliciesKindsAxesAndConstraints() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("s.sqlite")
        let result = try runKeysim(["sweep", "scenarios/default.json5", "--policy", "seed", "--policy", "adaptive",
                                    "--set", "debounce.otherwiseMs=700,2000", "--set", "debounce.quantile=0.75,0.97",
                                    "--y", "false_underline_seconds_per_100_words", "--where", "underline_recall >= 0.85",
                                    "--set", "traces=[\"../traces/fast-typist.jsonl\"]", "--replications", "3", "--json", "--db", db])
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["parameters"] as? [String], ["policy", "debounce.otherwiseMs", "debounce.quantile"])
        XCTAssertEqual(document["delayMetric"] as? String, "false_underline_seconds_per_100_words")
        XCTAssertEqual(document["where"] as? [String], ["underline_recall >= 0.85"])
        let points = try XCTUnwrap(document["points"] as? [[String: Any]])
        XCTAssertEqual(points.map { $0["settings"] as? [String: String] }, [
            ["policy": "seed", "debounce.otherwiseMs": "700", "debounce.quantile": "-"],
            ["policy": "seed", "debounce.otherwiseMs": "2000", "debounce.quantile": "-"],
            ["policy": "adaptive", "debounce.otherwiseMs": "-", "debounce.quantile": "0.75"],
            ["policy": "adaptive", "debounce.otherwiseMs": "-", "debounce.quantile": "0.97"],
        ])
        for point in points {
            let front = try XCTUnwrap(point["front"] as? String)
            let constrained = try XCTUnwrap((point["constrained"] as? [[String: Any]])?.first)
            let met = try XCTUnwrap(constrained["met"] as? Bool)
            XCTAssertEqual(met, (constrained["mean"] as? Double ?? 0) >= 0.85)
            if !met { XCTAssertEqual(front, "excluded") } else { XCTAssertTrue(["front", "not separable", "dominated"].contains(front), front) }
            XCTAssertEqual(point["dominatedBy"] is NSNull, front != "dominated")
        }
        // The report holds what the document says.
        let store = try ReportStore(path: db, readOnly: true)
        XCTAssertEqual(try store.database.query("SELECT cost_metric, delay_metric, confidence, constraints FROM sweeps"),
                       [["requests_per_100_words", "false_underline_seconds_per_100_words", .real(0.95), "[\"underline_recall >= 0.85\"]"]])
        XCTAssertEqual(try store.database.query("SELECT front FROM sweep_points ORDER BY point_index").map { $0[0] },
                       points.map { SQLValue.text($0["front"] as? String ?? "") })
    }

    func testBadDecisionOptionsExitWithTwo() throws {
        let cases: [([String], String)] = [
            (["--set", "debounce.otherwiseMs=500,600", "--x", "requests"], "--x: no run metric named 'requests'"),
            (["--set", "debounce.otherwiseMs=500,600", "--y", "requests_per_100_words"], "--x and --y are both requests_per_100_words"),
            (["--set", "debounce.otherwiseMs=500,600", "--where", "recall > 0.9"], "--where recall > 0.9: no run metric named 'recall'"),
            (["--set", "debounce.otherwiseMs=500,600", "--where", "underline_recall = 0.9"], "--where needs METRIC OP NUMBER"),
            (["--set", "debounce.otherwiseMs=500,600", "--confidence", "1"], "--confidence"),
            (["--set", "debounce.quantile=0.8,0.9"], "--set debounce.quantile applies to no point"),
            (["--policy", "seed", "--policy", "seed"], "--policy seed is given more than once"),
            (["--policy", "seed"], "nothing to sweep"),
            (["--set", "debounce.policy=seed,adaptive"],
             "--set debounce.policy=seed: 'seed' is a policy of the scenario, not a debounce policy kind (sentence-aware, fixed, edges, throttle, boundary, adaptive); run it with --policy seed"),
        ]
        for (options, message) in cases {
            let result = try runKeysim(["sweep", "scenarios/default.json5", "--db", "/nonexistent/never.sqlite"] + options)
            XCTAssertEqual(result.status, 2, "\(options): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(options): \(result.stderr)")
        }
    }
}
