import XCTest
import Sim
@testable import Scenarios

/// The typist's rounding gives `rounded()`'s bits: on random values of every magnitude and
/// sign, on ties and their neighbours, on signed zeros, and on values too large to have a
/// fraction.
final class HalfAwayRoundingTests: XCTestCase {
    private static func check(_ x: Double, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(HalfAwayRounding.double(x).bitPattern, x.rounded().bitPattern, "\(context): \(x)", file: file, line: line)
        if x.rounded().magnitude < 0x1p62 {
            XCTAssertEqual(HalfAwayRounding.int64(x), Int64(x.rounded()), "\(context): \(x)", file: file, line: line)
        }
    }

    func testRoundingIsRoundedBitForBit() {
        var checked = 0
        for seed: UInt64 in 0..<20 {
            var random = RandomStream(seed: seed, replication: 0, name: "test.rounding")
            for _ in 0..<50_000 {
                // A random magnitude from 2⁻⁴⁰ to 2⁶², either sign, and the typist's own ranges.
                let exponent = Double(random.nextInt(below: 102)) - 40
                let sign: Double = random.bernoulli(0.5) ? -1 : 1
                let x = sign * (1 + random.nextDouble()) * Double.pow2(exponent)
                Self.check(x, "seed \(seed)")
                Self.check(random.nextDouble() * 2_000_000, "seed \(seed), microseconds")
                Self.check((random.nextDouble() - 0.5) * 8_000, "seed \(seed), tenths of a point")
                checked += 3
            }
        }
        for n in -2_000...2_000 {
            let tie = Double(n) + 0.5
            let near: [Double] = [tie, tie.nextUp, tie.nextDown, Double(n), Double(n).nextUp, Double(n).nextDown]
            for x in near { Self.check(x, "tie") }
            checked += 6
        }
        let big: Double = 0x1p52
        var edges: [Double] = [0.0, -0.0, 0.49999999999999994, -0.49999999999999994, 0.5, -0.5, big, -big, big - 0.5, big + 1]
        edges += [2 * big - 1, 0x1p62, -0x1p62, 0x1p100, -0x1p300, Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude]
        edges += [Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, Double.infinity, -Double.infinity]
        for x in edges {
            Self.check(x, "edge")
            checked += 1
        }
        XCTAssertEqual(checked, 20 * 50_000 * 3 + 4_001 * 6 + 21)
    }
}

private extension Double {
    /// 2^`exponent` for an integral exponent.
    static func pow2(_ exponent: Double) -> Double { Double(sign: .plus, exponent: Int(exponent), significand: 1) }
}
