@testable import Sim
import XCTest

/// The Weibull and shifted distributions a calibration writes: closed forms against
/// reference values, the sampler against the CDF, the density against the CDF's slope.
final class WeibullShiftedDistributionTests: XCTestCase {
    func testWeibullClosedFormsMatchReferenceValues() throws {
        let weibull = Distribution.weibull(shape: 2, scale: 10)
        // F(x) = 1 − exp(−(x/λ)^k): F(10) = 1 − e⁻¹.
        XCTAssertEqual(weibull.cdf(10), 1 - exp(-1.0), accuracy: 1e-15)
        XCTAssertEqual(weibull.cdf(0), 0)
        // Median λ (ln 2)^(1/k); mean λ Γ(1 + 1/k) = 10 · √π / 2.
        XCTAssertEqual(try XCTUnwrap(weibull.quantile(0.5)), 10 * log(2.0).squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(weibull.mean), 5 * Double.pi.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(weibull.quantile(1), .infinity)
        XCTAssertEqual(weibull.quantile(0), 0)
        // Shape 1 is the exponential.
        XCTAssertEqual(Distribution.weibull(shape: 1, scale: 3).cdf(2), Distribution.exponential(mean: 3).cdf(2), accuracy: 1e-15)
    }

    func testShiftedAddsItsOffsetToEverything() throws {
        let base = Distribution.lognormal(mu: 0.5, sigma: 0.4)
        let shifted = Distribution.shifted(offset: 1.5, base: base)
        XCTAssertEqual(shifted.cdf(1.5), 0)
        XCTAssertEqual(shifted.cdf(3.2), base.cdf(1.7), accuracy: 1e-15)
        XCTAssertEqual(try XCTUnwrap(shifted.quantile(0.9)), 1.5 + (try XCTUnwrap(base.quantile(0.9))), accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(shifted.mean), 1.5 + (try XCTUnwrap(base.mean)), accuracy: 1e-12)
        XCTAssertEqual(shifted.kindName, "shifted")
        var a = RandomStream(seed: 7, replication: 0, name: "shift")
        var b = RandomStream(seed: 7, replication: 0, name: "shift")
        for _ in 0..<100 {
            XCTAssertEqual(shifted.sample(&a), 1.5 + base.sample(&b), accuracy: 1e-12)
        }
    }

    func testValidationNamesTheBadParameter() {
        XCTAssertEqual(Distribution.weibull(shape: 0, scale: 1).validate().map(\.description), ["shape: must be > 0"])
        XCTAssertEqual(Distribution.weibull(shape: 1, scale: .nan).validate().map(\.description), ["scale: must be finite"])
        XCTAssertEqual(Distribution.shifted(offset: -1, base: .weibull(shape: 1, scale: -2)).validate().map(\.description),
                       ["offset: must be >= 0", "base.scale: must be > 0"])
    }

    /// Over seeds, the sampler's empirical CDF stays within the Kolmogorov 0.1% band of the
    /// analytic CDF: for n = 2000, D < 1.95 / √n ≈ 0.0436.
    func testSamplesFollowTheCDFOverSeeds() {
        let cases: [Distribution] = [
            .weibull(shape: 0.7, scale: 4), .weibull(shape: 3.5, scale: 20),
            .shifted(offset: 2, base: .gamma(shape: 2, scale: 0.5)),
            .shifted(offset: 0.5, base: .weibull(shape: 1.5, scale: 1)),
        ]
        let n = 2000
        for distribution in cases {
            for seed in UInt64(1)...5 {
                var rng = RandomStream(seed: seed, replication: 0, name: "ks")
                let draws = (0..<n).map { _ in distribution.sample(&rng) }.sorted()
                var gap = 0.0
                for (i, x) in draws.enumerated() {
                    let f = distribution.cdf(x)
                    gap = max(gap, Double(i + 1) / Double(n) - f, f - Double(i) / Double(n))
                }
                XCTAssertLessThan(gap, 1.95 / Double(n).squareRoot(), "\(distribution) seed \(seed)")
            }
        }
    }

    /// The log density is the derivative of the CDF, checked by central differences.
    func testLogDensityIsTheSlopeOfTheCDF() throws {
        let cases: [Distribution] = [
            .lognormal(mu: 1, sigma: 0.5), .gamma(shape: 2.5, scale: 1.5), .weibull(shape: 1.7, scale: 3),
            .exponential(mean: 2), .shifted(offset: 1, base: .gamma(shape: 3, scale: 0.4)),
        ]
        for distribution in cases {
            for x in [1.3, 2.7, 4.1] {
                let h = 1e-5
                let slope = (distribution.cdf(x + h) - distribution.cdf(x - h)) / (2 * h)
                let density = exp(try XCTUnwrap(distribution.logDensity(x)))
                XCTAssertEqual(density, slope, accuracy: 1e-6 * max(1, slope), "\(distribution) at \(x)")
            }
        }
        XCTAssertEqual(Distribution.shifted(offset: 1, base: .lognormal(mu: 0, sigma: 1)).logDensity(0.5), -.infinity)
        XCTAssertNil(Distribution.uniform(min: 0, max: 1).logDensity(0.5))
    }
}
