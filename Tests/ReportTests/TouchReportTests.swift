import Foundation
import XCTest

@testable import Report
import Scenarios
import Sim

/// The touch model's records in a report: the `touches` table, its run metrics, the
/// `keysim run` line, the exports and the timeline track.
final class TouchReportTests: XCTestCase {
    private func scenario(_ policy: String) throws -> Scenario {
        try ScenarioLoader.load(path: Fixtures.packageRoot.appendingPathComponent("scenarios/touch-boundaries.json5").path, policy: policy,
                                overrides: [.init(path: "replications", value: ConfigValue(.number(1)))])
    }

    func testTouchesLandInTheReportMetricsSummaryAndExports() throws {
        let folder = try ReportFolder()
        let path = folder.path("touch.sqlite")
        let shifted = try scenario("slow-predictor")
        let results = try ScenarioRunner.run(shifted, items: ScenarioRunner.workItems(replications: 1, traceCount: 1), jobs: 1)
        let touches = results[0].observations.touches
        XCTAssertGreaterThan(touches.count, 2000)
        _ = try JobRunner.run(try Job(command: "run", batches: [JobBatch(label: "slow-predictor", scenario: shifted)], seed: 42,
                                      replications: 1),
                              shard: .whole, threads: 1, reportPath: path, busyTimeoutMs: 1000)
        let store = try ReportStore(path: path, readOnly: true)

        let rows = try store.database.query("SELECT COUNT(*), SUM(plain_typo), SUM(shifted_typo), SUM(NOT ready), SUM(late_ns > 0) FROM touches")
        XCTAssertEqual(rows[0][0], .integer(Int64(touches.count)))
        XCTAssertEqual(rows[0][1], .integer(Int64(touches.filter(\.plainTypo).count)))
        XCTAssertEqual(rows[0][2], .integer(Int64(touches.filter(\.shiftedTypo).count)))
        XCTAssertEqual(rows[0][3], rows[0][4], "late exactly when not ready")
        XCTAssertGreaterThan(touches.filter { !$0.ready }.count, 100, "the slow predictor is often late")
        let metrics = try store.database.query("""
            SELECT metric, value FROM run_metrics WHERE metric LIKE 'touch_%' ORDER BY metric
            """)
        XCTAssertEqual(metrics.map { $0[0] }, [.text("touch_predictions_late_share"), .text("touch_typo_rate_plain_share"),
                                              .text("touch_typo_rate_shifted_share")])
        XCTAssertEqual(metrics[1][1], .real(Double(touches.filter(\.plainTypo).count) / Double(touches.count)))
        let predicts = try store.database.query("SELECT COUNT(*) FROM tasks WHERE kind = 'predict' AND executor = 'model'")
        XCTAssertEqual(predicts[0][0], .integer(Int64(results[0].summary.edits)))

        let line = BatchSummary(results: results, budgets: shifted.keyboard.budgets).table()
        XCTAssertTrue(line.contains("touches      \(touches.count) decided: typo rate"), line)
        XCTAssertTrue(line.contains("predictions late for"), line)

        let readOnly = store
        let csv = try CSVExporter().export(ExportSource(readOnly, options: ExportOptions()), to: .folder(folder.path("csv")))
        XCTAssertTrue(csv.contains { $0.hasSuffix("touches.csv") }, "\(csv)")
        let timeline = folder.path("trace.json")
        try ChromeTraceExporter.write(readOnly, options: ExportOptions(runID: 1), to: try ReportOutput.file(timeline))
        let text = try String(contentsOfFile: timeline, encoding: .utf8)
        XCTAssertTrue(text.contains("touches (touch → decided)"))
        XCTAssertTrue(text.contains("(prediction late)"))
        XCTAssertTrue(text.contains("\"predict\"") || text.contains("predict "), "predict tasks on the timeline")
    }
}
