import Foundation
import XCTest
@testable import Report

/// `--format md`, the compact form: one open table with the report's own figures per batch,
/// everything else folded, and never longer than a pull request's comment holds.
final class MarkdownCompactTests: XCTestCase {
    private static func makeReport(_ folder: ReportFolder) throws -> String {
        try Fixtures.compareAndSweepReport(folder, sweepValues: [500, 2000], sweepReplications: 1)
    }

    func testOneSummaryTableOfTheReportsFiguresAndTheRestFolded() throws {
        let folder = try ReportFolder()
        let store = try ReportStore(path: try Self.makeReport(folder), readOnly: true)
        let markdown = MarkdownExporter.renderCompact(try ReportDigest(store, options: ExportOptions()))
        // One open table: its rows are the batches with the views' own figures.
        let open = markdown.components(separatedBy: "<details>")[0]
        XCTAssertEqual(open.components(separatedBy: "\n| ---").count - 1, 1, open)
        let figures = try store.database.query("""
            SELECT k.batch_id, k.p99_ms, q.requests_per_100_words,
                   (SELECT AVG(m.value) FROM run_metrics m JOIN runs r USING (run_id) WHERE r.batch_id = k.batch_id AND m.metric = 'underline_verdict_p95_ms')
            FROM key_latency_per_batch k JOIN requests_per_batch q USING (batch_id) ORDER BY k.batch_id
            """)
        XCTAssertEqual(figures.count, 4)
        for row in figures {
            let p99 = TextTable.fixed(row[1].doubleValue!, 2), perWords = TextTable.fixed(row[2].doubleValue!, 1)
            let verdict = TextTable.fixed(row[3].doubleValue!, 0)
            XCTAssertTrue(open.contains("| \(row[0].integerValue) | ") && open.contains(" | \(p99) | ") && open.contains(" | \(perWords) | \(verdict) |"),
                          "batch \(row[0].integerValue): \(p99), \(perWords), \(verdict) in\n\(open)")
        }
        for title in ["Batches (4 rows)", "Key latency, touch to inserted (ms) (4 rows)", "Cloud requests (4 rows)",
                      "Comparison: seed vs fixed-1s — default, 2 pairs, ", "Sweep: default, debounce.otherwiseMs, 2 points, "] {
            XCTAssertTrue(markdown.contains("<details><summary>\(title)"), title)
        }
        XCTAssertEqual(markdown.components(separatedBy: "<details>").count, markdown.components(separatedBy: "</details>").count)
        XCTAssertFalse(markdown.contains("Left out"), "a small report fits whole")
    }

    /// However many batches, the compact form fits in a comment: the blocks that do not fit
    /// are named, in order, for `md-full`.
    func testALargeReportStaysUnderACommentsLength() throws {
        let folder = try ReportFolder()
        let store = try ReportStore(path: try Self.makeReport(folder), readOnly: true)
        var digest = try ReportDigest(store, options: ExportOptions())
        for count in [500, 5_000] {
            digest.batches.rows = (0..<count).map { i in digest.batches.rows[i % digest.batches.rows.count] }
            digest.keyLatency.rows = (0..<count).map { i in digest.keyLatency.rows[i % digest.keyLatency.rows.count] }
            let markdown = MarkdownExporter.renderCompact(digest)
            XCTAssertLessThanOrEqual(markdown.count, MarkdownExporter.commentCharactersMax, "\(count) rows")
            XCTAssertTrue(markdown.contains("Left out to fit a pull request's comment (`--format md-full` has them): "), "\(count) rows")
            XCTAssertTrue(markdown.contains("Key latency, touch to inserted (ms) (\(count) rows)"), "\(count) rows")
            XCTAssertTrue(markdown.hasPrefix(MarkdownExporter.heading(digest) + "\n" + MarkdownExporter.markdown(digest.summary)))
        }
    }
}
