import XCTest
@testable import Report
@testable import Sim
import Foundation

/// Names from scenario files reach exports: none may become markup or a formula.
final class ExportEscapingTests: XCTestCase {
    func testMarkdownWritesHTMLAsEntitiesAndEscapesInlineMarkup() {
        XCTAssertEqual(MarkdownEscaper.escape("<img src=x onerror=alert(1)>"), "&lt;img src=x onerror=alert(1)&gt;")
        XCTAssertEqual(MarkdownEscaper.escape("a|b *c* _d_ [e](f) `g` #h !i & \\"),
                       "a\\|b \\*c\\* \\_d\\_ \\[e\\](f) \\`g\\` \\#h \\!i &amp; \\\\")
        XCTAssertEqual(MarkdownEscaper.escape("two\nlines"), "two lines")
        XCTAssertEqual(MarkdownEscaper.escape("fixed-1s 44.9%"), "fixed-1s 44.9%")
        XCTAssertEqual(MarkdownEscaper.code("/tmp/r.sqlite"), "`/tmp/r.sqlite`")
        XCTAssertEqual(MarkdownEscaper.code("/tmp/a`b.sqlite"), "`` /tmp/a`b.sqlite ``")
    }

    func testCSVNeutralisesFormulasButKeepsNumbers() {
        XCTAssertEqual(CSVEscaper.field("=cmd|' /C calc'!A0"), "\"'=cmd|' /C calc'!A0\"")
        XCTAssertEqual(CSVEscaper.field("+SUM(A1)"), "\"'+SUM(A1)\"")
        XCTAssertEqual(CSVEscaper.field("@x"), "\"'@x\"")
        XCTAssertEqual(CSVEscaper.field("-2+3"), "\"'-2+3\"")
        XCTAssertEqual(CSVEscaper.field("\tx"), "\"'\tx\"")
        XCTAssertEqual(CSVEscaper.field("-3.5"), "-3.5")
        XCTAssertEqual(CSVEscaper.field("plain"), "plain")
        XCTAssertEqual(CSVEscaper.field("a,b"), "\"a,b\"")
        XCTAssertEqual(CSVEscaper.value(.integer(-4)), "-4")
    }
}

/// Why each item went over budget, for runs where every key did (many keys at one instant).
final class ViolationCausesTests: XCTestCase {
    private func observations(keys count: Int) -> ObservationBuffer {
        var buffer = ObservationBuffer(keepsTasks: false)
        for index in 0..<count {
            let touch = SimTime(milliseconds: 1000)
            buffer.recordKey(KeyObservation(index: index, edit: .insert, touch: touch, start: touch + SimDuration(milliseconds: Double(index)),
                                            inserted: touch + SimDuration(milliseconds: Double(index) + 2),
                                            ahead: QueueSnapshot(running: 0, queuedAhead: index, queuedKinds: 1)))
        }
        return buffer
    }

    func testTheIndexGivesTheCausesTheSearchGave() {
        let buffer = observations(keys: 300)
        var causes = ViolationCauses(buffer)
        for item in [0, 1, 150, 299, 300] {
            XCTAssertEqual(causes.cause(.key, item: item), MetricSamples.cause(.key, item: item, in: buffer), "key \(item)")
        }
        XCTAssertTrue(causes.cause(.key, item: 5).hasPrefix("waited 5.00 ms for the main thread behind"))
    }

    func testCausesOfEveryKeyCostLinearTime() {
        // A search per violation was O(n²): 100 000 keys took minutes.
        let buffer = observations(keys: 100_000)
        let started = Date()
        var causes = ViolationCauses(buffer)
        var length = 0
        for item in 0..<100_000 { length += causes.cause(.key, item: item).count }
        XCTAssertGreaterThan(length, 0)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }
}
