import Foundation
import XCTest

/// `report --format md` as GitHub shows it: rendered by markdown-it-py (CommonMark with
/// tables), the bold of a significant difference and of a point on the Pareto front is bold,
/// no backslash or asterisk of an escape shows, names with Markdown's own characters read as
/// typed, and every table is a table.
final class MarkdownRenderTests: XCTestCase {
    func testTheReportRendersAsMarkdownWithItsBoldAndNoEscapesShowing() throws {
        let folder = try TemporaryFolder()
        let source = try String(contentsOf: KeysimProcess.packageRoot.appendingPathComponent("traces/english-typing.jsonl"), encoding: .utf8)
        try folder.write("t.jsonl", source.split(separator: "\n").prefix(400).joined(separator: "\n") + "\n")
        let name = "chat *draft* _v2_ [x] | y"
        let a = try folder.write("fast.json5", "{name: '\(name)', traces: ['t.jsonl'], replications: 3, network: {roundTrip: 20}}")
        let b = try folder.write("slow.json5", "{name: 'slow', traces: ['t.jsonl'], network: {roundTrip: 500}}")
        let db = folder.path("r.sqlite")
        let compare = try runKeysim(["compare", a, b, "--db", db])
        XCTAssertEqual(compare.status, 0, compare.stderr)
        let sweep = try runKeysim(["sweep", a, "--set", "debounce.otherwiseMs=250,4000", "--replications", "1", "--db", db])
        XCTAssertEqual(sweep.status, 0, sweep.stderr)
        let report = try runKeysim(["report", db, "--format", "md", "--out", folder.path("r.md")])
        XCTAssertEqual(report.status, 0, report.stderr)
        let markdown = try String(contentsOfFile: folder.path("r.md"), encoding: .utf8)
        XCTAssertTrue(markdown.contains("| **yes** |"), "written as Markdown, not escaped:\n\(markdown)")
        XCTAssertFalse(markdown.contains("\\*\\*yes"), markdown)

        let html = String(decoding: try PythonScript.run("Markdown/render_markdown.py", [folder.path("r.md")]), as: UTF8.self)
        XCTAssertTrue(html.contains("<td style=\"text-align:right\"><strong>yes</strong></td>")
                      || html.contains("<td><strong>yes</strong></td>"), "a significant difference in bold:\n\(html)")
        let text = html.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
        XCTAssertFalse(text.contains("**"), "no asterisks of a bold show:\n\(text)")
        XCTAssertFalse(text.contains("\\"), "no backslash of an escape shows:\n\(text)")
        XCTAssertTrue(text.contains("chat *draft* _v2_ [x] | y vs slow"), "the scenario's name reads as typed:\n\(text)")
        let separators = markdown.split(separator: "\n").filter { $0.hasPrefix("| ---") || $0.hasPrefix("| :--") }.count
        XCTAssertGreaterThan(separators, 4)
        XCTAssertEqual(html.components(separatedBy: "<table>").count - 1, separators, "every table renders as a table")
    }
}
