@testable import Report
import XCTest

/// `TextTable.fixed` writes every number in positional notation: a cost per 1,000 words of
/// $0.000053 must not read "5.3e-05".
final class TextTableFixedTests: XCTestCase {
    func testSmallNumbersArePositional() {
        XCTAssertEqual(TextTable.fixed(5.3e-05, 6), "0.000053")
        XCTAssertEqual(TextTable.fixed(-5.3e-05, 6), "-0.000053")
        XCTAssertEqual(TextTable.fixed(1.2e-07, 6), "0.000000")
        XCTAssertEqual(TextTable.fixed(0.000121, 6), "0.000121")
        XCTAssertEqual(TextTable.fixed(7.5e-05, 4), "0.0001")
        XCTAssertEqual(TextTable.fixed(2.5, 1), "2.5")
        XCTAssertEqual(TextTable.fixed(1234.5678, 2), "1234.57")
    }

    func testEveryWholeNumberOfDecimalsReadsBack() {
        for seed in UInt64(1)...20 {
            var generator = SplitMix(seed: seed)
            for _ in 0..<500 {
                let decimals = Int(generator.next() % 9)
                let k = Int64(generator.next() % 2_000_000) - 1_000_000
                var scale = 1.0
                for _ in 0..<decimals { scale *= 10 }
                let digits = String(k.magnitude)
                let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
                let expected = (k < 0 ? "-" : "") + padded.dropLast(decimals) + (decimals > 0 ? "." + padded.suffix(decimals) : "")
                XCTAssertEqual(TextTable.fixed(Double(k) / scale, decimals), expected, "seed \(seed): \(k) / 10^\(decimals)")
            }
        }
    }
}

/// A chart's tick labels say the tick's value: an axis of dollars per 1,000 words ticks by
/// 0.005, which two decimals would print as 0.01 twice.
final class ChartTickTextTests: XCTestCase {
    func testTicksKeepTheDecimalsTheyNeed() {
        XCTAssertEqual(SVGChart.ticks(0...0.025).map(SVGChart.tickText), ["0", "0.005", "0.01", "0.015", "0.02", "0.025"])
        XCTAssertEqual(SVGChart.ticks(0...1.2).map(SVGChart.tickText), ["0", "0.50", "1"])
        XCTAssertEqual(SVGChart.tickText(2500), "2500")
    }
}
