import Foundation
@testable import Scenarios
import Sim
import XCTest

/// Fits that recover the parameters of seeded samples, censored fits on histograms, and
/// the choice between fits. Tolerances are stated per test, in units of the estimator's
/// spread where that is known.
final class CostFitterTests: XCTestCase {
    private func samples(_ distribution: Distribution, _ n: Int, seed: UInt64) -> [Double] {
        var rng = RandomStream(seed: seed, replication: 0, name: "calibration-test")
        return (0..<n).map { _ in distribution.sample(&rng) }
    }

    private func series(_ values: [Double]) -> MeasuredSeries {
        var series = MeasuredSeries(name: "test")
        series.samplesMs = values
        return series
    }

    /// Bins `values` into buckets with the given edges; the last edge is +∞'s stand-in.
    private func histogram(_ values: [Double], edges: [Double]) -> MeasuredSeries {
        var series = MeasuredSeries(name: "test")
        for i in 0..<(edges.count - 1) {
            let count = values.filter { $0 >= edges[i] && $0 < edges[i + 1] }.count
            series.buckets.append(CostBucket(lowerMs: edges[i], upperMs: edges[i + 1], count: count))
        }
        return series
    }

    /// Lognormal μ and σ from 2000 draws: the MLE's standard errors are σ/√n ≈ 0.01 and
    /// σ/√(2n) ≈ 0.007; the tolerance is 0.04 for both.
    func testLognormalRecoversItsParametersOverSeeds() throws {
        for seed in UInt64(1)...5 {
            let data = series(samples(.lognormal(mu: 1.2, sigma: 0.45), 2000, seed: seed))
            let fit = try XCTUnwrap(CostFitter().fit(data, family: .lognormal))
            guard case .lognormal(let mu, let sigma) = fit.distribution else { return XCTFail("\(fit.distribution)") }
            XCTAssertEqual(mu, 1.2, accuracy: 0.04, "seed \(seed)")
            XCTAssertEqual(sigma, 0.45, accuracy: 0.04, "seed \(seed)")
            XCTAssertLessThan(fit.ksStatistic, CostFitter().ksLimit(count: 2000), "seed \(seed)")
        }
    }

    /// Gamma shape and scale within 12% from 2000 draws (the shape's relative standard
    /// error is about 3% at shape 3).
    func testGammaRecoversItsParametersOverSeeds() throws {
        for seed in UInt64(1)...5 {
            let data = series(samples(.gamma(shape: 3, scale: 1.5), 2000, seed: seed))
            let fit = try XCTUnwrap(CostFitter().fit(data, family: .gamma))
            guard case .gamma(let shape, let scale) = fit.distribution else { return XCTFail("\(fit.distribution)") }
            XCTAssertEqual(shape, 3, accuracy: 0.36, "seed \(seed)")
            XCTAssertEqual(scale, 1.5, accuracy: 0.18, "seed \(seed)")
            XCTAssertEqual(shape * scale, 4.5, accuracy: 0.15, "seed \(seed)")
        }
    }

    /// Weibull shape within 8% and scale within 4% from 2000 draws.
    func testWeibullRecoversItsParametersOverSeeds() throws {
        for seed in UInt64(1)...5 {
            let data = series(samples(.weibull(shape: 1.8, scale: 22), 2000, seed: seed))
            let fit = try XCTUnwrap(CostFitter().fit(data, family: .weibull))
            guard case .weibull(let shape, let scale) = fit.distribution else { return XCTFail("\(fit.distribution)") }
            XCTAssertEqual(shape, 1.8, accuracy: 0.144, "seed \(seed)")
            XCTAssertEqual(scale, 22, accuracy: 0.88, "seed \(seed)")
        }
    }

    /// A cost with a plain minimum (2 ms plus a gamma excess): a shifted family wins, the
    /// shift is found within 0.3 ms, the median within 5% and the 99th percentile within 10%
    /// (the sample's own 99th percentile varies by about 4% at n = 2000).
    func testShiftedFitsFindAPlainMinimumOverSeeds() throws {
        let truth = Distribution.shifted(offset: 2, base: .gamma(shape: 2, scale: 0.5))
        for seed in UInt64(1)...4 {
            let data = series(samples(truth, 2000, seed: seed))
            XCTAssertTrue(CostFitter().minimumIsPlain(MeasuredCDF(data)))
            let calibration = try XCTUnwrap(CostCalibration.calibrate(data, target: .work(.key), kind: nil))
            XCTAssertTrue(calibration.chosen.family.isShifted, "seed \(seed): \(calibration.chosen.family)")
            let fit = try XCTUnwrap(calibration.fits.first { $0.family == .shiftedGamma })
            guard case .shifted(let shift, _) = fit.distribution else { return XCTFail("\(fit.distribution)") }
            XCTAssertEqual(shift, 2, accuracy: 0.3, "seed \(seed)")
            for (p, tolerance) in [(0.5, 0.05), (0.99, 0.1)] {
                let expected = try XCTUnwrap(truth.quantile(p))
                XCTAssertEqual(try XCTUnwrap(calibration.chosen.distribution.quantile(p)), expected, accuracy: tolerance * expected, "seed \(seed) p \(p)")
            }
        }
        // Costs that start near zero get no shifted fits.
        let nearZero = series(samples(.gamma(shape: 1.2, scale: 2), 500, seed: 1))
        XCTAssertFalse(CostFitter().minimumIsPlain(MeasuredCDF(nearZero)))
        XCTAssertNil(CostFitter().fit(nearZero, family: .shiftedWeibull))
    }

    /// A fine histogram (1 ms buckets to 20 ms, then one to 100 ms) of 5000 gamma draws:
    /// the censored fit recovers shape and scale within 10%, like the fit to the raw draws.
    func testCensoredFitsOnFineHistogramsRecoverParametersOverSeeds() throws {
        let edges = (0...20).map(Double.init) + [100]
        for seed in UInt64(1)...3 {
            let values = samples(.gamma(shape: 3, scale: 1.5), 5000, seed: seed)
            let data = histogram(values, edges: edges)
            XCTAssertTrue(data.isCensored)
            let fit = try XCTUnwrap(CostFitter().fit(data, family: .gamma))
            guard case .gamma(let shape, let scale) = fit.distribution else { return XCTFail("\(fit.distribution)") }
            XCTAssertEqual(shape, 3, accuracy: 0.3, "seed \(seed)")
            XCTAssertEqual(scale, 1.5, accuracy: 0.15, "seed \(seed)")
            XCTAssertLessThan(fit.ksStatistic, 0.03, "seed \(seed)")
        }
    }

    /// MetricKit-like coarse buckets (0–2–4–8–16–64 ms) of 3000 lognormal draws: the
    /// censored fit still recovers μ and σ within 0.08, where fitting the bucket midpoints
    /// as if they were the values would not.
    func testCensoredFitsOnCoarseHistogramsBeatMidpointsOverSeeds() throws {
        let edges: [Double] = [0, 2, 4, 8, 16, 64]
        for seed in UInt64(1)...3 {
            let values = samples(.lognormal(mu: log(5), sigma: 0.6), 3000, seed: seed)
            let data = histogram(values, edges: edges)
            let fit = try XCTUnwrap(CostFitter().fit(data, family: .lognormal))
            guard case .lognormal(let mu, let sigma) = fit.distribution else { return XCTFail("\(fit.distribution)") }
            XCTAssertEqual(mu, log(5), accuracy: 0.08, "seed \(seed)")
            XCTAssertEqual(sigma, 0.6, accuracy: 0.08, "seed \(seed)")
            // The naive fit to midpoints is off by more than the censored one.
            var midpoints = MeasuredSeries(name: "mid")
            for bucket in data.buckets {
                midpoints.samplesMs += Array(repeating: 0.5 * (bucket.lowerMs + bucket.upperMs), count: bucket.count)
            }
            let naive = try XCTUnwrap(CostFitter().fit(midpoints, family: .lognormal))
            guard case .lognormal(_, let naiveSigma) = naive.distribution else { return XCTFail() }
            XCTAssertGreaterThan(abs(naiveSigma - 0.6), abs(sigma - 0.6), "seed \(seed)")
        }
    }

    /// A histogram that no family fits (two far-apart modes): the quantile table is chosen
    /// and the calibration is flagged; its table reproduces the bucket edges.
    func testNoAcceptableFitWritesTheQuantileTable() throws {
        var data = MeasuredSeries(name: "bimodal")
        data.buckets = [
            CostBucket(lowerMs: 1, upperMs: 2, count: 500), CostBucket(lowerMs: 2, upperMs: 20, count: 0),
            CostBucket(lowerMs: 20, upperMs: 22, count: 500),
        ]
        let calibration = try XCTUnwrap(CostCalibration.calibrate(data, target: .work(.rerank), kind: nil))
        XCTAssertTrue(calibration.noAcceptableFit)
        XCTAssertEqual(calibration.chosen.family, .quantiles)
        XCTAssertEqual(calibration.chosen.distribution, .quantileTable([
            QuantilePoint(p: 0, value: 1), QuantilePoint(p: 0.5, value: 2), QuantilePoint(p: 0.500001, value: 20),
            QuantilePoint(p: 1, value: 22),
        ]))
        XCTAssertEqual(calibration.chosen.ksStatistic, 0, accuracy: 1e-5)
        XCTAssertFalse(calibration.fits.isEmpty)
        // Forcing a family writes it even when it is not acceptable.
        let forced = try XCTUnwrap(CostCalibration.calibrate(data, target: .work(.rerank), kind: .weibull))
        XCTAssertEqual(forced.chosen.family, .weibull)
        XCTAssertTrue(forced.forced)
    }

    /// The automatic choice among acceptable fits is the lowest AIC.
    func testTheChoiceIsTheLowestAICAmongAcceptableFits() throws {
        let data = series(samples(.weibull(shape: 3.5, scale: 10), 2000, seed: 11))
        let calibration = try XCTUnwrap(CostCalibration.calibrate(data, target: .work(.draw), kind: nil))
        let acceptable = calibration.fits.filter { $0.ksStatistic <= calibration.ksLimit }
        XCTAssertFalse(calibration.noAcceptableFit)
        XCTAssertEqual(calibration.chosen.aic, acceptable.compactMap(\.aic).min())
        XCTAssertTrue([FitFamily.weibull, .shiftedWeibull].contains(calibration.chosen.family), "\(calibration.chosen.family)")
        // Empirical keeps the values; the table has the percentiles.
        let empirical = try XCTUnwrap(CostFitter().fit(data, family: .empirical))
        XCTAssertEqual(empirical.distribution, .empirical(samples: data.samplesMs.sorted()))
        guard case .quantileTable(let points) = try XCTUnwrap(CostFitter().fit(data, family: .quantiles)).distribution else { return XCTFail() }
        XCTAssertEqual(points.count, 103)
        XCTAssertEqual(points.first?.value, data.samplesMs.min())
        XCTAssertEqual(points.last?.value, data.samplesMs.max())
    }

    func testTooFewOrEqualDurationsAreNotFitted() {
        XCTAssertNil(CostCalibration.calibrate(series([1, 2, 3]), target: .work(.key), kind: nil))
        XCTAssertNil(CostCalibration.calibrate(series(Array(repeating: 2, count: 50)), target: .work(.key), kind: nil))
        let run = CalibrationRun(readings: [CostReading(file: "a.csv", format: .csv, series: [series([1, 2])].map { var s = $0; s.name = "key"; return s })],
                                 mapping: NameMapping(), kind: nil)
        XCTAssertTrue(run.calibrations.isEmpty)
        XCTAssertEqual(run.skipped.map(\.reason), ["only 2 duration(s); a fit needs at least 5"])
    }
}
