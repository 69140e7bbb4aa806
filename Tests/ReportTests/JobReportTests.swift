import Foundation
import Scenarios
import XCTest
@testable import Report

/// What a command asks of a report file around a job: the checks before, the comparison,
/// sweep and metric means after (no SQL in the CLI); and how a comparison is planned.
final class JobReportTests: XCTestCase {
    func testTheLockWaitComesFromTheEnvironmentWithinItsLimits() {
        XCTAssertEqual(JobReport.busyTimeoutMs(environment: [:]), 30_000)
        XCTAssertEqual(JobReport.busyTimeoutMs(environment: ["KEYSIM_BUSY_TIMEOUT_MS": "250"]), 250)
        XCTAssertEqual(JobReport.busyTimeoutMs(environment: ["KEYSIM_BUSY_TIMEOUT_MS": "soon"]), 30_000)
        XCTAssertEqual(JobReport.busyTimeoutMs(environment: ["KEYSIM_BUSY_TIMEOUT_MS": "-5"]), 0)
        XCTAssertEqual(JobReport.busyTimeoutMs(environment: ["KEYSIM_BUSY_TIMEOUT_MS": "\(Int.max)"]), Database.busyTimeoutMsMax)
    }

    func testPreflightRefusesWhatCannotTakeTheRunsAndChangesNothing() throws {
        let folder = try ReportFolder()
        try JobReport(path: folder.path("new.sqlite")).preflight()
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("new.sqlite")), "a missing report is created by the first batch, not here")
        XCTAssertThrowsError(try JobReport(path: folder.path("nowhere/r.sqlite")).preflight()) {
            XCTAssertEqual("\($0)", "\(folder.path("nowhere/r.sqlite")): error: no such folder: \(folder.path("nowhere"))")
        }
        let notes = folder.path("notes.sqlite")
        try Data("not a report".utf8).write(to: URL(fileURLWithPath: notes))
        XCTAssertThrowsError(try JobReport(path: notes).preflight()) { XCTAssertTrue("\($0)".contains("not a SQLite file"), "\($0)") }
        XCTAssertEqual(Fixtures.bytes(notes), Data("not a report".utf8))
        XCTAssertThrowsError(try JobReport.checkFolder(of: folder.path("gone/junit.xml")))
        XCTAssertNoThrow(try JobReport.checkFolder(of: "junit.xml"))
    }

    func testAComparisonASweepAndMetricMeansAreReadBack() throws {
        let folder = try ReportFolder()
        let report = JobReport(path: folder.path("r.sqlite"), busyTimeoutMs: 1000)
        let compared = try report.run(try Fixtures.compareJob(replications: 2), shard: .whole, threads: 2, detail: .summary)
        let comparison = try report.comparison(jobID: compared.jobID)
        XCTAssertEqual([comparison.labelA, comparison.labelB], ["seed", "fixed-1s"])
        XCTAssertEqual(comparison.pairs, 2)
        XCTAssertThrowsError(try report.sweep(jobID: compared.jobID)) {
            XCTAssertEqual("\($0)", "\(report.path): error: the sweep was not stored")
        }
        XCTAssertEqual(try report.batchIDs(jobID: compared.jobID).count, 2)

        let swept = try report.run(try Fixtures.sweepJob(values: [500, 2500], replications: 1), shard: .whole, threads: 2, detail: .summary)
        let sweep = try report.sweep(jobID: swept.jobID)
        XCTAssertEqual(sweep.parameters, ["debounce.otherwiseMs"])
        XCTAssertEqual(sweep.points.count, 2)
        XCTAssertThrowsError(try report.comparison(jobID: swept.jobID))
        let analyses = try report.analyses(jobIDs: [compared.jobID, swept.jobID])
        XCTAssertEqual(analyses.map(\.comparisons.count), [1, 0])
        XCTAssertEqual(analyses.map(\.sweeps.count), [0, 1])

        // The first batch's metric means: one entry per run metric, over its 2 runs.
        let means = try XCTUnwrap(report.metricMeans(jobID: compared.jobID)).rendered()
        XCTAssertEqual(means.components(separatedBy: "\"metric\":").count - 1, RunMetric.all.count)
        XCTAssertTrue(means.contains("\"runs\": 2"), means)
        XCTAssertNil(try report.metricMeans(jobID: 999))
    }

    func testAComparisonIsOneFileWithTwoPoliciesOrTwoFiles() throws {
        let file = Fixtures.scenarioPath
        let problems: [([String], [String], String)] = [
            ([file], [], "give --policy twice (A and B), or two scenario files"),
            ([file], ["seed"], "give --policy twice (A and B), or two scenario files"),
            ([file], ["seed", "seed"], "--policy seed is given twice; compare two different policies"),
            ([file, file], ["seed"], "--policy applies to one scenario; with two files, compare the files"),
        ]
        for (files, policies, message) in problems {
            XCTAssertThrowsError(try ComparisonPlan.check(files: files, policies: policies)) { XCTAssertEqual("\($0)", message) }
        }
        let policies = try ComparisonPlan(files: [file], policies: ["seed", "fixed-1s"], seed: nil, overrides: [])
        XCTAssertEqual(policies.sides.map(\.label), ["seed", "fixed-1s"])
        XCTAssertEqual(policies.seed, 42, "the scenario's seed")
        XCTAssertEqual(policies.header("compare", replications: 3, traces: 1),
                       "keysim compare \(file): seed (A) vs fixed-1s (B), seed 42, 3 replication(s) × 1 trace(s)")
        let set = try ComparisonPlan(files: [file], policies: ["seed", "fixed-1s"], seed: 7,
                                     overrides: [try .parse("replications=3")])
        XCTAssertEqual(set.seed, 7)
        XCTAssertEqual(set.sides.map(\.scenario.replications), [3, 3], "--set applies to both sides")
        let job = try set.job(command: "compare", replications: 2)
        XCTAssertEqual(job.batches.map(\.label), ["seed", "fixed-1s"])
        XCTAssertEqual(job.replications, 2)

        // Two files of one name are labelled by their paths; of two names, by their names.
        let other = Fixtures.packageRoot.appendingPathComponent("scenarios/bad-network.json5").path
        let files = try ComparisonPlan(files: [file, other], policies: [], seed: nil, overrides: [])
        XCTAssertEqual(files.sides.map(\.label), ["default", "bad-network"])
        XCTAssertEqual(files.what, "\(file) \(other)")
        XCTAssertEqual(try ComparisonPlan(files: [file, file], policies: [], seed: nil, overrides: []).sides.map(\.label), [file, file])
        let folder = try ReportFolder()
        let two = folder.path("two.json5")
        try "{traces: ['\(Fixtures.packageRoot.path)/traces/chat-session.jsonl', '\(Fixtures.packageRoot.path)/traces/english-typing.jsonl']}"
            .write(toFile: two, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ComparisonPlan(files: [file, two], policies: [], seed: nil, overrides: [])) {
            XCTAssertEqual("\($0)", "\(two): error: replays 2 trace(s) but \(file) replays 1; a comparison pairs runs of the same traces")
        }
    }
}
