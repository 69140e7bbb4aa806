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
    static let cloudLatency = Distribution.mixture([
        MixtureComponent(weight: 0.7, distribution: .lognormal(median: 300, p99: 1_200)),
        MixtureComponent(weight: 0.25, distribution: .normal(mean: 80, stddev: 20)),
        MixtureComponent(weight: 0.05, distribution: .constant(5_000)),
    ])

    /// A quantile table with an atom (two points at one value).
    static let tableWithAtom: [QuantilePoint] = [
        QuantilePoint(p: 0, value: 10),
        QuantilePoint(p: 0.5, value: 40),
        QuantilePoint(p: 0.8, value: 40),
        QuantilePoint(p: 0.95, value: 120),
        QuantilePoint(p: 1, value: 400),
    ]

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
}
