import Foundation
import XCTest

@testable import Report

/// `docs/report-schema.md` holds sections generated from the declarations — the tables
/// (`ReportSchema.tables`), the views (`ReportSchema.views`), the metrics (`RunMetric.all`) and the export formats
/// (`ExporterRegistry.standard`) — between marker comments. Each test fails when a section
/// and its declarations disagree, and says how to write them again:
///
///     KEYSIM_UPDATE_DOCS=1 swift test --skip-build --disable-swift-testing --filter ReportDocsTests
final class ReportDocsTests: XCTestCase {
    static let document = "docs/report-schema.md"

    func testTheTablesSectionIsTheDeclarations() throws {
        try checkSection("tables", ReportSchema.tablesMarkdown)
    }

    func testTheMetricsTableIsTheDefinitions() throws {
        try checkSection("metrics", RunMetric.catalogMarkdown)
    }

    func testTheFleetMetricsTableIsTheDefinitions() throws {
        try checkSection("fleet-metrics", FleetMetric.catalogMarkdown)
    }

    func testTheViewsTableIsTheDeclarations() throws {
        try checkSection("views", ReportSchema.viewsMarkdown)
    }

    /// Every view the schema creates is declared, in the order it is created, and no other.
    func testEveryViewIsDeclared() throws {
        let created = ReportSchema.viewsSQL.components(separatedBy: "CREATE VIEW IF NOT EXISTS ").dropFirst()
            .map { String($0.prefix { $0 != " " }) }
        XCTAssertEqual(Set(created), Set(ReportSchema.views.map(\.name)))
        XCTAssertEqual(created.count, ReportSchema.views.count)
    }

    func testTheFormatsTableIsTheRegistry() throws {
        try checkSection("formats", ExporterRegistry.standard.formatsMarkdown)
    }

    /// Compares the section `name` of the document with `generated`, or writes it when
    /// `KEYSIM_UPDATE_DOCS=1`.
    private func checkSection(_ name: String, _ generated: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = Fixtures.packageRoot.appendingPathComponent(Self.document)
        let text = try String(contentsOf: url, encoding: .utf8)
        let begin = "<!-- BEGIN GENERATED \(name):"
        let end = "<!-- END GENERATED \(name) -->"
        guard let start = text.range(of: begin), let beginLineEnd = text[start.upperBound...].range(of: "-->\n"),
              let stop = text.range(of: end, range: beginLineEnd.upperBound..<text.endIndex) else {
            return XCTFail("\(Self.document) has no section '\(name)' between `\(begin) … -->` and `\(end)`", file: file, line: line)
        }
        let current = String(text[beginLineEnd.upperBound..<stop.lowerBound])
        let wanted = "\n" + generated + "\n"
        if current == wanted { return }
        if ProcessInfo.processInfo.environment["KEYSIM_UPDATE_DOCS"] == "1" {
            try (String(text[..<beginLineEnd.upperBound]) + wanted + String(text[stop.lowerBound...])).write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let currentLines = current.split(separator: "\n", omittingEmptySubsequences: false)
        let wantedLines = wanted.split(separator: "\n", omittingEmptySubsequences: false)
        let first = zip(currentLines, wantedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(currentLines.count, wantedLines.count)
        XCTFail("""
            the '\(name)' section of \(Self.document) differs from the declarations, first at its line \(first + 1):
              doc:       \(first < currentLines.count ? currentLines[first] : "(end)")
              generated: \(first < wantedLines.count ? wantedLines[first] : "(end)")
            Write it again from the declarations with
              KEYSIM_UPDATE_DOCS=1 swift test --skip-build --disable-swift-testing --filter ReportDocsTests
            """, file: file, line: line)
    }
}
