import Foundation
import Report
import XCTest

/// `compare` with three or more policies: one table, the differences to the baseline with
/// Bonferroni intervals and Holm's step-down, and the policies no other beats.
final class CompareManyPoliciesTests: XCTestCase {
    /// A short scenario with four debounce policies.
    private func scenario(in folder: TemporaryFolder) throws -> String {
        let trace = try String(contentsOf: KeysimProcess.packageRoot.appendingPathComponent("traces/english-typing.jsonl"), encoding: .utf8)
        try folder.write("t.jsonl", trace.split(separator: "\n").prefix(500).joined(separator: "\n") + "\n")
        return try folder.write("s.json5", """
            { name: "many", seed: 5, replications: 4, traces: ["t.jsonl"],
              policies: { seed: {}, "fixed-1s": { debounce: { policy: "fixed", delayMs: 1000 } },
                          "fixed-300": { debounce: { policy: "fixed", delayMs: 300 } },
                          "fixed-3s": { debounce: { policy: "fixed", delayMs: 3000 } } } }
            """)
    }

    /// The stored comparisons of the report's last job, by candidate label.
    private func comparisons(_ db: String) throws -> [String: Comparison] {
        let store = try ReportStore(path: db, readOnly: true)
        guard case .integer(let job) = try store.database.query("SELECT MAX(job_id) FROM jobs")[0][0] else { return [:] }
        return Dictionary(uniqueKeysWithValues: try Comparison.load(store.database, jobID: job).map { ($0.labelB, $0) })
    }

    func testNPoliciesEqualThePairwiseComparisonsInMeansWithBonferroniWidenedIntervals() throws {
        let folder = try TemporaryFolder()
        let scenario = try scenario(in: folder)
        let many = try runKeysim(["compare", scenario, "--policy", "seed", "--policy", "fixed-1s", "--policy", "fixed-300",
                                  "--db", folder.path("many.sqlite")])
        XCTAssertEqual(many.status, 0, many.stderr)
        let all = try comparisons(folder.path("many.sqlite"))
        XCTAssertEqual(all.keys.sorted(), ["fixed-1s", "fixed-300"])
        let m = 2.0
        for candidate in ["fixed-1s", "fixed-300"] {
            let db = folder.path("\(candidate).sqlite")
            let pair = try runKeysim(["compare", scenario, "--policy", "seed", "--policy", candidate, "--db", db])
            XCTAssertEqual(pair.status, 0, pair.stderr)
            let alone = try XCTUnwrap(try comparisons(db)[candidate])
            let within = try XCTUnwrap(all[candidate])
            XCTAssertEqual(alone.intervalConfidence, 0.95)
            XCTAssertEqual(within.intervalConfidence, 1 - 0.05 / m, accuracy: 1e-12)
            XCTAssertEqual(within.pairs, 4)
            var widened = 0
            for (a, n) in zip(alone.rows, within.rows) {
                XCTAssertEqual(a.metric, n.metric)
                XCTAssertEqual(a.pairs, n.pairs, a.metric)
                XCTAssertEqual(a.meanA, n.meanA, a.metric)
                XCTAssertEqual(a.meanB, n.meanB, a.metric)
                XCTAssertEqual(a.difference, n.difference, a.metric)
                guard let low = a.ciLow, let high = a.ciHigh, let lowN = n.ciLow, let highN = n.ciHigh, a.pairs >= 2,
                      // An interval only rounding error wide (a figure the same in every pair) has no width to compare.
                      high - low > 1e-9 * max(abs(a.meanA ?? 0), abs(a.meanB ?? 0)) else { continue }
                // Same differences, same standard error: the widths differ only by the t quantile.
                let expected = StudentT.quantile(1 - 0.05 / (2 * m), degreesOfFreedom: a.pairs - 1) / StudentT.quantile975(degreesOfFreedom: a.pairs - 1)
                XCTAssertEqual((highN - lowN) / (high - low), expected, accuracy: 1e-3 * expected, "\(candidate) \(a.metric)")
                XCTAssertGreaterThan(highN - lowN, high - low)
                widened += 1
            }
            XCTAssertGreaterThan(widened, 3, "some metrics vary between pairs")
        }
    }

    func testTheTableShowsEveryPolicyTheCorrectionAndThePoliciesNotBeaten() throws {
        let folder = try TemporaryFolder()
        let scenario = try scenario(in: folder)
        let db = folder.path("c.sqlite")
        let result = try runKeysim(["compare", scenario, "--policy", "seed", "--policy", "fixed-1s", "--policy", "fixed-300",
                                    "--policy", "fixed-3s", "--baseline", "fixed-1s", "--objective", "requests_per_100_words", "--db", db])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "keysim compare \(scenario): fixed-1s (baseline) vs seed, fixed-300, fixed-3s, seed 5, 4 replication(s) × 1 trace(s)")
        let headers = try XCTUnwrap(lines.first { $0.hasPrefix("metric") })
        for header in ["fixed-1s", "seed − fixed-1s", "fixed-300 − fixed-1s", "fixed-3s − fixed-1s", "98.333% CI"] {
            XCTAssertTrue(headers.contains(header), headers)
        }
        XCTAssertTrue(lines.contains { $0.hasPrefix("* significant: Holm's step-down over the 3 comparisons with fixed-1s, family-wise 5%") },
                      result.stdout)
        // On requests alone, the longest wait sends fewest: it alone is not beaten.
        let unbeaten = try XCTUnwrap(lines.first { $0.hasPrefix("not beaten on requests_per_100_words: ") })
        XCTAssertTrue(unbeaten.hasPrefix("not beaten on requests_per_100_words: fixed-3s ("), unbeaten)
        let requests = try XCTUnwrap(lines.first { $0.hasPrefix("cloud requests per 100 words") })
        XCTAssertEqual(requests.split(separator: " ").filter { $0.hasSuffix("*") }.count, 3, "every policy differs in requests: \(requests)")

        let json = try runKeysim(["compare", scenario, "--policy", "seed", "--policy", "fixed-1s", "--policy", "fixed-300",
                                  "--json", "--db", folder.path("j.sqlite")])
        XCTAssertEqual(json.status, 0, json.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["schemaVersion"] as? Int, 2)
        XCTAssertEqual(document["baseline"] as? String, "seed")
        XCTAssertEqual(document["policies"] as? [String], ["seed", "fixed-1s", "fixed-300"])
        XCTAssertEqual(document["objectives"] as? [String], ["requests_per_100_words", "underline_verdict_mean_ms", "verdict_coverage"])
        let metrics = try XCTUnwrap(document["metrics"] as? [[String: Any]])
        XCTAssertEqual(metrics.count, RunMetric.all.count)
        XCTAssertEqual((metrics[0]["means"] as? [Any])?.count, 3)
        XCTAssertEqual((metrics[0]["differences"] as? [[String: Any]])?.map { $0["policy"] as? String }, ["fixed-1s", "fixed-300"])
    }
}
