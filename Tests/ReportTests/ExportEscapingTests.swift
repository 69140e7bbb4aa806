import XCTest
@testable import Report

/// Names from scenario files reach exports: none may become markup or a formula.
final class ExportEscapingTests: XCTestCase {
    func testMarkdownWritesHTMLAsEntitiesAndEscapesInlineMarkup() {
        XCTAssertEqual(MarkdownExporter.escape("<img src=x onerror=alert(1)>"), "&lt;img src=x onerror=alert(1)&gt;")
        XCTAssertEqual(MarkdownExporter.escape("a|b *c* _d_ [e](f) `g` #h !i & \\"),
                       "a\\|b \\*c\\* \\_d\\_ \\[e\\](f) \\`g\\` \\#h \\!i &amp; \\\\")
        XCTAssertEqual(MarkdownExporter.escape("two\nlines"), "two lines")
        XCTAssertEqual(MarkdownExporter.escape("fixed-1s 44.9%"), "fixed-1s 44.9%")
        XCTAssertEqual(MarkdownExporter.code("/tmp/r.sqlite"), "`/tmp/r.sqlite`")
        XCTAssertEqual(MarkdownExporter.code("/tmp/a`b.sqlite"), "`` /tmp/a`b.sqlite ``")
    }

    func testCSVNeutralisesFormulasButKeepsNumbers() {
        XCTAssertEqual(TableExporter.csvField("=cmd|' /C calc'!A0"), "\"'=cmd|' /C calc'!A0\"")
        XCTAssertEqual(TableExporter.csvField("+SUM(A1)"), "\"'+SUM(A1)\"")
        XCTAssertEqual(TableExporter.csvField("@x"), "\"'@x\"")
        XCTAssertEqual(TableExporter.csvField("-2+3"), "\"'-2+3\"")
        XCTAssertEqual(TableExporter.csvField("\tx"), "\"'\tx\"")
        XCTAssertEqual(TableExporter.csvField("-3.5"), "-3.5")
        XCTAssertEqual(TableExporter.csvField("plain"), "plain")
        XCTAssertEqual(TableExporter.csvField("a,b"), "\"a,b\"")
        XCTAssertEqual(TableExporter.csvValue(.integer(-4)), "-4")
    }
}
