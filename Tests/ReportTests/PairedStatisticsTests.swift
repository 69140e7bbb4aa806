import Foundation
import XCTest

@testable import Report
import Sim

/// The statistics comparisons are decided with: the paired difference, Holm's step-down,
/// Bonferroni intervals and the one-sided bound. Reference values are SciPy 1.17's
/// (`scipy.stats.t`, `ttest_1samp`).
final class PairedStatisticsTests: XCTestCase {
    func testPairedDifferenceMatchesSciPy() throws {
        // ttest_1samp([1, 2, 3, 4, 5], 0): t = 4.242640687119285, p = 0.01323559956368269.
        let d = PairedDifference(baseline: [10, 10, 10, 10, 10], candidate: [11, 12, 13, 14, 15])
        XCTAssertEqual(d.pairs, 5)
        XCTAssertEqual(d.mean, 3)
        XCTAssertEqual(try XCTUnwrap(d.tStatistic), 4.242640687119285, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(d.pValue), 0.01323559956368269, accuracy: 1e-9)
        // The 95 % interval is the one MeanInterval stores, to the bit.
        let interval = try XCTUnwrap(d.interval(confidence: 0.95))
        let stored = MeanInterval([1, 2, 3, 4, 5])
        XCTAssertEqual(interval.lowerBound, stored.mean - stored.halfWidth, accuracy: 1e-12)
        XCTAssertEqual(interval.upperBound, stored.mean + stored.halfWidth, accuracy: 1e-12)

        // ttest_1samp([0.3, -0.1, 0.5, 0.2, 0.4, 0.1, 0.6, 0.0], 0).pvalue = 0.023424636054437478.
        let e = PairedDifference(differences: [0.3, -0.1, 0.5, 0.2, 0.4, 0.1, 0.6, 0.0])
        XCTAssertEqual(try XCTUnwrap(e.pValue), 0.023424636054437478, accuracy: 1e-9)
        // A tiny p-value keeps its relative precision: 2·sf(40, 3) = 3.4380680789158506e-05.
        XCTAssertEqual(StudentT.twoSidedPValue(40, degreesOfFreedom: 3), 3.4380680789158506e-05, accuracy: 1e-12)
        XCTAssertEqual(StudentT.twoSidedPValue(-40, degreesOfFreedom: 3), 3.4380680789158506e-05, accuracy: 1e-12)
        // ttest_1samp([100, 101, 99, 100.5, 100.2], 0).pvalue = 7.166553829655461e-10.
        let far = PairedDifference(differences: [100, 101, 99, 100.5, 100.2])
        XCTAssertEqual(try XCTUnwrap(far.pValue) / 7.166553829655461e-10, 1, accuracy: 1e-6)
        XCTAssertEqual(StudentT.twoSidedPValue(0, degreesOfFreedom: 7), 1)
    }

    func testDifferencesThatDoNotVaryAreCertainAndOnePairHasNoTest() {
        XCTAssertEqual(PairedDifference(differences: [0, 0, 0]).pValue, 1)
        XCTAssertEqual(PairedDifference(differences: [0.5, 0.5, 0.5]).pValue, 0)
        XCTAssertNil(PairedDifference(differences: [0.5, 0.5, 0.5]).tStatistic)
        XCTAssertEqual(PairedDifference(differences: [0.5, 0.5]).interval(confidence: 0.99), 0.5...0.5)
        XCTAssertNil(PairedDifference(differences: [2]).pValue)
        XCTAssertNil(PairedDifference(differences: [2]).interval(confidence: 0.95))
        XCTAssertNil(PairedDifference(differences: []).pValue)
    }

    func testHolmAdjustsAndStepsDownLikeTheTextbook() {
        // p = 0.01, 0.04, 0.03, 0.005: sorted 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06,
        // 0.04·1 = 0.04 → 0.06 (monotone). At 5 % the first two reject and the step-down stops.
        let adjusted = MultipleComparisons.holmAdjusted([0.01, 0.04, 0.03, 0.005])
        let expected = [0.03, 0.06, 0.06, 0.02]
        for (a, e) in zip(adjusted, expected) { XCTAssertEqual(a!, e, accuracy: 1e-15) }
        XCTAssertEqual(MultipleComparisons.holmRejects([0.01, 0.04, 0.03, 0.005], alpha: 0.05), [true, false, false, true])
        // Holm rejects what Bonferroni rejects (p ≤ α/m), and here one more: 0.02 ≤ 0.05/2.
        XCTAssertEqual(MultipleComparisons.holmRejects([0.011, 0.02, 0.5], alpha: 0.05), [true, true, false])
        // Untested comparisons stay out of m; one test is not corrected; ties keep their order.
        let partial = MultipleComparisons.holmAdjusted([nil, 0.02, nil, 0.04])
        XCTAssertNil(partial[0])
        XCTAssertEqual(partial[1]!, 0.04, accuracy: 1e-15)
        XCTAssertEqual(partial[3]!, 0.04, accuracy: 1e-15)
        XCTAssertEqual(MultipleComparisons.holmAdjusted([0.03]), [0.03])
        XCTAssertEqual(MultipleComparisons.holmAdjusted([0.6, 0.6]), [1, 1])
        XCTAssertEqual(MultipleComparisons.holmRejects([nil, 0.001], alpha: 0.05), [false, true])
    }

    func testBonferroniIntervalsWidenByTheQuantileRatio() throws {
        XCTAssertEqual(MultipleComparisons.bonferroniConfidence(family: 0.95, comparisons: 1), 0.95)
        XCTAssertEqual(MultipleComparisons.bonferroniConfidence(family: 0.95, comparisons: 4), 0.9875, accuracy: 1e-15)
        let differences = [PairedDifference(differences: [0.3, -0.1, 0.5, 0.2, 0.4, 0.1, 0.6, 0.0]),
                           PairedDifference(differences: [1, 2, 3, 4, 5, 6, 7, 8]),
                           PairedDifference(differences: [3])]
        let intervals = MultipleComparisons.bonferroniIntervals(differences, familyConfidence: 0.95)
        XCTAssertNil(intervals[2], "one pair has no interval and does not count in m")
        // Two comparisons: each at 97.5 %, t(0.9875, 7) = 2.841... (SciPy: half-width 0.24605896976338193).
        let first = try XCTUnwrap(intervals[0])
        XCTAssertEqual((first.upperBound - first.lowerBound) / 2, 0.24605896976338193, accuracy: 1e-8)
        let plain = try XCTUnwrap(differences[1].interval(confidence: 0.95))
        let wide = try XCTUnwrap(intervals[1])
        let ratio = (wide.upperBound - wide.lowerBound) / (plain.upperBound - plain.lowerBound)
        XCTAssertEqual(ratio, StudentT.quantile(0.9875, degreesOfFreedom: 7) / StudentT.quantile975(degreesOfFreedom: 7), accuracy: 1e-9)
        XCTAssertEqual(MultipleComparisons.bonferroniIntervals([differences[2]], familyConfidence: 0.95), [nil])
    }

    func testOneSidedBoundsMatchSciPy() throws {
        // [3, 5, 4, 6, 7, 5]: mean 5, s = √2; upper 95 %: 5 + t(0.95, 5)·s/√6 = 6.163388720773939;
        // lower 99 %: 3.0572567593266706.
        let sample = SampleMean([3, 5, 4, 6, 7, 5])
        XCTAssertEqual(sample.mean, 5)
        XCTAssertEqual(sample.standardDeviation, 2.0.squareRoot(), accuracy: 1e-15)
        XCTAssertEqual(try XCTUnwrap(sample.upperBound(confidence: 0.95)), 6.163388720773939, accuracy: 1e-8)
        XCTAssertEqual(try XCTUnwrap(sample.lowerBound(confidence: 0.99)), 3.0572567593266706, accuracy: 1e-8)
        // A one-sided 95 % bound is the upper end of the two-sided 90 % interval.
        XCTAssertEqual(try XCTUnwrap(sample.upperBound(confidence: 0.95)), try XCTUnwrap(sample.interval(confidence: 0.9)).upperBound, accuracy: 1e-12)
        XCTAssertNil(SampleMean([4]).upperBound(confidence: 0.95))
        XCTAssertEqual(SampleMean([4, 4, 4]).upperBound(confidence: 0.95), 4)
    }

    /// Normal deviates by Box–Muller from a named stream.
    private func normals(_ stream: inout RandomStream, _ count: Int, mean: Double, sd: Double) -> [Double] {
        (0..<count).map { _ in
            let u = stream.nextOpenUnit(), v = stream.nextOpenUnit()
            return mean + sd * (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
        }
    }

    func testCoverageOfTheBoundAndTheSimultaneousIntervalsInASeedLoop() {
        // 2000 families of three comparisons (8 pairs each) whose true differences are
        // 0, 0.5 and −1: the one-sided 95 % bound holds the true mean about 95 % of the time,
        // the three Bonferroni intervals all hold theirs at least 95 % of the time, and Holm
        // wrongly rejects the true null at most 5 % of the time (binomial slack: 3 sd).
        let truth = [0.0, 0.5, -1.0]
        var boundHeld = 0, allCovered = 0, falseRejections = 0
        let families = 2000
        for seed in 0..<families {
            var stream = RandomStream(seed: UInt64(seed), replication: 0, name: "statistics-test")
            let differences = truth.map { PairedDifference(differences: normals(&stream, 8, mean: $0, sd: 1)) }
            if differences[0].differences.upperBound(confidence: 0.95)! >= truth[0] { boundHeld += 1 }
            let intervals = MultipleComparisons.bonferroniIntervals(differences, familyConfidence: 0.95)
            if zip(intervals, truth).allSatisfy({ $0!.contains($1) }) { allCovered += 1 }
            if MultipleComparisons.holmRejects(differences.map(\.pValue), alpha: 0.05)[0] { falseRejections += 1 }
        }
        let slack = 3 * (0.05 * 0.95 / Double(families)).squareRoot() * Double(families)
        XCTAssertEqual(Double(boundHeld), 0.95 * Double(families), accuracy: slack)
        XCTAssertGreaterThanOrEqual(Double(allCovered), 0.95 * Double(families) - slack)
        XCTAssertLessThanOrEqual(Double(falseRejections), 0.05 * Double(families) + slack)
    }
}
