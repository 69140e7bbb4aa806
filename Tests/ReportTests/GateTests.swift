import Foundation
import XCTest

@testable import Report
import Scenarios
import Sim

final class GateTests: XCTestCase {
    // MARK: - Statistics

    func testStudentQuantilesMatchTheTableAndKnownValues() {
        for df in [1, 2, 5, 10, 29, 30] {
            // Bisection on the distribution function reproduces the exact 0.975 table.
            XCTAssertEqual(StudentT.cdf(StudentT.quantile975(degreesOfFreedom: df), degreesOfFreedom: df), 0.975, accuracy: 1e-6, "df \(df)")
        }
        XCTAssertEqual(StudentT.quantile(0.95, degreesOfFreedom: 1), 6.313752, accuracy: 1e-5)
        XCTAssertEqual(StudentT.quantile(0.995, degreesOfFreedom: 4), 4.604095, accuracy: 1e-5)
        XCTAssertEqual(StudentT.quantile(0.8, degreesOfFreedom: 9), 0.883, accuracy: 1e-3)
        XCTAssertEqual(StudentT.quantile(0.9, degreesOfFreedom: 9), 1.383, accuracy: 1e-3)
        XCTAssertEqual(StudentT.quantile(0.2, degreesOfFreedom: 9), -StudentT.quantile(0.8, degreesOfFreedom: 9))
        XCTAssertEqual(StudentT.quantile(0.975, degreesOfFreedom: 1000), 1.962339, accuracy: 1e-4)
        XCTAssertEqual(StudentT.halfWidthScale(confidence: 0.95, degreesOfFreedom: 7), 1, accuracy: 1e-12)
        XCTAssertGreaterThan(StudentT.halfWidthScale(confidence: 0.99, degreesOfFreedom: 7), 1)
    }

    func testPairsToDetectShrinksWithTheEffectAndGrowsWithTheSpread() throws {
        // Differences with standard deviation 1 over 10 pairs.
        let hw = StudentT.quantile975(degreesOfFreedom: 9) / Double(10).squareRoot()
        let row = Comparison.Row(metric: "key_latency_p99_ms", label: "p99", pairs: 10, meanA: 8, meanB: 8.5, difference: 0.5,
                                 ciLow: 0.5 - hw, ciHigh: 0.5 + hw, significant: true, decimals: 2)
        XCTAssertEqual(try XCTUnwrap(row.differenceStandardDeviation), 1, accuracy: 1e-12)
        // The textbook answer for a one-sd effect at 80 % power and 5 % two-sided is 10 pairs.
        XCTAssertEqual(row.pairsToDetect(1), 10)
        XCTAssertEqual(row.pairsToDetect(-1), 10)
        let half = try XCTUnwrap(row.pairsToDetect(0.5))
        XCTAssertTrue((33...35).contains(half), "\(half)")
        XCTAssertNil(row.pairsToDetect(0))
        var single = row
        single.pairs = 1
        XCTAssertNil(single.pairsToDetect(1))
        var flat = row
        flat.ciLow = 0.5
        flat.ciHigh = 0.5
        XCTAssertEqual(flat.pairsToDetect(0.1), 2)
    }

    func testPrecisionTargetsParseAndApplyToTheirUnit() throws {
        XCTAssertEqual(try PrecisionTarget.parse("5%").kind, .relative(0.05))
        XCTAssertEqual(try PrecisionTarget.parse("0.2ms").kind, .absolute(0.2, unit: "ms"))
        XCTAssertEqual(try PrecisionTarget.parse("0.2 ms").description, "0.2 ms")
        XCTAssertEqual(try PrecisionTarget.parse("0.01").kind, .absolute(0.01, unit: nil))
        XCTAssertEqual(try PrecisionTarget.parse("12.5%").description, "12.5%")
        for bad in ["", "%", "-5%", "0ms", "fast", "3 parsecs", "nan"] {
            XCTAssertThrowsError(try PrecisionTarget.parse(bad), bad)
        }
        let ms = try PrecisionTarget.parse("0.2ms")
        XCTAssertTrue(ms.isMet(halfWidth: 0.19, reference: 8, unit: "ms"))
        XCTAssertFalse(ms.isMet(halfWidth: 0.21, reference: 8, unit: "ms"))
        XCTAssertTrue(ms.isMet(halfWidth: 5, reference: 8, unit: "share"), "a metric in another unit is not held to it")
        let share = PrecisionTarget.standard
        XCTAssertTrue(share.isMet(halfWidth: 0.4, reference: -8, unit: "ms"))
        XCTAssertFalse(share.isMet(halfWidth: 0.41, reference: 8, unit: "ms"))
        XCTAssertTrue(share.isMet(halfWidth: 0, reference: 0, unit: "count"))
    }

    // MARK: - Replications

    func testReplicationRoundsAreFixedAndEndAtTheMaximum() {
        XCTAssertEqual(ReplicationPlan(maximum: 100, paired: true).rounds, [5, 10, 15, 22, 33, 49, 73, 100])
        XCTAssertEqual(ReplicationPlan(maximum: 12, paired: false).rounds, [5, 10, 12])
        XCTAssertEqual(ReplicationPlan(maximum: 3, paired: false).rounds, [3])
    }

    /// The search stops at the same count with any number of threads, and the runs it
    /// measured are those a job of that count writes: their metrics agree with the report.
    func testReplicationSearchIsDeterministicAndMatchesTheJob() throws {
        let fast = ScenarioLoader.Override(path: "traces", value: ConfigValue(.array([ConfigValue(.string("../traces/fast-typist.jsonl"))])))
        let checker = Fixtures.packageRoot.appendingPathComponent("scenarios/checker-on-main.json5").path
        let batches = try ["on-main", "background"].map { policy in
            JobBatch(label: policy, scenario: try ScenarioLoader.load(path: checker, policy: policy, overrides: [fast]))
        }
        let plan = ReplicationPlan(maximum: 8, target: try PrecisionTarget.parse("0.001ms"),
                                   metrics: ["key_latency_p99_ms", "requests_per_100_words"], paired: true)
        var seen: [Int] = []
        let one = try ReplicationSearch.run(batches, seed: 42, plan: plan, threads: 1) { seen.append($0) }
        let two = try ReplicationSearch.run(batches, seed: 42, plan: plan, threads: 2)
        XCTAssertEqual(one, two)
        XCTAssertEqual(seen, one.rounds)
        XCTAssertEqual(one.rounds, [5, 8])
        XCTAssertEqual(one.replications, 8)
        XCTAssertTrue(one.imprecise.allSatisfy { plan.metrics!.contains($0) }, "\(one.imprecise)")
        let loose = ReplicationPlan(maximum: 8, target: try PrecisionTarget.parse("100%"), metrics: plan.metrics, paired: true)
        XCTAssertEqual(try ReplicationSearch.run(batches, seed: 42, plan: loose, threads: 2).rounds, [5])

        // The values the search measured are the report's: the same paired interval.
        let measured = try (0..<2).map { try ReplicationSearch.measure(batches[$0], seed: 42, replications: 0..<4, threads: 2) }
        let folder = try ReportFolder()
        let job = try Job(command: "compare", batches: batches, seed: 42, replications: 4)
        let outcome = try JobRunner.run(job, shard: .whole, threads: 2, reportPath: folder.path("c.sqlite"), busyTimeoutMs: 1000)
        let store = try ReportStore(path: folder.path("c.sqlite"), readOnly: true)
        let comparison = try XCTUnwrap(try Comparison.load(store.database, jobID: outcome.jobID).first)
        let row = try XCTUnwrap(comparison.rows.first { $0.metric == "key_latency_p99_ms" })
        let a = measured[0]["key_latency_p99_ms"]!, b = measured[1]["key_latency_p99_ms"]!
        let differences = MeanInterval(a.keys.sorted().map { b[$0]! - a[$0]! })
        XCTAssertEqual(differences.mean, try XCTUnwrap(row.difference), accuracy: 1e-12)
        XCTAssertEqual(differences.mean + differences.halfWidth, try XCTUnwrap(row.ciHigh), accuracy: 1e-12)
    }

    // MARK: - Rules

    func comparison(_ rows: [Comparison.Row]) -> Comparison {
        Comparison(id: 1, scenarioName: "s", labelA: "base", labelB: "cand", pairs: rows.first?.pairs ?? 0, rows: rows)
    }

    func row(_ metric: String, a: Double, b: Double, halfWidth: Double, pairs: Int = 10) -> Comparison.Row {
        Comparison.Row(metric: metric, label: metric, pairs: pairs, meanA: a, meanB: b, difference: b - a,
                       ciLow: b - a - halfWidth, ciHigh: b - a + halfWidth, significant: abs(b - a) > halfWidth, decimals: 2)
    }

    func testRulesJudgeMeansAndIntervalsInTheMetricsDirection() throws {
        let summary = BatchSummary(results: [], budgets: [])
        let rows = [row("key_latency_p99_ms", a: 8, b: 8.75, halfWidth: 0.36), row("keystroke_savings", a: 0.46, b: 0.40, halfWidth: 0.01),
                    row("requests_per_100_words", a: 6, b: 6.2, halfWidth: 0.5)]
        let rules = [
            GateRule(metric: "key_latency_p99_ms", bound: .atMost(10)),
            GateRule(metric: "key_latency_p99_ms", bound: .regression(0.25)),
            GateRule(metric: "key_latency_p99_ms", bound: .regression(0.5)),
            GateRule(metric: "keystroke_savings", bound: .relativeRegression(0.05)),
            GateRule(metric: "keystroke_savings", bound: .atLeast(0.42), name: "savings"),
            GateRule(metric: "requests_per_100_words", bound: .relativeRegression(0.01)),
            GateRule(metric: "dictation_stop_to_text_mean_ms", bound: .atMost(100)),
        ]
        var dictation = row("dictation_stop_to_text_mean_ms", a: 0, b: 0, halfWidth: 0)
        dictation.pairs = 0
        dictation.meanA = nil
        let gate = try Gate(comparison: comparison(rows + [dictation]), rules: rules, baseline: summary, candidate: summary)
        XCTAssertEqual(gate.checks.map(\.passed), [true, false, true, false, false, true, false])
        XCTAssertEqual(gate.checks[1].excess!, 0.75 - 0.36 - 0.25, accuracy: 1e-12)
        XCTAssertEqual(gate.checks[1].interval!.lowerBound, 0.39, accuracy: 1e-12)
        XCTAssertTrue(gate.checks[1].detail.hasSuffix("bound 0.25 ms: over it by at least 0.14 ms (baseline 8.00 ms, candidate 8.75 ms, 10 pairs)"), gate.checks[1].detail)
        // 0.5 ms holds, but the interval [0.39, 1.11] does not rule it out: more pairs would tell.
        let needed = try XCTUnwrap(gate.checks[2].pairsToDetectLimit)
        XCTAssertGreaterThan(needed, 10)
        XCTAssertTrue(gate.checks[2].detail.hasSuffix("; not ruled out: about \(needed) pairs would detect a difference of 0.50 ms"), gate.checks[2].detail)
        XCTAssertGreaterThan(try XCTUnwrap(gate.checks[5].pairsToDetectLimit), 1000, "a bound of 1% of 6 under a spread of about 0.7")
        XCTAssertNil(gate.checks[0].pairsToDetectLimit, "only regression bounds")
        // Higher is better: a fall of 0.06 (interval 0.05–0.07) is over 5 % of 0.46.
        XCTAssertEqual(gate.checks[3].measured!, 0.06, accuracy: 1e-12)
        XCTAssertEqual(gate.checks[3].limit, 0.023, accuracy: 1e-12)
        XCTAssertEqual(gate.checks[4].name, "savings")
        XCTAssertEqual(gate.checks[0].name, "key_latency_p99_ms ≤ 10 ms")
        XCTAssertEqual(gate.checks[3].name, "keystroke_savings at most 5% worse than the baseline (95% confidence)")
        XCTAssertEqual(gate.checks[6].detail, "not measured in any pair of runs")
        XCTAssertEqual(gate.failures.count, 4)
        XCTAssertTrue(gate.summary().hasSuffix("gate failed: 4 of 7 check(s) failed\n"))

        // A higher confidence widens the interval: 0.39 … at 95 %, below 0.25 at 99.9 %.
        let strict = GateRule(metric: "key_latency_p99_ms", bound: .regression(0.25), confidence: 0.999)
        XCTAssertTrue(try Gate(comparison: comparison(rows), rules: [strict], baseline: summary, candidate: summary).passed)

        let unknown = GateRule(metric: "key_latency_p98_ms", bound: .atMost(1),
                               origin: ConfigError(file: "r.json5", line: 3, column: 5, path: "gates[0]", message: ""))
        XCTAssertThrowsError(try Gate.validate([unknown])) { error in
            XCTAssertTrue("\(error)".hasPrefix("r.json5:3:5: error: gates[0]: unknown metric 'key_latency_p98_ms'; known: key_latency_mean_ms"), "\(error)")
        }
    }

    /// A `max` on a percentile is judged on the one-sided upper bound of the candidate's mean
    /// over its runs, not on the mean: a mean just under the limit with a wide spread fails,
    /// and the same mean with a narrow spread holds. A `max` on a mean is unchanged.
    func testAMaxOnAPercentileIsJudgedOnItsUpperBound() throws {
        let summary = BatchSummary(results: [], budgets: [])
        let rule = GateRule(metric: "key_latency_p99_ms", bound: .atMost(10))
        let comparison = comparison([row("key_latency_p99_ms", a: 8, b: 9.72, halfWidth: 0.5, pairs: 20),
                                     row("key_latency_mean_ms", a: 2, b: 9.72, halfWidth: 0.5, pairs: 20)])
        let wide = SampleMean((0..<20).map { 9.72 + ($0 % 2 == 0 ? 1.5 : -1.5) })
        let narrow = SampleMean((0..<20).map { 9.72 + ($0 % 2 == 0 ? 0.1 : -0.1) })
        for (runs, holds) in [(wide, false), (narrow, true)] {
            let gate = try Gate(comparison: comparison, rules: [rule], baseline: summary, candidate: summary,
                                candidateRuns: ["key_latency_p99_ms": runs])
            let check = try XCTUnwrap(gate.checks.first)
            let upper = try XCTUnwrap(runs.upperBound(confidence: 0.95))
            XCTAssertEqual(upper, 9.72 + StudentT.quantile(0.95, degreesOfFreedom: 19) * runs.standardError, accuracy: 1e-9)
            XCTAssertEqual(check.passed, holds, check.detail)
            XCTAssertEqual(check.measured, upper)
            XCTAssertEqual(check.confidence, 0.95)
            XCTAssertTrue(check.detail.hasPrefix("candidate mean 9.72 ms, upper 95% bound \(TextTable.fixed(upper, 2)) ms, "), check.detail)
        }
        let onMean = try Gate(comparison: comparison, rules: [GateRule(metric: "key_latency_mean_ms", bound: .atMost(10))],
                              baseline: summary, candidate: summary, candidateRuns: ["key_latency_mean_ms": wide])
        XCTAssertTrue(onMean.passed, "a mean is judged on the mean: \(onMean.checks[0].detail)")
        XCTAssertTrue(onMean.notes.isEmpty)
    }

    func testJUnitEscapesAndCountsAndMarkdownCells() throws {
        let summary = BatchSummary(results: [], budgets: [])
        let rules = [GateRule(metric: "key_latency_p99_ms", bound: .atMost(1), name: "p99 <\"fast\"> & | tidy"),
                     GateRule(metric: "key_latency_p99_ms", bound: .atMost(100))]
        let gate = try Gate(comparison: comparison([row("key_latency_p99_ms", a: 8, b: 9, halfWidth: 0.1)]), rules: rules,
                            baseline: summary, candidate: summary)
        let xml = gate.junit(seed: 7, replications: 10)
        XCTAssertTrue(xml.contains("<testcase name=\"p99 &lt;&quot;fast&quot;&gt; &amp; | tidy\" classname=\"keysim.gate.rule\">"), xml)
        XCTAssertTrue(xml.contains("<testsuites name=\"keysim gate\" tests=\"2\" failures=\"1\" errors=\"0\">"), xml)
        XCTAssertTrue(xml.contains("<property name=\"seed\" value=\"7\"/>"), xml)
        XCTAssertTrue(xml.contains("measured: 9\nlimit: 1\nexcess: 8\n"), xml)
        #if canImport(FoundationXML)
        let document = try XMLDocument(xmlString: xml)
        XCTAssertEqual(document.rootElement()?.elements(forName: "testsuite").first?.elements(forName: "testcase").count, 2)
        #endif
        let markdown = gate.markdown(seed: 7, replications: 10, comparison: comparison([]))
        XCTAssertTrue(markdown.contains("| **FAIL** | p99 <\"fast\"> & \\| tidy | "), markdown)
    }

    /// Budgets with no samples are skipped, not passed; the run's timestamp, host and wall
    /// time appear only when given, so a gate's JUnit file is otherwise the same every time.
    func testJUnitSkipsBudgetsWithoutSamplesAndCarriesTheRunWhenGiven() throws {
        let empty = BatchSummary(results: [], budgets: Budget.defaults)
        let gate = try Gate(comparison: comparison([row("key_latency_p99_ms", a: 8, b: 9, halfWidth: 0.1)]),
                            rules: [GateRule(metric: "key_latency_p99_ms", bound: .atMost(100))], baseline: empty, candidate: empty)
        XCTAssertTrue(gate.passed)
        let plain = gate.junit(seed: 7, replications: 10)
        XCTAssertEqual(plain, gate.junit(seed: 7, replications: 10))
        XCTAssertFalse(plain.contains("time=") || plain.contains("timestamp=") || plain.contains("hostname="), plain)
        XCTAssertTrue(plain.contains("tests=\"4\" failures=\"0\" errors=\"0\" skipped=\"3\">"), plain)
        XCTAssertEqual(plain.components(separatedBy: "<skipped message=\"no samples in the candidate's runs\"/>").count - 1, 3, plain)
        XCTAssertTrue(plain.contains("<testcase name=\"key_latency_p99_ms ≤ 100 ms\" classname=\"keysim.gate.rule\">\n      <system-out>"), plain)

        let run = JUnitRun(timestamp: "2026-01-02T03:04:05Z", hostname: "runner <7>", seconds: 12.3456)
        let timed = gate.junit(seed: 7, replications: 10, run: run)
        XCTAssertTrue(timed.contains("<testsuites name=\"keysim gate\" tests=\"4\" failures=\"0\" errors=\"0\" time=\"12.346\">"), timed)
        XCTAssertTrue(timed.contains("skipped=\"3\" time=\"12.346\" timestamp=\"2026-01-02T03:04:05Z\" hostname=\"runner &lt;7&gt;\">"), timed)

        let start = Date(timeIntervalSince1970: 1_767_323_045)  // 2026-01-02T03:04:05Z
        let measured = JUnitRun(startedAt: start, now: start.addingTimeInterval(1.5), hostname: "h")
        XCTAssertEqual(measured, JUnitRun(timestamp: "2026-01-02T03:04:05Z", hostname: "h", seconds: 1.5))
        XCTAssertEqual(measured.time, "1.500")
    }
}

#if canImport(FoundationXML)
import FoundationXML
#endif
