import XCTest
@testable import Scenarios

/// The one formatter of figures: fixed point at the shown precision, never an exponent, never
/// a negative zero; and the shortest positional text for bounds and settings.
final class NumberTextTests: XCTestCase {
    func testFixedRoundsToTheShownPlacesWithoutExponents() {
        // The defect: 1.5e-05 at six places padded its exponent form to "1.5e-050".
        XCTAssertEqual(NumberText.fixed(1.5e-5, 6), "0.000015")
        XCTAssertEqual(NumberText.fixed(-1.5e-5, 6), "-0.000015")
        XCTAssertEqual(NumberText.fixed(4.6e-5, 6), "0.000046")
        XCTAssertEqual(NumberText.fixed(1.5e-50, 6), "0.000000")
        XCTAssertEqual(NumberText.fixed(1e16, 2), "10000000000000000.00")
        XCTAssertEqual(NumberText.fixed(-2.5e20, 0), "-250000000000000000000")
        XCTAssertEqual(NumberText.fixed(1e300, 3), String(format: "%.0f", 1e300) + ".000")
        XCTAssertEqual(NumberText.fixed(6734.549, 2), "6734.55")
        XCTAssertEqual(NumberText.fixed(0.5, 0), "1", "half away from zero, as keysim always rounded")
        XCTAssertEqual(NumberText.fixed(-0.5, 0), "-1")
        XCTAssertEqual(NumberText.fixed(0.04, 1), "0.0")
        XCTAssertEqual(NumberText.fixed(12.0, 3), "12.000")
        XCTAssertEqual(NumberText.fixed(0.0123, 4), "0.0123")
        XCTAssertEqual(NumberText.fixed(.nan, 2), "-")
        XCTAssertEqual(NumberText.fixed(-.infinity, 2), "-inf")
    }

    func testNegativeZeroPrintsAsZeroAndSignsOnlyWhatShows() {
        XCTAssertEqual(NumberText.fixed(-0.001, 2), "0.00")
        XCTAssertEqual(NumberText.fixed(-0.0, 2), "0.00")
        XCTAssertEqual(NumberText.fixed(-0.4, 0), "0")
        XCTAssertEqual(NumberText.signed(-0.001, 2), "0.00")
        XCTAssertEqual(NumberText.signed(0.001, 2), "0.00")
        XCTAssertEqual(NumberText.signed(0.005, 2), "+0.01")
        XCTAssertEqual(NumberText.signed(1165.05, 2), "+1165.05")
        XCTAssertEqual(NumberText.signed(-9.23, 2), "-9.23")
        XCTAssertEqual(NumberText.signed(1.5e-5, 6), "+0.000015")
        XCTAssertEqual(NumberText.signed(.infinity, 1), "+inf")
    }

    func testFixedAgreesWithTheOldRoundingOnEveryValueThatPrintedWithoutAnExponent() {
        // The old formatter: (x·10ᵈ).rounded() / 10ᵈ, its shortest text padded with zeros.
        func old(_ x: Double, _ d: Int) -> String {
            var scale = 1.0
            for _ in 0..<d { scale *= 10 }
            var text = String((x * scale).rounded() / scale)
            if let dot = text.firstIndex(of: ".") {
                let have = text.distance(from: dot, to: text.endIndex) - 1
                if have < d { text += String(repeating: "0", count: d - have) }
                if d == 0 { text = String(text[..<dot]) }
            }
            return text
        }
        var generator = SplitMix64(seed: 26)
        for seed in 0..<20_000 {
            let magnitude = Double(generator.next() % 1_000_000_000) / 1000 / Double(1 << (generator.next() % 12))
            let x = generator.next() % 2 == 0 ? magnitude : -magnitude
            let d = Int(generator.next() % 7)
            let before = old(x, d)
            let negativeZero = before.hasPrefix("-") && before.dropFirst().allSatisfy { $0 == "0" || $0 == "." }
            guard !before.contains("e"), !negativeZero else { continue }
            XCTAssertEqual(NumberText.fixed(x, d), before, "seed \(seed): \(x) at \(d) places")
        }
    }

    func testShortestIsPositional() {
        XCTAssertEqual(NumberText.shortest(5), "5")
        XCTAssertEqual(NumberText.shortest(0.5), "0.5")
        XCTAssertEqual(NumberText.shortest(1e-5), "0.00001")
        XCTAssertEqual(NumberText.shortest(-1.25e-7), "-0.000000125")
        XCTAssertEqual(NumberText.shortest(1e20), "1e+20", "an echoed out-of-range value stays short")
        XCTAssertEqual(NumberText.shortest(-1e308), "-1e+308")
        XCTAssertEqual(NumberText.shortest(1.5e16), "15000000000000000")
        XCTAssertEqual(NumberText.shortest(-0.0), "0")
        XCTAssertEqual(NumberText.shortest(2500), "2500")
        XCTAssertEqual(NumberText.shortest(0.1 + 0.2), "0.30000000000000004")
        for x in [1e-5, 3.25e-9, 1.7976931348623157e308, Double.leastNonzeroMagnitude, 123456.789e10, 9.9e16] {
            XCTAssertEqual(Double(NumberText.shortest(x)), x, "\(x) reads back")
            XCTAssertEqual(NumberText.shortest(x).contains("e"), x >= NumberText.positionalLimit, "\(x)")
        }
    }
}
