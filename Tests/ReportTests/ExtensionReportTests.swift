import Foundation
import XCTest
@testable import Report
import Scenarios
import Sim

/// The extension's records in a real report file, its run summary and its exports.
final class ExtensionReportTests: XCTestCase {
    static func scenario(_ name: String, policy: String) throws -> Scenario {
        try ScenarioLoader.load(path: Fixtures.packageRoot.appendingPathComponent("scenarios/\(name).json5").path, policy: policy)
    }

    func report(_ folder: ReportFolder, _ name: String, policy: String, replications: Int = 1) throws -> String {
        let path = folder.path("\(name)-\(policy).sqlite")
        let job = try Job(command: "run", batches: [JobBatch(label: policy, scenario: try Self.scenario(name, policy: policy))],
                          seed: 42, replications: replications)
        _ = try JobRunner.run(job, shard: .whole, threads: 1, reportPath: path, busyTimeoutMs: 1000)
        return path
    }

    func count(_ store: ReportStore, _ sql: String) throws -> Int64 { try store.database.query(sql)[0][0].integerValue }

    func testKillsDownloadsAndMemoryLandInTheReportAndTheTimeline() throws {
        let folder = try ReportFolder()
        let store = try ReportStore(path: try report(folder, "language-files", policy: "keep-both"), readOnly: true)
        let kills = try count(store, "SELECT COUNT(*) FROM kills")
        XCTAssertGreaterThan(kills, 0)
        XCTAssertEqual(try count(store, "SELECT kills FROM extension_per_run"), kills)
        XCTAssertEqual(try count(store, "SELECT COUNT(*) FROM kills WHERE restart_ns != restarted_ns - time_ns"), 0)
        XCTAssertEqual(try count(store, "SELECT COUNT(*) FROM memory_events WHERE event = 'kill'"), kills)
        // Footprints are stored to the byte, not as float sums (57.400000000000006).
        for (table, column) in [("memory_events", "footprint_mb"), ("kills", "footprint_mb"), ("extension_per_run", "peak_footprint_mb")] {
            XCTAssertEqual(try count(store, "SELECT COUNT(*) FROM \(table) WHERE \(column) != round(\(column), 6)"), 0, table)
        }
        XCTAssertGreaterThan(try count(store, "SELECT COUNT(*) FROM downloads WHERE outcome = 'offline' AND bytes < size_bytes"), 0)
        XCTAssertGreaterThan(try count(store, "SELECT COUNT(*) FROM language_loads WHERE outcome = 'rejected'"), 0)
        // Keys held through a restart are over the key budget, and say why.
        let held = try count(store, "SELECT COUNT(*) FROM budget_violations WHERE budget = 'key' AND cause LIKE 'extension restarting%'")
        XCTAssertGreaterThan(held, 0)
        XCTAssertEqual(try count(store, "SELECT COUNT(*) FROM suggestions WHERE outcome = 'killed'"),
                       try count(store, "SELECT SUM(suggestions_lost) FROM kills"))

        let path = folder.path("trace.json")
        try ChromeTraceExporter.write(store, options: ExportOptions(runID: 1), to: try ReportOutput.file(path))
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let events = try XCTUnwrap(document["traceEvents"] as? [[String: Any]])
        // One footprint sample per instant: a counter holds one value at a time.
        let counters = events.filter { $0["ph"] as? String == "C" && $0["name"] as? String == "memory footprint (MB)" }
        XCTAssertEqual(counters.count, Int(try count(store, "SELECT COUNT(DISTINCT time_ns) FROM memory_events WHERE run_id = 1")))
        XCTAssertEqual(events.filter { $0["cat"] as? String == "memory" }.count,
                       Int(try count(store, "SELECT COUNT(*) FROM memory_events WHERE run_id = 1")), "every change an instant")
        XCTAssertTrue(counters.allSatisfy { ($0["args"] as? [String: Any])?["MB"] is Double })
        XCTAssertEqual(events.filter { $0["cat"] as? String == "kill" }.count, Int(kills))
        XCTAssertGreaterThan(events.filter { $0["cat"] as? String == "download" }.count, 0)

        let markdown = MarkdownExporter.render(try ReportDigest(store, options: ExportOptions()))
        XCTAssertTrue(markdown.contains("## Extension: kills, language files, device token"))
    }

    func testVerificationOffCountsCorruptModelsAndTheRunSummarySaysSo() throws {
        let folder = try ReportFolder()
        let store = try ReportStore(path: try report(folder, "language-files", policy: "verify-off"), readOnly: true)
        XCTAssertGreaterThan(try count(store, "SELECT corrupt_loads FROM extension_per_run"), 0)
        XCTAssertGreaterThan(try count(store, "SELECT silently_wrong_suggestions FROM extension_per_run"), 0)
        XCTAssertEqual(try count(store, "SELECT verification_failures FROM extension_per_run"), 0)
        let metric = try count(store, "SELECT CAST(value AS INTEGER) FROM run_metrics WHERE metric = 'corrupt_loads'")
        XCTAssertEqual(metric, try count(store, "SELECT corrupt_loads FROM extension_per_run"))

        let scenario = try Self.scenario("language-files", policy: "verify-off")
        let results = try ScenarioRunner.run(scenario, items: ScenarioRunner.workItems(replications: 1, traceCount: 1), jobs: 1)
        let table = BatchSummary(results: results, budgets: scenario.keyboard.budgets).table()
        XCTAssertTrue(table.contains("languages    1 downloads (1 interrupted), 0 failed verification, 3 corrupt models loaded"), table)
        XCTAssertFalse(table.contains("memory "), table)
    }

    func testTokenRejectionsAndRevokedRequestsLandInTheReport() throws {
        let folder = try ReportFolder()
        // Whether a request falls past the short grace window is a matter of the draws: one
        // replication may have none, three have some.
        let short = try ReportStore(path: try report(folder, "device-token", policy: "short-grace", replications: 3), readOnly: true)
        let rejections = try count(short, "SELECT COUNT(*) FROM token_rejections WHERE reason = 'expired'")
        XCTAssertGreaterThan(rejections, 0)
        XCTAssertEqual(try count(short, "SELECT SUM(token_rejections) FROM extension_per_run"), rejections)
        XCTAssertEqual(try count(short, "SELECT SUM(token_added_ns) FROM extension_per_run"),
                       try count(short, "SELECT SUM(added_ns) FROM token_rejections"))
        XCTAssertEqual(try count(short, "SELECT COUNT(*) FROM token_rejections WHERE retry_ns IS NULL OR added_ns != retry_ns - attempt_ns"), 0)

        let logout = try ReportStore(path: try report(folder, "device-token", policy: "logout"), readOnly: true)
        XCTAssertGreaterThan(try count(logout, "SELECT COUNT(*) FROM requests WHERE outcome = 'revoked'"), 0)
        XCTAssertEqual(try count(logout, "SELECT COUNT(*) FROM requests WHERE sent_ns >= 90000000000 AND outcome != 'revoked'"), 0)
        XCTAssertEqual(try count(logout, "SELECT COUNT(*) FROM requests WHERE outcome = 'revoked'"),
                       try count(logout, "SELECT revoked_requests FROM extension_per_run"))
    }

    func testTheDefaultScenarioPrintsNoExtensionLines() throws {
        let scenario = try Fixtures.scenario()
        let results = try ScenarioRunner.run(scenario, items: ScenarioRunner.workItems(replications: 1, traceCount: 1), jobs: 1)
        let table = BatchSummary(results: results, budgets: scenario.keyboard.budgets).table()
        XCTAssertFalse(table.contains("memory "))
        XCTAssertFalse(table.contains("languages "))
        XCTAssertFalse(table.contains("token "))
        let records = results[0].observations.extensionRecords
        XCTAssertEqual(records.kills, [])
        XCTAssertLessThan(records.totals.peakFootprintMegabytes, 60)
    }
}
