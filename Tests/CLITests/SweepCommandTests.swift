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
        XCTAssertTrue(lines[1].hasPrefix("debounce.otherwiseMs  runs  cloud requests per 100 words"), lines[1])
        XCTAssertTrue(lines[1].hasSuffix("Pareto front"), lines[1])
        XCTAssertEqual(lines.filter { $0.hasPrefix("250 ") || $0.hasPrefix("500 ") || $0.hasPrefix("750 ") || $0.hasPrefix("1000 ") }.count, 4)
        XCTAssertTrue(lines.contains { $0.hasSuffix("*") }, "some point is on the front")
        XCTAssertTrue(result.stdout.contains("delay: time to verdict (confirm or retract), mean (ms): word finished to the cloud confirming or retracting its underline."), result.stdout)
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
        XCTAssertTrue(result.stdout.contains("debounce.otherwiseMs  debounce.sentenceEndMs  runs"), result.stdout)
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
        XCTAssertTrue(help.stdout.contains("--set <PATH=VALUES>") && help.stdout.contains("Pareto front"), help.stdout)
    }
}
