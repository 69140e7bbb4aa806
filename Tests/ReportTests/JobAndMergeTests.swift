import Foundation
import XCTest

@testable import Report
import Scenarios

final class JobAndMergeTests: XCTestCase {
    func testRunsAreWrittenInWorkItemOrderWhateverTheThreadCount() throws {
        let folder = try ReportFolder()
        let job = try Fixtures.compareJob(replications: 3)
        XCTAssertEqual(job.itemCount, 6)
        for threads in [1, 3] {
            _ = try JobRunner.run(job, shard: .whole, threads: threads, reportPath: folder.path("t\(threads).sqlite"), busyTimeoutMs: 1000)
        }
        let one = try Fixtures.rows(folder.path("t1.sqlite"))
        XCTAssertEqual(one, try Fixtures.rows(folder.path("t3.sqlite")), "--jobs must not change a single row")
        // run_id order is work-item order: batch-major, then replication.
        XCTAssertEqual(one["job_runs"]?.map { $0[2] }, (0..<6).map { SQLValue.integer(Int64($0)) })
        let runs = try ReportStore(path: folder.path("t1.sqlite"), readOnly: true).database
            .query("SELECT batch_id, replication FROM runs ORDER BY run_id")
        XCTAssertEqual(runs, [[1, 0], [1, 1], [1, 2], [2, 0], [2, 1], [2, 2]])
        XCTAssertEqual(one["jobs"]?.first?[14], .integer(1), "the job is marked complete")
        XCTAssertEqual(one["comparisons"]?.count, 1)
        XCTAssertEqual(one["comparison_metrics"]?.count, RunMetric.all.count)
        // Every run has the typing metrics; dictation metrics only exist for runs that dictated.
        let metricsPerRun = Dictionary(grouping: one["run_metrics"] ?? [], by: { $0[1] }).mapValues(\.count)
        for metric in [RunMetric.keyLatencyMeanMs, .keyLatencyP99Ms, .keyShareOverBudget, .suggestionLatencyP95Ms,
                       .requestsPer100Words, .charactersSentPer100Words, .flickersPer100Words, .corruptingFixes] {
            XCTAssertEqual(metricsPerRun[.text(metric.name)], 6, metric.name)
        }
        XCTAssertNil(metricsPerRun[.text(RunMetric.dictationStopToTextMeanMs.name)], "no dictation in this trace")
    }

    func testComparisonUsesCommonRandomNumbers() throws {
        let folder = try ReportFolder()
        let outcome = try JobRunner.run(try Fixtures.compareJob(replications: 4), shard: .whole, threads: 2,
                                        reportPath: folder.path("c.sqlite"), busyTimeoutMs: 1000)
        let store = try ReportStore(path: folder.path("c.sqlite"), readOnly: true)
        let comparison = try XCTUnwrap(Comparison.load(store.database, jobID: outcome.jobID).first)
        XCTAssertEqual(comparison.labelA, "seed")
        XCTAssertEqual(comparison.pairs, 4)
        let rows = Dictionary(uniqueKeysWithValues: comparison.rows.map { ($0.metric, $0) })
        // Key handling draws from its own stream: the debounce policy changes a key's latency
        // only where a chip drawn on the main thread (at an answer's time, which the policy
        // moves) delays it, so the paired difference is a few microseconds at most.
        let keys = try XCTUnwrap(rows["key_latency_mean_ms"])
        XCTAssertEqual(try XCTUnwrap(keys.difference), 0, accuracy: 0.01)
        // A 1 s fixed timer sends far fewer requests than the 400 ms / 2 s seed policy.
        let requests = try XCTUnwrap(rows["requests_per_100_words"])
        XCTAssertLessThan(try XCTUnwrap(requests.difference), -1)
        XCTAssertTrue(requests.significant)
        XCTAssertLessThanOrEqual(try XCTUnwrap(requests.ciLow), try XCTUnwrap(requests.ciHigh))
        XCTAssertTrue(comparison.table().contains("cloud requests per 100 words"))
    }

    func testShardsMergeIntoTheRowsOfOneMachine() throws {
        let folder = try ReportFolder()
        let job = try Fixtures.sweepJob(values: [300, 1000, 2500], replications: 2)
        _ = try JobRunner.run(job, shard: .whole, threads: 2, reportPath: folder.path("single.sqlite"), busyTimeoutMs: 1000)
        var shards: [String] = []
        for index in [2, 0, 1] {
            let shard = Shard(index: index, count: 3)
            let path = shard.reportPath(for: folder.path("out.sqlite"))
            _ = try JobRunner.run(job, shard: shard, threads: 1, reportPath: path, busyTimeoutMs: 1000)
            shards.append(path)
        }
        // A shard file holds its slice and no sweep; merging computes it.
        XCTAssertEqual(try Fixtures.rows(shards[0])["sweeps"]?.count, 0)
        let summary = try ReportMerge.merge(output: folder.path("merged.sqlite"), inputs: shards, busyTimeoutMs: 1000)
        XCTAssertEqual(summary.runs, 6)
        let single = try Fixtures.rows(folder.path("single.sqlite"))
        let merged = try Fixtures.rows(folder.path("merged.sqlite"))
        XCTAssertEqual(Set(single.keys), Set(merged.keys))
        for table in single.keys.sorted() {
            XCTAssertEqual(single[table], merged[table], "table \(table) differs between one machine and merged shards")
        }
        XCTAssertEqual(single["sweep_points"]?.count, 3)
    }

    func testAMergeKeepsEveryFleetItsFilesHoldUnderNewIDs() throws {
        let folder = try ReportFolder()
        let job = try Fixtures.sweepJob(values: [300, 1000], replications: 1)
        var shards: [String] = []
        for index in 0..<2 {
            let shard = Shard(index: index, count: 2)
            let path = shard.reportPath(for: folder.path("out.sqlite"))
            _ = try JobRunner.run(job, shard: shard, threads: 1, reportPath: path, busyTimeoutMs: 1000)
            shards.append(path)
        }
        // Fleets beside the runs: one in each shard's file, one already in the output.
        var rng = SplitMix(seed: 7)
        let fleets = (0..<3).map { FleetReportTests.partition(0, of: 1, minutes: 61 + $0, rng: &rng) }
        let output = folder.path("merged.sqlite")
        for (fleet, path) in zip(fleets, [shards[0], shards[1], output]) {
            XCTAssertEqual(try FleetReportStore.write(fleet, toFile: path, busyTimeoutMs: 1000), 1)
        }
        let summary = try ReportMerge.merge(output: output, inputs: shards, busyTimeoutMs: 1000)
        XCTAssertEqual(summary.runs, 2)
        let store = try ReportStore(path: output, readOnly: true)
        XCTAssertEqual(try FleetReportStore.fleetIDs(store.database), [1, 2, 3])
        for (id, fleet) in zip([Int64(1), 2, 3], [fleets[2], fleets[0], fleets[1]]) {
            var read = try FleetReportStore.read(store, fleetID: id)
            read.wallSeconds = fleet.wallSeconds
            XCTAssertEqual(read, fleet, "fleet \(id)")
        }
    }

    func testMergeRefusesBadSetsAndChangesNothing() throws {
        let folder = try ReportFolder()
        let job = try Fixtures.compareJob(replications: 1)
        var shards: [String] = []
        for index in 0..<2 {
            let shard = Shard(index: index, count: 2)
            let path = shard.reportPath(for: folder.path("c.sqlite"))
            _ = try JobRunner.run(job, shard: shard, threads: 1, reportPath: path, busyTimeoutMs: 1000)
            shards.append(path)
        }
        let other = try Job(command: "run", batches: [JobBatch(label: "", scenario: try Fixtures.scenario(
            overrides: [ScenarioLoader.Override(path: "name", value: ConfigValue(.string("other")))]))], seed: 42, replications: 1)
        _ = try JobRunner.run(other, shard: .whole, threads: 1, reportPath: folder.path("other.sqlite"), busyTimeoutMs: 1000)
        let seven = try Fixtures.compareJob(replications: 1, seed: 7)
        let sevenPath = Shard(index: 1, count: 2).reportPath(for: folder.path("seven.sqlite"))
        _ = try JobRunner.run(seven, shard: Shard(index: 1, count: 2), threads: 1, reportPath: sevenPath, busyTimeoutMs: 1000)
        let text = folder.path("notes.txt")
        try "not a report".write(toFile: text, atomically: true, encoding: .utf8)

        let output = folder.path("merged.sqlite")
        let cases: [(inputs: [String], message: String)] = [
            ([shards[0]], "shard(s) 2/2 missing"),
            ([shards[0], shards[0]], "is given twice"),
            ([shards[0], folder.path("other.sqlite")], "comes from a different scenario ('other')"),
            ([shards[0], sevenPath], "holds a different job"),
            ([shards[0], text], "not a SQLite file"),
            ([shards[0], folder.path("missing.sqlite")], "no such report file"),
            ([output, shards[0]], "is also the output"),
        ]
        let before = (shards + [folder.path("other.sqlite"), sevenPath]).map(Fixtures.bytes)
        for (inputs, message) in cases {
            XCTAssertThrowsError(try ReportMerge.merge(output: output, inputs: inputs, busyTimeoutMs: 100)) { error in
                XCTAssertTrue("\(error)".contains(message), "\(inputs): \(error)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: output), "a refused merge creates no output")
        }
        XCTAssertThrowsError(try ReportMerge.merge(output: shards[0], inputs: shards, busyTimeoutMs: 100)) { error in
            XCTAssertTrue("\(error)".contains("is also the output"), "\(error)")
        }
        XCTAssertEqual((shards + [folder.path("other.sqlite"), sevenPath]).map(Fixtures.bytes), before, "inputs must not change")

        // The good set merges, once.
        XCTAssertEqual(try ReportMerge.merge(output: output, inputs: shards.reversed(), busyTimeoutMs: 100).runs, 2)
        let merged = Fixtures.bytes(output)
        XCTAssertThrowsError(try ReportMerge.merge(output: output, inputs: shards, busyTimeoutMs: 100)) { error in
            XCTAssertTrue("\(error)".contains("already holds the job"), "\(error)")
        }
        XCTAssertEqual(Fixtures.bytes(output), merged)
    }

    func testAnIncompleteShardIsRefused() throws {
        let folder = try ReportFolder()
        let job = try Fixtures.compareJob(replications: 2)
        var shards: [String] = []
        for index in 0..<2 {
            let shard = Shard(index: index, count: 2)
            shards.append(shard.reportPath(for: folder.path("c.sqlite")))
            _ = try JobRunner.run(job, shard: shard, threads: 1, reportPath: shards[index], busyTimeoutMs: 1000)
        }
        // As if the process had died after its first batch: the job is not complete.
        let database = try Database(path: shards[1])
        try database.execute("UPDATE jobs SET complete = 0")
        XCTAssertThrowsError(try ReportMerge.merge(output: folder.path("m.sqlite"), inputs: shards, busyTimeoutMs: 100)) { error in
            XCTAssertTrue("\(error)".contains("shard 2/2 is incomplete"), "\(error)")
        }
    }

    func testARetriedShardCountsOnceWithItsLastCompleteAttempt() throws {
        let folder = try ReportFolder()
        let job = try Fixtures.compareJob(replications: 1)
        _ = try JobRunner.run(job, shard: .whole, threads: 1, reportPath: folder.path("single.sqlite"), busyTimeoutMs: 1000)
        var shards: [String] = []
        for index in 0..<2 {
            let shard = Shard(index: index, count: 2)
            shards.append(shard.reportPath(for: folder.path("c.sqlite")))
            _ = try JobRunner.run(job, shard: shard, threads: 1, reportPath: shards[index], busyTimeoutMs: 1000)
        }
        // The first attempt of shard 2 died half-way; the task was retried into the same file.
        try Database(path: shards[1]).execute("UPDATE jobs SET complete = 0")
        _ = try JobRunner.run(job, shard: Shard(index: 1, count: 2), threads: 1, reportPath: shards[1], busyTimeoutMs: 1000)
        _ = try ReportMerge.merge(output: folder.path("m.sqlite"), inputs: shards, busyTimeoutMs: 100)
        XCTAssertEqual(try Fixtures.rows(folder.path("single.sqlite")), try Fixtures.rows(folder.path("m.sqlite")))
    }

    func testAnEmptyShardStillCountsForTheMerge() throws {
        let folder = try ReportFolder()
        let job = try Job(command: "run", batches: [JobBatch(label: "", scenario: try Fixtures.scenario())], seed: 1, replications: 2)
        var shards: [String] = []
        for index in 0..<3 {
            let shard = Shard(index: index, count: 3)
            shards.append(shard.reportPath(for: folder.path("r.sqlite")))
            let outcome = try JobRunner.run(job, shard: shard, threads: 1, reportPath: shards[index], busyTimeoutMs: 1000)
            XCTAssertEqual(outcome.itemsRun, index < 2 ? 1 : 0)
        }
        XCTAssertEqual(try ReportMerge.merge(output: folder.path("m.sqlite"), inputs: shards, busyTimeoutMs: 100).runs, 2)
    }

    func testAFailingWorkItemIsTheSameForAnyThreadCountAndWritesNothing() throws {
        let folder = try ReportFolder()
        let trace = folder.path("bad.jsonl")
        try "{\"keysim\":\"trace\",\"version\":1}\n{\"t\":5,\"type\":\"key\",\"text\":\"a\"}\n{\"t\":1,\"type\":\"key\",\"text\":\"b\"}\n"
            .write(toFile: trace, atomically: true, encoding: .utf8)
        let scenarioPath = folder.path("s.json5")
        try "{traces: ['bad.jsonl']}".write(toFile: scenarioPath, atomically: true, encoding: .utf8)
        let job = try Job(command: "run", batches: [JobBatch(label: "", scenario: try ScenarioLoader.load(path: scenarioPath))],
                          seed: 1, replications: 5)
        var messages: [String] = []
        for threads in [1, 4] {
            XCTAssertThrowsError(try JobRunner.run(job, shard: .whole, threads: threads, reportPath: folder.path("r.sqlite"),
                                                   busyTimeoutMs: 100)) { messages.append("\($0)") }
        }
        XCTAssertEqual(messages.count, 2)
        XCTAssertEqual(messages[0], messages[1])
        XCTAssertTrue(messages[0].contains("time goes backwards"), messages[0])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("r.sqlite")), "no report file for a failed job")
    }
}
