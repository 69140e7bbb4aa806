import Foundation
import XCTest

@testable import Report
import Scenarios

/// `scenarios/population.json5` through jobs and reports: each replication a session of
/// its own, the same one under every policy.
final class PopulationReportTests: XCTestCase {
    static let scenarioPath = Fixtures.packageRoot.appendingPathComponent("scenarios/population.json5").path

    func testReplicationsDifferAndPoliciesPairOnOneSession() throws {
        let folder = try ReportFolder()
        let batches = try ["seed", "adaptive"].map { policy in
            JobBatch(label: policy, scenario: try ScenarioLoader.load(path: Self.scenarioPath, policy: policy))
        }
        let job = try Job(command: "compare", batches: batches, seed: 42, replications: 4)
        let outcome = try JobRunner.run(job, shard: .whole, threads: 2, reportPath: folder.path("p.sqlite"), busyTimeoutMs: 1000)
        let database = try ReportStore(path: folder.path("p.sqlite"), readOnly: true).database
        let runs = try database.query("SELECT batch_id, replication, trace_path, words FROM runs ORDER BY run_id")
        XCTAssertEqual(runs.count, 8)
        let seed = runs.prefix(4), adaptive = runs.suffix(4)
        // Common random numbers: replication r replays one session under both policies.
        XCTAssertEqual(seed.map { [$0[1], $0[2], $0[3]] }, adaptive.map { [$0[1], $0[2], $0[3]] })
        XCTAssertEqual(Set(seed.map { $0[2] }).count, 4, "every replication draws a session of its own")
        XCTAssertTrue(seed.allSatisfy { $0[2].textValue.hasPrefix("population 1 (2 typists, 5 texts): keysim trace synth --text ") })
        // Request counts then describe people: a non-zero interval under each policy.
        for batch in [1, 2] {
            let values = try database.query("""
                SELECT m.value FROM run_metrics m JOIN runs r USING (run_id)
                WHERE r.batch_id = ? AND m.metric = 'requests_per_100_words' ORDER BY r.run_id
                """, [.integer(Int64(batch))]).map { $0[0].doubleValue! }
            XCTAssertGreaterThan(MeanInterval(values).halfWidth, 1, "batch \(batch): \(values)")
        }
        let comparison = try XCTUnwrap(Comparison.load(database, jobID: outcome.jobID).first)
        let requests = try XCTUnwrap(comparison.rows.first { $0.metric == "requests_per_100_words" })
        XCTAssertEqual(requests.pairs, 4)
        XCTAssertLessThan(try XCTUnwrap(requests.ciLow), try XCTUnwrap(requests.ciHigh))
        // The job's traces hash is the population's, and the same for the same content.
        XCTAssertEqual(job.tracesHash, try Job(command: "compare", batches: batches, seed: 7, replications: 1).tracesHash)
    }
}
