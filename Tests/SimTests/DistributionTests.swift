import Foundation
import XCTest
@testable import Sim

final class DistributionTests: XCTestCase {
    // MARK: Sampling agrees with the analytic mean and quantiles

    /// Draws `drawCount` values for each seed and checks them against the analytics:
    /// - the sample mean is within 5 standard errors of `mean` (skipped when `checksMean`
    ///   is false, for tails whose variance is infinite);
    /// - the sample p50, p90, p99 lie between `quantile(p − δ)` and `quantile(p + δ)`,
    ///   with δ = 5·√(p(1 − p)/n), five standard errors of the empirical CDF at the
    ///   quantile: the distribution-free tolerance, valid for discrete laws too.
    ///
    /// The sample p-quantile (the smallest draw whose empirical CDF is ≥ p) lies in
    /// [low, high] exactly when fewer than p·n draws are below `low` and at least p·n are at
    /// or below `high`, so counts replace a sort, which costs more than the sampling in a
    /// debug build. A failure redraws the same seed, sorts, and reports the sample quantile.
    private func assertSamplesMatchAnalytics(
        _ distribution: Distribution,
        checksMean: Bool = true,
        seeds: [UInt64] = [1, 2, 3],
        drawCount: Int = 200_000,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(distribution.validate(), [], file: file, line: line)
        let analyticMean = distribution.mean
        if checksMean && analyticMean == nil {
            return XCTFail("no analytic mean for \(distribution)", file: file, line: line)
        }
        let probabilities = [0.5, 0.9, 0.99]
        var lows: [Double] = []
        var highs: [Double] = []
        for p in probabilities {
            let delta = 5 * (p * (1 - p) / Double(drawCount)).squareRoot()
            guard let low = distribution.quantile(p - delta), let high = distribution.quantile(p + delta) else {
                return XCTFail("no analytic quantile near \(p) for \(distribution)", file: file, line: line)
            }
            lows.append(low)
            highs.append(high)
        }
        // Plain locals in the loop below: arrays of tuples are slow in a debug build.
        let (low50, low90, low99) = (lows[0], lows[1], lows[2])
        let (high50, high90, high99) = (highs[0], highs[1], highs[2])

        for seed in seeds {
            let streamName = "test.\(distribution.kindName)"
            var rng = RandomStream(seed: seed, replication: 0, name: streamName)
            var outOfRange = 0
            var belowLow = (0, 0, 0)
            var atOrBelowHigh = (0, 0, 0)
            // Welford's running mean and sum of squared deviations: stable far from zero.
            var sampleMean = 0.0
            var squaredDeviations = 0.0
            for index in 0..<drawCount {
                let value = distribution.sample(&rng)
                if !(value.isFinite && value >= 0) { outOfRange += 1 }
                let deviation = value - sampleMean
                sampleMean += deviation / Double(index + 1)
                squaredDeviations += deviation * (value - sampleMean)
                if value < low50 { belowLow.0 += 1 }
                if value < low90 { belowLow.1 += 1 }
                if value < low99 { belowLow.2 += 1 }
                if value <= high50 { atOrBelowHigh.0 += 1 }
                if value <= high90 { atOrBelowHigh.1 += 1 }
                if value <= high99 { atOrBelowHigh.2 += 1 }
            }
            let context = "seed \(seed), \(distribution)"
            XCTAssertEqual(outOfRange, 0, "draws not finite and >= 0; \(context)", file: file, line: line)

            if checksMean, let analyticMean {
                let standardError = (squaredDeviations / Double(drawCount - 1) / Double(drawCount)).squareRoot()
                XCTAssertLessThanOrEqual(
                    abs(sampleMean - analyticMean), 5 * standardError + 1e-12 * abs(analyticMean),
                    "sample mean \(sampleMean) vs analytic \(analyticMean) (SE \(standardError)); \(context)",
                    file: file, line: line)
            }

            let below = [belowLow.0, belowLow.1, belowLow.2]
            let atOrBelow = [atOrBelowHigh.0, atOrBelowHigh.1, atOrBelowHigh.2]
            for (which, p) in probabilities.enumerated() {
                let rank = p * Double(drawCount)
                if Double(below[which]) < rank && Double(atOrBelow[which]) >= rank { continue }
                var replay = RandomStream(seed: seed, replication: 0, name: streamName)
                let sorted = (0..<drawCount).map { _ in distribution.sample(&replay) }.sorted()
                XCTFail(
                    "sample p\(p * 100) \(sorted[Int(rank.rounded(.up)) - 1]) outside [\(lows[which]), \(highs[which])] "
                        + "around analytic \(distribution.quantile(p) ?? .nan); \(context)",
                    file: file, line: line)
            }
        }
    }

    func testConstantSamples() {
        assertSamplesMatchAnalytics(.constant(12.5), seeds: [1], drawCount: 10_000)
        var rng = RandomStream(seed: 1, replication: 0, name: "constant")
        XCTAssertEqual(Distribution.constant(12.5).sample(&rng), 12.5)
    }

    func testUniformSamples() {
        assertSamplesMatchAnalytics(.uniform(min: 5, max: 20))
    }

    func testNormalSamplesWithNegligibleTruncation() {
        assertSamplesMatchAnalytics(.normal(mean: 300, stddev: 80))
    }

    func testNormalSamplesWithHeavyTruncation() {
        // Φ(−1.25) ≈ 11% of the parent normal lies below zero and is cut off.
        assertSamplesMatchAnalytics(.normal(mean: 10, stddev: 8))
    }

    func testHalfNormalSamples() {
        assertSamplesMatchAnalytics(.normal(mean: 0, stddev: 5))
    }

    func testLognormalSamples() {
        assertSamplesMatchAnalytics(.lognormal(mu: 5.7, sigma: 0.5))
        assertSamplesMatchAnalytics(.lognormal(median: 300, p99: 2_000))
    }

    func testExponentialSamples() {
        assertSamplesMatchAnalytics(.exponential(mean: 150))
    }

    func testGammaSamples() {
        assertSamplesMatchAnalytics(.gamma(shape: 2.5, scale: 40))
        assertSamplesMatchAnalytics(.gamma(shape: 1, scale: 50))
        assertSamplesMatchAnalytics(.gamma(shape: 40, scale: 3), seeds: [1])
    }

    func testGammaSamplesWithShapeBelowOneUseTheBoost() {
        assertSamplesMatchAnalytics(.gamma(shape: 0.3, scale: 100))
    }

    func testParetoSamples() {
        // Shape 5: finite variance, so the standard error of the mean is meaningful.
        assertSamplesMatchAnalytics(.pareto(scale: 20, shape: 5))
        // Shape 1.5: finite mean but infinite variance; only the quantiles are checkable.
        assertSamplesMatchAnalytics(.pareto(scale: 20, shape: 1.5), checksMean: false)
    }

    func testEmpiricalSamples() {
        assertSamplesMatchAnalytics(.empirical(samples: [21, 3, 5, 5, 8, 13, 34, 55, 89, 144]))
    }

    func testQuantileTableSamples() {
        // The flat run from p 0.5 to 0.8 is an atom: 30% of the draws are exactly 40.
        assertSamplesMatchAnalytics(.quantileTable(Self.tableWithAtom))
    }

    func testMixtureSamples() {
        assertSamplesMatchAnalytics(Self.cloudLatency)
    }

    func testNestedMixtureSamples() {
        let nested = Distribution.mixture([
            MixtureComponent(weight: 2, distribution: Self.cloudLatency),
            MixtureComponent(weight: 1, distribution: .gamma(shape: 0.8, scale: 60)),
            MixtureComponent(weight: 1, distribution: .empirical(samples: [1, 2, 3])),
        ])
        assertSamplesMatchAnalytics(nested, seeds: [1, 2])
    }

    /// A network round trip: mostly lognormal, some fast cache hits, a few timeouts.
    private static let cloudLatency = Distribution.mixture([
        MixtureComponent(weight: 0.7, distribution: .lognormal(median: 300, p99: 1_200)),
        MixtureComponent(weight: 0.25, distribution: .normal(mean: 80, stddev: 20)),
        MixtureComponent(weight: 0.05, distribution: .constant(5_000)),
    ])

    private static let tableWithAtom: [QuantilePoint] = [
        QuantilePoint(p: 0, value: 10),
        QuantilePoint(p: 0.5, value: 40),
        QuantilePoint(p: 0.8, value: 40),
        QuantilePoint(p: 0.95, value: 120),
        QuantilePoint(p: 1, value: 400),
    ]

    // MARK: Analytics against reference values (scipy / mpmath)

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

    // MARK: Sampling edge cases

    func testExtremeTailsAreClampedToFiniteValues() {
        var rng = RandomStream(seed: 1, replication: 0, name: "tails")
        let heavy: [Distribution] = [
            .pareto(scale: 1, shape: 0.01), .lognormal(mu: 0, sigma: 300),
            .gamma(shape: 0.001, scale: 1), .exponential(mean: 1e300),
        ]
        for distribution in heavy {
            for _ in 0..<2_000 {
                let value = distribution.sample(&rng)
                XCTAssertTrue(value.isFinite && value >= 0, "\(value) from \(distribution)")
                let duration = distribution.sampleDuration(&rng)
                XCTAssertTrue(duration >= .zero && duration.nanoseconds <= SimDuration.maxNanoseconds)
            }
        }
    }

    func testSampleDurationRoundsToTheNearestNanosecond() {
        var rng = RandomStream(seed: 1, replication: 0, name: "duration")
        XCTAssertEqual(Distribution.constant(1.5).sampleDuration(&rng), SimDuration(nanoseconds: 1_500_000))
        XCTAssertEqual(Distribution.constant(0.0000004).sampleDuration(&rng), .zero)
        XCTAssertEqual(Distribution.constant(0.0000006).sampleDuration(&rng), SimDuration(nanoseconds: 1))
    }

    func testSamplingIsDeterministicForAGivenStream() {
        let distributions: [Distribution] = [
            Self.cloudLatency, .gamma(shape: 0.3, scale: 100), .gamma(shape: 3, scale: 1),
            .normal(mean: 10, stddev: 8), .empirical(samples: [1, 2, 3]),
        ]
        for distribution in distributions {
            var a = RandomStream(seed: 77, replication: 4, name: "determinism")
            var b = RandomStream(seed: 77, replication: 4, name: "determinism")
            let first = (0..<500).map { _ in distribution.sample(&a) }
            let second = (0..<500).map { _ in distribution.sample(&b) }
            XCTAssertEqual(first, second, "\(distribution)")
        }
    }

    func testSingleDrawCasesConsumeExactlyOneDraw() {
        // Inverse-CDF sampling keeps streams aligned: sweeping a parameter moves each draw
        // monotonically instead of reshuffling which draw feeds which event.
        let slow = Distribution.normal(mean: 300, stddev: 80)
        let fast = Distribution.normal(mean: 200, stddev: 80)
        var slowRng = RandomStream(seed: 3, replication: 0, name: "sweep")
        var fastRng = slowRng
        for _ in 0..<1_000 {
            XCTAssertGreaterThan(slow.sample(&slowRng), fast.sample(&fastRng))
        }
        let oneDrawKinds: [Distribution] = [
            .uniform(min: 1, max: 2), .normal(mean: 5, stddev: 1), .lognormal(mu: 1, sigma: 1),
            .exponential(mean: 3), .pareto(scale: 1, shape: 2), .empirical(samples: [1, 2]),
            .quantileTable(Self.tableWithAtom),
        ]
        for distribution in oneDrawKinds {
            var rng = RandomStream(seed: 4, replication: 0, name: "draws")
            var reference = rng
            _ = distribution.sample(&rng)
            _ = reference.nextUInt64()
            XCTAssertEqual(rng.nextUInt64(), reference.nextUInt64(), "\(distribution)")
        }
    }

    func testKindNames() {
        let names = [
            Distribution.constant(1), .uniform(min: 0, max: 1), .normal(mean: 1, stddev: 1),
            .lognormal(mu: 0, sigma: 1), .exponential(mean: 1), .gamma(shape: 1, scale: 1),
            .pareto(scale: 1, shape: 2), .empirical(samples: [1]), .quantileTable(Self.tableWithAtom),
            .mixture([MixtureComponent(weight: 1, distribution: .constant(1))]),
        ].map(\.kindName)
        XCTAssertEqual(names, [
            "constant", "uniform", "normal", "lognormal", "exponential", "gamma", "pareto",
            "empirical", "quantileTable", "mixture",
        ])
    }

    // MARK: Validation

    private func problems(_ distribution: Distribution) -> [String] {
        distribution.validate().map(\.description)
    }

    func testValidDistributionsHaveNoProblems() {
        let valid: [Distribution] = [
            .constant(0), .uniform(min: 3, max: 3), .normal(mean: 0, stddev: 1),
            .lognormal(mu: -2, sigma: 0.1), .exponential(mean: 1), .gamma(shape: 1e6, scale: 1),
            .pareto(scale: 1, shape: 0.5), .empirical(samples: [0]), .quantileTable(Self.tableWithAtom),
            Self.cloudLatency,
        ]
        for distribution in valid {
            XCTAssertEqual(distribution.validate(), [], "\(distribution)")
        }
    }

    func testValidateCatchesBadScalarParameters() {
        XCTAssertEqual(problems(.constant(-1)), ["value: must be >= 0"])
        XCTAssertEqual(problems(.constant(.nan)), ["value: must be finite"])
        XCTAssertEqual(problems(.uniform(min: 10, max: 5)), ["max: must be >= min"])
        XCTAssertEqual(problems(.uniform(min: -1, max: .infinity)), ["min: must be >= 0", "max: must be finite"])
        XCTAssertEqual(problems(.normal(mean: 100, stddev: 0)), ["stddev: must be > 0"])
        XCTAssertEqual(problems(.normal(mean: -5, stddev: .nan)), ["mean: must be >= 0", "stddev: must be finite"])
        XCTAssertEqual(problems(.lognormal(mu: .infinity, sigma: -1)), ["mu: must be finite", "sigma: must be > 0"])
        XCTAssertEqual(problems(.exponential(mean: 0)), ["mean: must be > 0"])
        XCTAssertEqual(problems(.gamma(shape: 0, scale: -1)), ["shape: must be > 0", "scale: must be > 0"])
        XCTAssertEqual(problems(.gamma(shape: 2e6, scale: 1)), ["shape: must be <= 1e6 (use normal for a nearly constant value)"])
        XCTAssertEqual(problems(.pareto(scale: 0, shape: .nan)), ["scale: must be > 0", "shape: must be finite"])
    }

    func testValidateCatchesBadSamples() {
        XCTAssertEqual(problems(.empirical(samples: [])), ["samples: must not be empty"])
        XCTAssertEqual(problems(.empirical(samples: [1, -2, .nan, 3])), ["samples[1]: must be finite and >= 0 (1 more samples are not)"])
        XCTAssertEqual(problems(.empirical(samples: [1, .infinity])), ["samples[1]: must be finite and >= 0"])
    }

    func testValidateCatchesBadQuantileTables() {
        func table(_ points: [(Double, Double)]) -> Distribution {
            .quantileTable(points.map { QuantilePoint(p: $0.0, value: $0.1) })
        }
        XCTAssertEqual(problems(table([(0, 1)])), ["points: needs at least 2 points (p = 0 and p = 1)"])
        XCTAssertEqual(problems(table([(0.1, 1), (1, 2)])), ["points[0].p: must be 0"])
        XCTAssertEqual(problems(table([(0, 1), (0.99, 2)])), ["points[1].p: must be 1"])
        XCTAssertEqual(problems(table([(0, 1), (0.5, 2), (0.5, 3), (1, 4)])), ["points[2].p: must be > points[1].p"])
        XCTAssertEqual(problems(table([(0, 1), (0.6, 2), (0.4, 3), (1, 4)])), ["points[2].p: must be > points[1].p"])
        XCTAssertEqual(problems(table([(0, 1), (0.5, 5), (1, 4)])), ["points[2].value: must be >= points[1].value"])
        XCTAssertEqual(problems(table([(0, -1), (1.5, .nan)])), [
            "points[0].value: must be >= 0", "points[1].p: must be in [0, 1]", "points[1].value: must be finite",
        ])
    }

    func testValidateCatchesBadMixturesWithFieldPaths() {
        XCTAssertEqual(problems(.mixture([])), ["components: must not be empty"])
        XCTAssertEqual(problems(.mixture([
            MixtureComponent(weight: 1, distribution: .constant(1)),
            MixtureComponent(weight: 2, distribution: .lognormal(mu: 1, sigma: 0)),
        ])), ["components[1].distribution.sigma: must be > 0"])
        XCTAssertEqual(problems(.mixture([
            MixtureComponent(weight: 0, distribution: .mixture([
                MixtureComponent(weight: 1, distribution: .constant(1)),
                MixtureComponent(weight: -1, distribution: .uniform(min: 2, max: 1)),
            ])),
        ])), [
            "components[0].weight: must be > 0",
            "components[0].distribution.components[1].weight: must be > 0",
            "components[0].distribution.components[1].distribution.max: must be >= min",
        ])
    }

    func testValidateLognormalNamesTheInputsTheUserWrote() {
        XCTAssertEqual(Distribution.validateLognormal(median: 300, p99: 2_000), [])
        XCTAssertEqual(Distribution.validateLognormal(median: 300, p99: 300).map(\.description), ["p99: must be > median"])
        XCTAssertEqual(Distribution.validateLognormal(median: 300, p99: 100).map(\.description), ["p99: must be > median"])
        XCTAssertEqual(Distribution.validateLognormal(median: 0, p99: 100).map(\.description), ["median: must be finite and > 0"])
        XCTAssertEqual(Distribution.validateLognormal(median: 1, p99: .nan).map(\.description), ["p99: must be finite"])
        // Whatever the inputs, the built distribution is rejected too (sigma ≤ 0 or not finite).
        XCTAssertFalse(Distribution.lognormal(median: 300, p99: 300).validate().isEmpty)
        XCTAssertFalse(Distribution.lognormal(median: 300, p99: 100).validate().isEmpty)
        XCTAssertFalse(Distribution.lognormal(median: 0, p99: 100).validate().isEmpty)
        XCTAssertFalse(Distribution.lognormal(median: -1, p99: 100).validate().isEmpty)
    }
}
