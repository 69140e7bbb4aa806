import Foundation
import Report
import XCTest

/// What the cloud costs, as `run`, `gate` and `sweep` show it: the `cost` line, the cost
/// metrics a rule can bound, and the sweep's cost axis.
final class CloudCostCommandTests: XCTestCase {
    let scenario = "scenarios/cloud-cost.json5"

    func testRunPrintsTheCostLineFromTheRequestsTokensAndPrices() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("c.sqlite")
        let result = try runKeysim(["run", scenario, "--policy", "seed", "--replications", "2", "--db", db])
        XCTAssertEqual(result.status, 0, result.stderr)
        let line = try XCTUnwrap(result.stdout.split(separator: "\n").first { $0.hasPrefix("cost ") }, result.stdout)
        let store = try ReportStore(path: db, readOnly: true)
        let sums = try store.database.query("""
            SELECT SUM(input_tokens), SUM(cached_tokens), SUM(output_tokens), SUM(cost_usd), SUM(rejections > 0),
                   (SELECT SUM(words) FROM runs) FROM requests
            """)[0]
        guard case .integer(let input) = sums[0], case .integer(let cached) = sums[1], case .integer(let output) = sums[2],
              case .real(let usd) = sums[3], case .integer(let refused) = sums[4], case .integer(let words) = sums[5] else {
            return XCTFail("\(sums)")
        }
        XCTAssertGreaterThan(cached, 0, "the 1,200-token prompt is cached")
        let per100 = { (n: Int64) in String(format: "%.1f", 100 * Double(n) / Double(words)) }
        XCTAssertTrue(line.hasPrefix("cost         \(per100(input)) input tokens per 100 words (\(per100(cached)) cached), \(per100(output)) output; "
                                     + String(format: "$%.6f per 1,000 words, $%.6f per user-day of 180 words; ", 1000 * usd / Double(words),
                                              180 * usd / Double(words))
                                     + "\(refused) requests refused"), String(line))
        // Each run's cost per user-day is its cost per word times the words of a user-day.
        let perRun = try store.database.query("""
            SELECT a.value, b.value FROM run_metrics a JOIN run_metrics b USING (run_id)
            WHERE a.metric = 'cost_usd_per_1000_words' AND b.metric = 'cost_usd_per_user_day' ORDER BY run_id
            """)
        XCTAssertEqual(perRun.count, 2)
        for row in perRun {
            guard case .real(let per1000) = row[0], case .real(let perDay) = row[1] else { return XCTFail("\(row)") }
            XCTAssertEqual(perDay, per1000 * 0.18, accuracy: 1e-12 * per1000)
        }
        // Markdown and HTML show the runs' mean, as compare and gate take it.
        let means = perRun.map { row -> Double in if case .real(let x) = row[0] { x } else { .nan } }
        let mean = String(format: "%.6f", (means[0] + means[1]) / 2)
        for format in ["md", "html"] {
            let export = try runKeysim(["report", db, "--format", format])
            XCTAssertEqual(export.status, 0, export.stderr)
            XCTAssertTrue(export.stdout.contains("Cloud cost: tokens, dollars, refusals (mean of the runs)"), format)
            XCTAssertTrue(export.stdout.contains(mean), "\(format): \(mean)")
        }
    }

    func testAGateRuleBoundsTheCost() throws {
        let folder = try TemporaryFolder()
        let rules = try folder.write("rules.json5", """
            { gates: [ { metric: "cost_usd_per_1000_words", max: 0.001 }, { metric: "rejected_requests", max: 1000 } ] }
            """)
        let result = try runKeysim(["gate", scenario, "--policy", "seed", "--policy", "word-boundary", "--rules", rules,
                                    "--replications", "2", "--db", folder.path("g.sqlite"), "--json"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("keysim gate: failed: cost_usd_per_1000_words ≤ 0.001 USD per 1000 words: candidate mean "), result.stderr)
        XCTAssertFalse(result.stderr.contains("failed: rejected_requests"), result.stderr)
        XCTAssertTrue(result.stdout.contains("\"metric\": \"cost_usd_per_user_day\""), "every metric is in the document")
    }

    func testSweepPutsDollarsOnTheCostAxis() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("s.sqlite")
        let result = try runKeysim(["sweep", scenario, "--policy", "seed", "--set", "network.preset=wifi,poor",
                                    "--x", "cost_usd_per_1000_words", "--replications", "2", "--db", db])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("network.preset  runs  cloud cost (USD per 1,000 words)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("x: cloud cost (USD per 1,000 words)"), result.stdout)
        let store = try ReportStore(path: db, readOnly: true)
        XCTAssertEqual(try store.database.query("SELECT cost_metric FROM sweeps"), [["cost_usd_per_1000_words"]])
        // Each point's cost is the mean of its runs' cost per 1,000 words.
        let points = try store.database.query("""
            SELECT p.cost, (SELECT AVG(m.value) FROM run_metrics m JOIN runs r USING (run_id)
                            WHERE r.batch_id = p.batch_id AND m.metric = 'cost_usd_per_1000_words')
            FROM sweep_points p ORDER BY p.point_index
            """)
        XCTAssertEqual(points.count, 2)
        for row in points {
            guard case .real(let cost) = row[0], case .real(let mean) = row[1] else { return XCTFail("\(row)") }
            XCTAssertEqual(cost, mean, accuracy: 1e-15)
            XCTAssertGreaterThan(cost, 0)
        }

        let bad = try runKeysim(["sweep", scenario, "--set", "network.preset=wifi,poor", "--x", "cost_usd_per_100_words",
                                 "--db", folder.path("bad.sqlite")])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("did you mean 'cost_usd_per_1000_words'?"), bad.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("bad.sqlite")))
    }
}
