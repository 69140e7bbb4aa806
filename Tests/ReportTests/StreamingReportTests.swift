import Foundation
import XCTest

@testable import Report
import Scenarios
import Sim

/// Runs streamed to the report: the pooled latencies, the metrics computed in the process,
/// and the detail levels.
final class StreamingReportTests: XCTestCase {
    /// The pool against a plain reference — every sample in one sorted array — over seeds:
    /// runs of any size, negative and over-32-bit latencies, ties.
    func testLatencyPoolMatchesASortedArrayOverSeeds() {
        for seed in 0..<40 {
            var rng = RandomStream(seed: UInt64(seed), replication: 0, name: "test.pool")
            var pool = LatencyPool()
            var reference: [Int64] = []
            for _ in 0..<rng.nextInt(below: 12) {
                var run = (0..<rng.nextInt(below: 300)).map { _ -> Int64 in
                    switch rng.nextInt(below: 20) {
                    case 0: -Int64(rng.nextInt(below: 1_000_000))
                    case 1: Int64(rng.nextInt(below: 1 << 40))
                    case 2: 7  // ties across runs
                    default: Int64(rng.nextInt(below: 30_000_000))
                    }
                }
                run.sort()
                pool.add(sorted: run)
                reference += run
            }
            reference.sort()
            XCTAssertEqual(pool.count, reference.count, "seed \(seed)")
            XCTAssertEqual(pool.sortedValues(), reference, "seed \(seed)")
            // Percentiles, minimum and maximum as SampleSummary's; the mean the exact one.
            var expected = SampleSummary(reference.map { SimDuration(nanoseconds: $0).milliseconds })
            if !reference.isEmpty { expected.mean = Double(reference.reduce(0, +)) / Double(reference.count) / 1e6 }
            XCTAssertEqual(pool.summary(), expected, "seed \(seed)")
        }
    }

    /// A batch summary built run by run equals the one built from every run at once, and
    /// its pooled percentiles are the exact ones.
    func testTheStreamedBatchSummaryIsTheExactOne() throws {
        let scenario = try Fixtures.scenario()
        let results = try ScenarioRunner.run(scenario, items: ScenarioRunner.workItems(replications: 3, traceCount: 1), jobs: 2)
        let summary = BatchSummary(results: results, budgets: scenario.keyboard.budgets)
        let keys = results.flatMap { $0.observations.keys.map(\.latency.milliseconds) }
        // Percentiles, minimum and maximum as SampleSummary's; the mean the exact one.
        var expected = SampleSummary(keys)
        let nanoseconds = results.flatMap { $0.observations.keys.map(\.latency.nanoseconds) }
        expected.mean = Double(nanoseconds.reduce(0, +)) / Double(nanoseconds.count) / 1e6
        XCTAssertEqual(summary.latencies[0].summary, expected)
        let limit = try XCTUnwrap(scenario.keyboard.budgets.first { $0.metric == .key }).limit.milliseconds
        XCTAssertEqual(summary.latencies[0].shareOverBudget, Double(keys.count { $0 > limit }) / Double(keys.count))
        XCTAssertEqual(summary.counts.keys, keys.count)
    }

    /// Every metric of the catalogue has a value for some run of the bundled scenarios that
    /// exercise typing quality, touches, dictation, language files and the device token (a
    /// metric whose computation never gives one would go unnoticed), and the values stored
    /// are the ones each metric's definition computes from the run's records.
    func testEveryMetricHasValuesOnTheBundledScenarios() throws {
        let folder = try ReportFolder()
        var measured: Set<String> = []
        for file in ["default", "dictation", "touch-boundaries", "language-files", "device-token", "utf16-emoji"] {
            let path = Fixtures.packageRoot.appendingPathComponent("scenarios/\(file).json5").path
            let scenario = try ScenarioLoader.load(path: path)
            let job = try Job(command: "run", batches: [JobBatch(label: "", scenario: scenario)], seed: 7, replications: 2)
            let report = folder.path("\(file).sqlite")
            _ = try JobRunner.run(job, shard: .whole, threads: 2, reportPath: report, busyTimeoutMs: 1000, detail: .summary)
            let database = try ReportStore(path: report, readOnly: true).database
            let results = try ScenarioRunner.run(job.batches[0].scenario,
                                                 items: ScenarioRunner.workItems(replications: 2, traceCount: scenario.traces.count), jobs: 1)
            for metric in RunMetric.all {
                let stored: [SQLValue] = try database.query("SELECT value FROM run_metrics WHERE metric = ? ORDER BY run_id",
                                                            [.text(metric.name)]).map { $0[0] }
                let computed: [Double] = results.compactMap { metric.value(for: $0, keyboard: scenario.keyboard) }
                XCTAssertEqual(stored, computed.map { SQLValue.real($0) }, "\(file) \(metric.name)")
                if !computed.isEmpty { measured.insert(metric.name) }
            }
        }
        XCTAssertEqual(RunMetric.all.map(\.name).filter { !measured.contains($0) }, [], "metrics with no value on any bundled scenario")
    }

    /// Summary, default and full reports of one comparison: the same runs, budgets, metrics
    /// and comparison to the last digit; item rows only where the level keeps them.
    func testDetailLevelsKeepTheirRowsAndTheSameMetrics() throws {
        let folder = try ReportFolder()
        let job = try Fixtures.compareJob(replications: 3)
        var reports: [ReportDetail: [String: [[SQLValue]]]] = [:]
        for detail in ReportDetail.allCases {
            let path = folder.path("\(detail.rawValue).sqlite")
            _ = try JobRunner.run(job, shard: .whole, threads: 2, reportPath: path, busyTimeoutMs: 1000, detail: detail)
            reports[detail] = try Fixtures.rows(path)
        }
        let (summary, standard, full) = (reports[.summary]!, reports[.default]!, reports[.full]!)
        for table in ["runs", "budgets", "threads", "run_metrics", "comparisons", "comparison_metrics", "extension_per_run"] {
            XCTAssertEqual(summary[table], full[table], table)
            XCTAssertEqual(standard[table], full[table], table)
        }
        XCTAssertEqual(full["run_metrics"]?.count ?? 0 > 0, true)
        for table in ["key_rows", "requests", "underlines", "words", "budget_violations"] {
            XCTAssertEqual(summary[table]?.count, 0, "summary keeps no \(table)")
            XCTAssertEqual(standard[table], full[table], "default keeps every row of \(table)")
        }
        XCTAssertGreaterThan(full["key_rows"]?.count ?? 0, 0)
        XCTAssertEqual(summary["task_rows"]?.count, 0)
        // Default keeps the tasks of replication 0 of each batch: runs 1 and 4.
        let taskRuns = Set((standard["task_rows"] ?? []).map(\.[0]))
        XCTAssertEqual(taskRuns, [.integer(1), .integer(4)])
        XCTAssertEqual(Set((full["task_rows"] ?? []).map(\.[0])).count, 6)
        XCTAssertEqual(standard["task_rows"], full["task_rows"]?.filter { taskRuns.contains($0[0]) })
    }

    /// The views give back the schema-3 columns: latency is end minus start, texts from codes.
    func testCompactRowsReadBackThroughTheirViews() throws {
        let folder = try ReportFolder()
        let path = folder.path("r.sqlite")
        let scenario = try Fixtures.scenario()
        let results = try ScenarioRunner.run(scenario, items: [WorkItem(replication: 0, traceIndex: 0)], jobs: 1)
        let store = try ReportStore(path: path)
        try store.write(BatchInfo(command: "run", scenario: scenario, scenarioHash: "h", tracesHash: "t", wallSeconds: 0), results: results)
        let o = results[0].observations
        let key = o.keys[5]
        XCTAssertEqual(try store.database.query("SELECT edit, touch_ns, start_ns, inserted_ns, latency_ns, queued_ahead FROM keys WHERE key_index = 5"),
                       [[.text(key.edit.rawValue), .integer(key.touch.nanoseconds), .integer(key.start.nanoseconds),
                         .integer(key.inserted.nanoseconds), .integer(key.latency.nanoseconds), .integer(Int64(key.ahead.queuedAhead))]])
        let s = o.suggestions[5]
        XCTAssertEqual(try store.database.query("SELECT text_version, end_ns, latency_ns, outcome FROM suggestions WHERE key_index = 5"),
                       [[.integer(Int64(s.textVersion)), .integer(s.end.nanoseconds), .integer(s.latency.nanoseconds), .text(s.outcome.rawValue)]])
        let t = o.tasks[3]
        XCTAssertEqual(try store.database.query("SELECT executor, task_id, kind, start_ns, finish_ns, deadline_ns FROM tasks WHERE seq = 3"),
                       [[.text(scenario.keyboard.threads[Int(t.thread)].name), .integer(Int64(t.id)),
                         .text(KeyboardWork(code: t.kind)!.rawValue), .integer(t.start.nanoseconds), .integer(t.finish.nanoseconds),
                         t.deadline.map { .integer($0.nanoseconds) } ?? .null]])
        XCTAssertEqual(try store.database.query("SELECT COUNT(*) FROM tasks"), [[.integer(Int64(o.tasks.count))]])
    }
}

/// Per-run latency histograms: buckets, percentiles within 1 % of the exact ones, and the
/// rows every detail level writes.
final class LatencyHistogramTests: XCTestCase {
    func testBucketsCoverEveryValueOnceAndStayNarrow() {
        var previousUpper: Int64 = 0
        for bucket in 0..<3_000 {
            let (lower, upper) = LatencyHistogram.range(of: bucket)
            XCTAssertEqual(lower, previousUpper, "bucket \(bucket) starts where the one before ends")
            XCTAssertLessThanOrEqual(Double(upper - lower - 1), Double(lower) / 64, "bucket \(bucket) is narrow")
            XCTAssertEqual(LatencyHistogram.bucket(of: lower), bucket)
            XCTAssertEqual(LatencyHistogram.bucket(of: upper - 1), bucket)
            previousUpper = upper
        }
    }

    func testPercentilesAreWithinOnePercentOfTheExactOnesOverSeeds() {
        for seed in 0..<30 {
            var rng = RandomStream(seed: UInt64(seed), replication: 0, name: "test.histogram")
            let values = (0..<(1 + rng.nextInt(below: 3_000))).map { _ in
                Int64(Double(rng.nextInt(below: 1_000_000)) * pow(10, Double(rng.nextInt(below: 5))))
            }.sorted()
            let histogram = LatencyHistogram(sorted: values)
            XCTAssertEqual(histogram.count, values.count)
            for p in [1.0, 50, 90, 95, 99, 99.9, 100] {
                let exact = SampleSummary.percentile(sorted: values.map(Double.init), p)
                XCTAssertLessThanOrEqual(abs(histogram.percentile(p) - exact), 0.01 * exact, "seed \(seed) p\(p)")
            }
        }
    }

    func testEveryDetailLevelWritesTheSameHistograms() throws {
        let folder = try ReportFolder()
        let job = try Fixtures.compareJob(replications: 2)
        var tables: [[[SQLValue]]] = []
        for detail in ReportDetail.allCases {
            let path = folder.path("\(detail.rawValue).sqlite")
            _ = try JobRunner.run(job, shard: .whole, threads: 2, reportPath: path, busyTimeoutMs: 1000, detail: detail)
            tables.append(try Fixtures.rows(path)["latency_histograms"] ?? [])
            if detail == .full {
                let database = try ReportStore(path: path, readOnly: true).database
                let exact = try database.query("SELECT latency_ns FROM keys WHERE run_id = 1 ORDER BY latency_ns").map { Double($0[0].integerValue) }
                let histogram = try LatencyHistogram.load(database, runID: 1, metric: .key)
                XCTAssertEqual(histogram.count, exact.count)
                let p99 = SampleSummary.percentile(sorted: exact, 99)
                XCTAssertLessThanOrEqual(abs(histogram.percentile(99) - p99), 0.01 * p99)
                let bounds = try database.query("SELECT MIN(lower_ns), MAX(upper_ns), SUM(count) FROM latency_histogram WHERE run_id = 1 AND metric = 'key'")[0]
                XCTAssertLessThanOrEqual(Double(bounds[0].integerValue), exact.first!)
                XCTAssertGreaterThan(Double(bounds[1].integerValue), exact.last!)
                XCTAssertEqual(bounds[2].integerValue, Int64(exact.count))
            }
        }
        XCTAssertFalse(tables[0].isEmpty)
        XCTAssertEqual(tables[0], tables[1])
        XCTAssertEqual(tables[1], tables[2])
    }
}

/// The selection behind the per-run percentile metrics gives what sorting gives, at every
/// rank, on values with many ties, sorted and reversed input, and random input.
final class SelectionTests: XCTestCase {
    func testTheKthSmallestIsTheSortedValueAtK() {
        var rng = RandomStream(seed: 5, replication: 0, name: "test.select")
        for trial in 0..<200 {
            let n = 1 + rng.nextInt(below: 300)
            var values: [Int64] = (0..<n).map { _ in
                trial % 3 == 0 ? Int64(rng.nextInt(below: 4)) : Int64(rng.nextInt(below: 1_000_000)) - 500_000
            }
            if trial % 7 == 1 { values.sort() }
            if trial % 7 == 2 { values.sort(by: >) }
            let sorted = values.sorted()
            for k in [0, n / 2, (95 * n + 99) / 100 - 1, (99 * n + 99) / 100 - 1, n - 1] {
                var copy = values
                XCTAssertEqual(RunMetric.kthSmallest(&copy, k), sorted[k], "trial \(trial), n \(n), k \(k)")
                XCTAssertEqual(copy.sorted(), sorted, "a permutation of the input")
            }
        }
    }
}

/// The radix sort of the per-run latencies gives what `sorted()` gives: negative and huge
/// values, ties, every size around its cut-over to a comparison sort.
final class RadixSortTests: XCTestCase {
    func testItSortsAsSortedDoes() {
        var rng = RandomStream(seed: 9, replication: 0, name: "test.radix")
        for trial in 0..<60 {
            let n = [0, 1, 255, 256, 257, 1_000, 5_000][trial % 7]
            let values: [Int64] = (0..<n).map { _ in
                switch trial % 4 {
                case 0: Int64(rng.nextInt(below: 30_000_000))
                case 1: Int64(rng.nextInt(below: 3))
                case 2: Int64(bitPattern: rng.nextUInt64())
                default: Int64(rng.nextInt(below: 1 << 40)) - (1 << 39)
                }
            }
            XCTAssertEqual(RadixSort.sorted(values), values.sorted(), "trial \(trial), \(n) values")
        }
        XCTAssertEqual(RadixSort.sorted([Int64](repeating: 7, count: 300)), [Int64](repeating: 7, count: 300))
        XCTAssertEqual(RadixSort.sorted([.max, .min] + [Int64](repeating: 0, count: 300)),
                       [.min] + [Int64](repeating: 0, count: 300) + [.max])
    }
}

/// A summary report keeps no item rows, yet `report` shows its key latencies (from the
/// runs' histograms and metrics) and draws its latency charts, and the Chrome trace says
/// which runs it can draw instead of writing an empty timeline.
final class SummaryReportTests: XCTestCase {
    func testASummaryReportIsReadFromItsHistograms() throws {
        let folder = try ReportFolder()
        let job = try Fixtures.compareJob(replications: 3)
        var paths: [ReportDetail: String] = [:]
        for detail in [ReportDetail.summary, .full] {
            let path = folder.path("\(detail.rawValue).sqlite")
            _ = try JobRunner.run(job, shard: .whole, threads: 2, reportPath: path, busyTimeoutMs: 1000, detail: detail)
            paths[detail] = path
        }
        let summary = try ReportDigest(try ReportStore(path: paths[.summary]!, readOnly: true), options: ExportOptions())
        let full = try ReportDigest(try ReportStore(path: paths[.full]!, readOnly: true), options: ExportOptions())
        XCTAssertEqual(summary.keyLatency.rows.count, full.keyLatency.rows.count, "a row per batch")
        XCTAssertNotNil(summary.keyLatency.note)
        XCTAssertNil(full.keyLatency.note, "a full report reads its rows")
        let headers = full.keyLatency.headers
        for (approximate, exact) in zip(summary.keyLatency.rows, full.keyLatency.rows) {
            for column in ["batch", "keys", "mean", "budget", "over budget"] {
                let index = try XCTUnwrap(headers.firstIndex(of: column))
                XCTAssertEqual(approximate[index], exact[index], "\(column): exact from the histograms and metrics")
            }
            for column in ["p50", "p95", "p99", "max"] {
                let index = try XCTUnwrap(headers.firstIndex(of: column))
                XCTAssertTrue(approximate[index].hasPrefix("≈"), approximate[index])
                let read = try XCTUnwrap(Double(approximate[index].dropFirst()))
                let measured = try XCTUnwrap(Double(exact[index]))
                XCTAssertEqual(read, measured, accuracy: max(0.011 * measured, 0.006), "\(column) within 1 % (two decimals shown)")
            }
        }
        // Requests and violations from the runs' totals, metrics and budgets.
        XCTAssertEqual(summary.requests.rows.count, full.requests.rows.count)
        for (approximate, exact) in zip(summary.requests.rows, full.requests.rows) {
            for column in ["batch", "runs", "requests", "per 100 words (pooled)", "characters sent", "round trip mean (ms)"] {
                let index = try XCTUnwrap(full.requests.headers.firstIndex(of: column))
                XCTAssertEqual(approximate[index], exact[index], "requests, \(column)")
            }
        }
        XCTAssertGreaterThan(Int(full.requests.rows.first?[4] ?? "") ?? 0, 0, "the fixture sends requests")
        let counted = { (table: ReportDigest.Table) in
            table.rows.map { [$0[0], $0[2], $0[3]] }  // batch, budget, violations
        }
        XCTAssertEqual(counted(summary.violations), counted(full.violations))
        let store = try ReportStore(path: paths[.summary]!, readOnly: true)
        let html = folder.path("summary.html")
        try HTMLExporter.write(store, options: ExportOptions(), to: try ReportOutput.file(html))
        let page = try String(contentsOfFile: html, encoding: .utf8)
        XCTAssertTrue(page.contains("Key latency, touch to inserted: cumulative distribution"))
        XCTAssertTrue(page.contains("Drawn from the runs&#39; latency histograms") || page.contains("Drawn from the runs' latency histograms"))
        XCTAssertThrowsError(try ChromeTraceExporter.write(store, options: ExportOptions(), to: try ReportOutput.file(folder.path("t.json")))) { error in
            XCTAssertTrue("\(error)".contains("has no timeline rows to draw"), "\(error)")
        }
    }
}
