import Foundation
import XCTest
@testable import Sim

/// The analytics against reference values (scipy / mpmath): quantiles, CDFs, means and the
/// special functions behind them.
extension DistributionTests {
    func testLognormalFromMedianAndP99HasThatMedianAndP99() throws {
        for (median, p99) in [(300.0, 2_000.0), (0.5, 0.6), (40.0, 4_000.0)] {
            let distribution = Distribution.lognormal(median: median, p99: p99)
            XCTAssertEqual(try XCTUnwrap(distribution.quantile(0.5)), median, accuracy: 1e-13 * median)
            XCTAssertEqual(try XCTUnwrap(distribution.quantile(0.99)), p99, accuracy: 1e-12 * p99)
            XCTAssertEqual(distribution.cdf(median), 0.5, accuracy: 1e-15)
            XCTAssertEqual(distribution.cdf(p99), 0.99, accuracy: 1e-13)
        }
        guard case .lognormal(let mu, let sigma) = Distribution.lognormal(median: 300, p99: 2_000) else {
            return XCTFail("lognormal(median:p99:) must build a lognormal")
        }
        XCTAssertEqual(mu, 5.703782474656201, accuracy: 1e-14)
        XCTAssertEqual(sigma, 0.8154928186172796, accuracy: 1e-14)
    }

    func testTruncatedNormalMeanAndQuantilesAreThoseOfTheTruncatedLaw() throws {
        // scipy.stats.truncnorm(-10/8, inf, loc=10, scale=8).
        let truncated = Distribution.normal(mean: 10, stddev: 8)
        XCTAssertEqual(try XCTUnwrap(truncated.mean), 11.633803671189414, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(truncated.quantile(0.5)), 11.062413433411853, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(truncated.quantile(0.9)), 20.75393844802339, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(truncated.quantile(0.99)), 28.943591477855588, accuracy: 1e-12)
        XCTAssertEqual(truncated.quantile(0), 0)
        XCTAssertEqual(truncated.quantile(1), .infinity)
        XCTAssertEqual(truncated.cdf(0), 0)
        // Half-normal: mean σ·√(2/π), median σ·Φ⁻¹(0.75).
        let halfNormal = Distribution.normal(mean: 0, stddev: 5)
        XCTAssertEqual(try XCTUnwrap(halfNormal.mean), 5 * (2 / Double.pi).squareRoot(), accuracy: 1e-13)
        XCTAssertEqual(try XCTUnwrap(halfNormal.quantile(0.5)), 5 * 0.674489750196081743, accuracy: 1e-13)
    }

    func testGammaQuantilesInvertTheIncompleteGammaFunction() throws {
        // scipy.stats.gamma(2.5, scale=40).
        let gamma = Distribution.gamma(shape: 2.5, scale: 40)
        XCTAssertEqual(gamma.mean, 100)
        XCTAssertEqual(try XCTUnwrap(gamma.quantile(0.5)), 87.02920382191053, accuracy: 1e-11)
        XCTAssertEqual(try XCTUnwrap(gamma.quantile(0.9)), 184.72713799562246, accuracy: 1e-11)
        XCTAssertEqual(try XCTUnwrap(gamma.quantile(0.99)), 301.7254493877798, accuracy: 1e-10)
        // χ²₁₀ is gamma(5, scale 2); its 95th percentile is in every table.
        XCTAssertEqual(try XCTUnwrap(Distribution.gamma(shape: 5, scale: 2).quantile(0.95)), 18.307038053275146, accuracy: 1e-12)
        // Shape 1 is the exponential distribution, whose quantile is closed-form.
        let exponentialAsGamma = Distribution.gamma(shape: 1, scale: 50)
        for p in [0.001, 0.3, 0.5, 0.9, 0.999999] {
            let expected = -50 * log1p(-p)
            XCTAssertEqual(try XCTUnwrap(exponentialAsGamma.quantile(p)), expected, accuracy: 1e-12 * expected, "p \(p)")
        }
    }

    func testNormalQuantileMatchesReferenceValues() {
        // mpmath at 700 digits, for these exact doubles.
        let reference: [(Double, Double)] = [
            (1e-300, -37.0470962993611992), (1e-20, -9.26234008979840758),
            (1e-10, -6.3613409024040562), (0.001, -3.09023230616781354),
            (0.025, -1.95996398454005421), (0.3, -0.524400512708040816), (0.5, 0),
            (0.75, 0.674489750196081743), (0.975, 1.95996398454005386),
            (0.99, 2.32634787404084077), (1 - 1e-10, 6.36134088969742186),
        ]
        for (p, z) in reference {
            XCTAssertEqual(SpecialFunctions.normalQuantile(p), z, accuracy: 4e-16 * Swift.max(1, abs(z)), "p \(p)")
        }
        XCTAssertEqual(SpecialFunctions.normalQuantile(0), -.infinity)
        XCTAssertEqual(SpecialFunctions.normalQuantile(1), .infinity)
        XCTAssertTrue(SpecialFunctions.normalQuantile(1.5).isNaN)
        XCTAssertEqual(SpecialFunctions.normalQuantile99, SpecialFunctions.normalQuantile(0.99))
    }

    func testNormalQuantileRoundTripsThroughTheCDF() {
        var p = 1e-300
        while p < 0.5 {
            let z = SpecialFunctions.normalQuantile(p)
            // Φ(z) amplifies a relative error ε in z into z²·ε in p.
            XCTAssertEqual(SpecialFunctions.normalCDF(z), p, accuracy: 1e-15 * Swift.max(1, z * z) * p, "p \(p)")
            // Symmetry, where 1 − q is exact (q ≥ 1/2): Φ⁻¹(q) = −Φ⁻¹(1 − q).
            let q = 1 - p
            if q < 1 {
                XCTAssertEqual(
                    SpecialFunctions.normalQuantile(q), -SpecialFunctions.normalQuantile(1 - q),
                    accuracy: 1e-15 * Swift.max(1, abs(z)), "q \(q)")
            }
            p *= 3.7
        }
    }

    func testRegularizedGammaMatchesReferenceValues() {
        // (a, x, P(a, x), Q(a, x)) from mpmath.gammainc(regularized=True).
        let reference: [(Double, Double, Double, Double, Double)] = [
            (0.5, 0.1, 0.34527915398142298, 0.65472084601857702, 2e-14),
            (0.5, 3, 0.98569412156457036, 0.0143058784354296395, 2e-14),
            (3, 2.5, 0.456186884116670482, 0.543813115883329518, 2e-14),
            (10, 15, 0.930146339300590232, 0.0698536606994097677, 2e-14),
            (100, 90, 0.158220989186430168, 0.841779010813569832, 2e-14),
            (1_000, 1_100, 0.998940676746070023, 0.00105932325392997735, 2e-14),
            (0.01, 0.001, 0.938570652526128985, 0.0614293474738710146, 2e-14),
            // Either side of a = 15, where the prefactor switches to Stirling's form.
            (14.5, 14, 0.482086973676993189, 0.517913026323006811, 2e-14),
            (15, 16, 0.63247264023443507, 0.36752735976556493, 2e-14),
            (5_000, 4_990, 0.445594088789661216, 0.554405911210338784, 2e-14),
            (50, 200, 1, 1.69279799588570877e-37, 2e-14),
            (100_000, 100_000, 0.500420522110365177, 0.499579477889634823, 2e-14),
        ]
        for (a, x, lower, upper, relativeTolerance) in reference {
            let result = SpecialFunctions.regularizedGamma(a, x)
            XCTAssertEqual(result.lower, lower, accuracy: relativeTolerance * lower, "P(\(a), \(x))")
            XCTAssertEqual(result.upper, upper, accuracy: relativeTolerance * upper, "Q(\(a), \(x))")
        }
        XCTAssertTrue(SpecialFunctions.regularizedGamma(2, 0) == (0, 1))
        XCTAssertTrue(SpecialFunctions.regularizedGamma(2, .infinity) == (1, 0))
    }

    func testCDFInvertsQuantileForEveryContinuousKind() throws {
        let distributions: [Distribution] = [
            .uniform(min: 5, max: 20), .normal(mean: 300, stddev: 80), .normal(mean: 10, stddev: 8),
            .lognormal(mu: 5.7, sigma: 0.5), .exponential(mean: 150), .gamma(shape: 0.3, scale: 100),
            .gamma(shape: 2.5, scale: 40), .gamma(shape: 5_000, scale: 0.1), .pareto(scale: 20, shape: 1.5),
            .quantileTable([QuantilePoint(p: 0, value: 0), QuantilePoint(p: 0.3, value: 10), QuantilePoint(p: 1, value: 500)]),
            .mixture([
                MixtureComponent(weight: 3, distribution: .exponential(mean: 20)),
                MixtureComponent(weight: 1, distribution: .gamma(shape: 9, scale: 50)),
            ]),
        ]
        for distribution in distributions {
            for p in [0.001, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999] {
                let x = try XCTUnwrap(distribution.quantile(p))
                XCTAssertEqual(distribution.cdf(x), p, accuracy: 1e-12, "p \(p), \(distribution)")
            }
        }
    }

    func testMixtureQuantileIsTheSmallestDoubleReachingP() throws {
        let mixture = Self.cloudLatency
        for p in [0.01, 0.2, 0.5, 0.9, 0.99] {
            let x = try XCTUnwrap(mixture.quantile(p))
            XCTAssertGreaterThanOrEqual(mixture.cdf(x), p, "p \(p)")
            XCTAssertLessThan(mixture.cdf(x.nextDown), p, "p \(p)")
        }
        // The 5% atom at 5000 ms covers every p above 0.95 and a bit.
        XCTAssertEqual(mixture.quantile(0.99), 5_000)
        XCTAssertEqual(mixture.quantile(0), 0)
        XCTAssertEqual(mixture.quantile(1), .infinity)
    }

    func testQuantileTableInterpolatesExactlyAtPointsAndLinearlyBetween() throws {
        let table = Distribution.quantileTable(Self.tableWithAtom)
        for point in Self.tableWithAtom {
            XCTAssertEqual(table.quantile(point.p), point.value, "p \(point.p)")
        }
        XCTAssertEqual(try XCTUnwrap(table.quantile(0.25)), 25, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(table.quantile(0.1)), 16, accuracy: 1e-12)
        XCTAssertEqual(table.quantile(0.65), 40)
        XCTAssertEqual(try XCTUnwrap(table.quantile(0.9)), 40 + 80 * (0.1 / 0.15), accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(table.quantile(0.99)), 120 + 280 * 0.8, accuracy: 1e-9)
        // The CDF inverts the interpolation, and jumps across the atom at 40.
        XCTAssertEqual(table.cdf(9.99), 0)
        XCTAssertEqual(table.cdf(25), 0.25, accuracy: 1e-15)
        XCTAssertEqual(table.cdf(40.nextDown), 0.5, accuracy: 1e-14)
        XCTAssertEqual(table.cdf(40), 0.8)
        XCTAssertEqual(table.cdf(400), 1)
        // E[X] is the integral of the piecewise-linear quantile function: the trapezoids.
        let expectedMean = 0.5 * 25 + 0.3 * 40 + 0.15 * 80 + 0.05 * 260
        XCTAssertEqual(try XCTUnwrap(table.mean), expectedMean, accuracy: 1e-12)
    }

    func testEmpiricalQuantileCountsRanksExactly() throws {
        let empirical = Distribution.empirical(samples: [10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
        XCTAssertEqual(empirical.quantile(0), 1)
        // 0.7 · 10 rounds to 7.000000000000001 in doubles; the 7th value is still the answer.
        XCTAssertEqual(empirical.quantile(0.7), 7)
        XCTAssertEqual(empirical.quantile(0.71), 8)
        XCTAssertEqual(empirical.quantile(1), 10)
        XCTAssertEqual(empirical.cdf(5), 0.5)
        XCTAssertEqual(empirical.cdf(0.5), 0)
        XCTAssertEqual(empirical.mean, 5.5)
    }

    func testMeanIsNilOnlyWhereUndefined() throws {
        XCTAssertNil(Distribution.pareto(scale: 10, shape: 1).mean)
        XCTAssertNil(Distribution.pareto(scale: 10, shape: 0.5).mean)
        XCTAssertEqual(try XCTUnwrap(Distribution.pareto(scale: 10, shape: 3).mean), 15, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(Distribution.pareto(scale: 10, shape: 0.5).quantile(0.75)), 160, accuracy: 1e-10)
        let withHeavyTail = Distribution.mixture([
            MixtureComponent(weight: 1, distribution: .constant(1)),
            MixtureComponent(weight: 1, distribution: .pareto(scale: 1, shape: 1)),
        ])
        XCTAssertNil(withHeavyTail.mean)
        XCTAssertEqual(Distribution.constant(3).mean, 3)
        XCTAssertEqual(Distribution.uniform(min: 2, max: 6).mean, 4)
        XCTAssertEqual(Distribution.exponential(mean: 7).mean, 7)
        XCTAssertEqual(try XCTUnwrap(Distribution.lognormal(mu: 1, sigma: 0.5).mean), exp(1.125), accuracy: 1e-14)
        XCTAssertEqual(Self.cloudLatency.mean.map { $0 > 0 }, true)
    }

    func testAnalyticsOfInvalidDistributionsOrProbabilitiesAreNil() {
        XCTAssertNil(Distribution.uniform(min: 5, max: 1).mean)
        XCTAssertNil(Distribution.exponential(mean: -1).quantile(0.5))
        XCTAssertNil(Distribution.exponential(mean: 1).quantile(-0.1))
        XCTAssertNil(Distribution.exponential(mean: 1).quantile(1.1))
        XCTAssertNil(Distribution.exponential(mean: 1).quantile(.nan))
    }
}
