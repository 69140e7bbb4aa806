import Foundation
import Sim

/// Fits distributions to measured durations by maximum likelihood and judges them with the
/// Kolmogorov–Smirnov statistic.
///
/// - Individual durations: closed-form or one-dimensional likelihood equations (lognormal:
///   the mean and deviation of the logarithms; gamma: Newton on the shape; Weibull:
///   bisection on the shape).
/// - Bucketed durations (MetricKit histograms) are interval-censored: the likelihood is the
///   product of the fitted probabilities of the buckets, Π (F(upper) − F(lower))^count,
///   maximised by Nelder–Mead from the fit to the bucket midpoints.
/// - Shifted families are tried only when a minimum is plain in the data: the least
///   duration is positive and at least `shiftShareMin` of the median. The shift is the best
///   (largest likelihood) of 31 values k/32 of that least duration, k = 1…31, so that it
///   stays below every measured value; for more than `shiftProbeMax` durations the search
///   uses that many evenly spaced order statistics.
///
/// The criterion: a fit is acceptable when its KS statistic D is at most
/// max(1.628 / √n, `ksFloor`) — the 1% critical value of the Kolmogorov distribution, or a
/// gap of `ksFloor` in share, whichever is larger (with thousands of samples every real cost
/// differs from every textbook family by more than sampling noise, yet by less than a point
/// of percentile matters for a budget). Among acceptable fits the lowest AIC wins; when no
/// fit is acceptable the quantile table is chosen and the calibration says so.
public struct CostFitter: Sendable {
    /// The share of a KS gap accepted whatever the sample count.
    public var ksFloor: Double
    /// How far above zero the least duration must be, as a share of the median, for the
    /// shifted families to be tried.
    public var shiftShareMin: Double

    /// c(α) of the Kolmogorov distribution at α = 0.01.
    public static let ksCoefficient = 1.628
    /// The number of durations a fit needs.
    public static let samplesMin = 5
    /// Individual durations the search for a shift looks at, at most.
    public static let shiftProbeMax = 1_000
    /// Individual durations written into an empirical distribution at most.
    public static let empiricalSamplesMax = 100_000

    /// Creates a fitter with the documented defaults: KS floor 0.03, shifts tried when the
    /// least duration is at least 10% of the median.
    public init(ksFloor: Double = 0.03, shiftShareMin: Double = 0.1) {
        self.ksFloor = ksFloor
        self.shiftShareMin = shiftShareMin
    }

    /// The largest acceptable KS statistic for `count` durations.
    public func ksLimit(count: Int) -> Double {
        Swift.max(Self.ksCoefficient / Double(count).squareRoot(), ksFloor)
    }

    /// Whether the shifted families apply to `cdf`: a positive least duration that is at
    /// least `shiftShareMin` of the median.
    public func minimumIsPlain(_ cdf: MeasuredCDF) -> Bool {
        let least = cdf.minimumMs
        return least > 0 && least >= shiftShareMin * cdf.quantile(0.5)
    }

    /// The fit of one family; `nil` for a shifted family when no minimum is plain, for
    /// `.empirical` with bucketed durations, and when the data are too few or all equal.
    public func fit(_ series: MeasuredSeries, family: FitFamily) -> DistributionFit? {
        let cdf = MeasuredCDF(series)
        let data = FitData(cdf)
        guard data.total >= Double(Self.samplesMin), cdf.maximumMs > cdf.minimumMs else { return nil }
        switch family {
        case .empirical:
            guard cdf.buckets.isEmpty, cdf.sortedSamplesMs.count <= Self.empiricalSamplesMax else { return nil }
            let distribution = Distribution.empirical(samples: cdf.sortedSamplesMs)
            return DistributionFit(family: .empirical, distribution: distribution, logLikelihood: nil,
                                   ksStatistic: ks(distribution, cdf))
        case .quantiles:
            let distribution = Distribution.quantileTable(cdf.quantileTable())
            return DistributionFit(family: .quantiles, distribution: distribution, logLikelihood: nil,
                                   ksStatistic: ks(distribution, cdf))
        default:
            break
        }
        let best: (distribution: Distribution, logLikelihood: Double)?
        if family.isShifted {
            guard minimumIsPlain(cdf) else { return nil }
            let least = cdf.minimumMs
            // The shift is searched on at most `shiftProbeMax` evenly spaced order statistics
            // (all of them for smaller samples), then the family is fitted to all the data.
            let probe = data.thinned(to: Self.shiftProbeMax)
            var bestShift: (shift: Double, logLikelihood: Double)?
            for k in 1...31 {
                let shift = least * Double(k) / 32
                guard let candidate = fitUnshifted(family.unshifted, probe.shifted(by: shift)) else { continue }
                if bestShift.map({ candidate.logLikelihood > $0.logLikelihood }) ?? true {
                    bestShift = (shift, candidate.logLikelihood)
                }
            }
            best = bestShift.flatMap { chosen in
                fitUnshifted(family.unshifted, data.shifted(by: chosen.shift)).map {
                    (Distribution.shifted(offset: chosen.shift, base: $0.distribution), $0.logLikelihood)
                }
            }
        } else {
            best = fitUnshifted(family, data)
        }
        guard let best else { return nil }
        return DistributionFit(family: family, distribution: best.distribution, logLikelihood: best.logLikelihood,
                               ksStatistic: ks(best.distribution, cdf))
    }

    /// The KS statistic of `distribution` against the measurements: over every individual
    /// duration (both sides of each step) and every bucket edge.
    public func ks(_ distribution: Distribution, _ cdf: MeasuredCDF) -> Double {
        var gap = 0.0
        let n = cdf.total
        let bucketEdges = cdf.buckets.flatMap { [$0.lowerMs, $0.upperMs] }
        if cdf.buckets.isEmpty {
            let samples = cdf.sortedSamplesMs
            for (index, x) in samples.enumerated() {
                let fitted = distribution.cdf(x)
                gap = Swift.max(gap, Double(index + 1) / n - fitted, fitted - Double(index) / n)
            }
            return gap
        }
        for x in (bucketEdges + cdf.sortedSamplesMs) {
            gap = Swift.max(gap, abs(cdf.cdf(x) - distribution.cdf(x)))
        }
        return gap
    }

    /// The maximum-likelihood fit of an unshifted family, with its log-likelihood.
    private func fitUnshifted(_ family: FitFamily, _ data: FitData) -> (distribution: Distribution, logLikelihood: Double)? {
        // Individual durations: the likelihood equations; with buckets, their midpoints
        // give the starting point of the censored fit.
        guard let start = exactFit(family, data.pointsForStart) else { return nil }
        guard !data.censored.isEmpty else {
            let logLikelihood = data.logLikelihood(start)
            return logLikelihood.isFinite ? (start, logLikelihood) : nil
        }
        let (a, b) = Self.parameters(start)
        let solution = FitMath.minimise({ x in
            guard let d = Self.distribution(family, x[0], x[1]) else { return .infinity }
            return -data.logLikelihood(d)
        }, start: [a, b])
        guard let fitted = Self.distribution(family, solution[0], solution[1]) else { return nil }
        let logLikelihood = data.logLikelihood(fitted)
        return logLikelihood.isFinite ? (fitted, logLikelihood) : nil
    }

    /// The optimiser's coordinates of a fitted distribution: (μ, log σ) for a lognormal,
    /// (log shape, log scale) otherwise.
    private static func parameters(_ distribution: Distribution) -> (Double, Double) {
        switch distribution {
        case .lognormal(let mu, let sigma): (mu, log(sigma))
        case .gamma(let shape, let scale), .weibull(let shape, let scale): (log(shape), log(scale))
        default: preconditionFailure("no optimiser coordinates for \(distribution.kindName)")
        }
    }

    /// The distribution at the optimiser's coordinates, `nil` where it is not valid.
    private static func distribution(_ family: FitFamily, _ a: Double, _ b: Double) -> Distribution? {
        let d: Distribution
        switch family {
        case .lognormal: d = .lognormal(mu: a, sigma: exp(b))
        case .gamma: d = .gamma(shape: exp(a), scale: exp(b))
        case .weibull: d = .weibull(shape: exp(a), scale: exp(b))
        default: return nil
        }
        return d.validate().isEmpty ? d : nil
    }

    /// The maximum-likelihood fit to weighted individual values (all > 0).
    private func exactFit(_ family: FitFamily, _ points: [(x: Double, w: Double)]) -> Distribution? {
        var weight = 0.0, sum = 0.0, sumLog = 0.0
        for (x, w) in points {
            weight += w; sum += w * x; sumLog += w * log(x)
        }
        guard weight > 0 else { return nil }
        let mean = sum / weight, meanLog = sumLog / weight
        let d: Distribution
        switch family {
        case .lognormal:
            var squares = 0.0
            for (x, w) in points { let e = log(x) - meanLog; squares += w * e * e }
            d = .lognormal(mu: meanLog, sigma: (squares / weight).squareRoot())
        case .gamma:
            // Solve log k − ψ(k) = s with s = log(mean) − mean(log x), from Minka's start.
            let s = log(mean) - meanLog
            guard s > 0, s.isFinite else { return nil }
            var k = (3 - s + ((s - 3) * (s - 3) + 24 * s).squareRoot()) / (12 * s)
            for _ in 0..<50 {
                let step = (log(k) - FitMath.digamma(k) - s) / (1 / k - FitMath.trigamma(k))
                var next = k - step
                if !(next > 0) { next = k / 2 }
                if abs(next - k) <= 1e-12 * k { k = next; break }
                k = next
            }
            guard k <= 1e6 else { return nil }
            d = .gamma(shape: k, scale: mean / k)
        case .weibull:
            // g(k) = Σ w xᵏ log x / Σ w xᵏ − 1/k − mean(log x) rises with k; values are
            // scaled by the largest so that xᵏ cannot overflow.
            let largest = points.map(\.x).max()!
            let scaled = points.map { (u: $0.x / largest, logU: log($0.x / largest), w: $0.w) }
            let meanLogU = meanLog - log(largest)
            func g(_ k: Double) -> Double {
                var top = 0.0, bottom = 0.0
                for p in scaled { let t = p.w * exp(k * p.logU); top += t * p.logU; bottom += t }
                return top / bottom - 1 / k - meanLogU
            }
            var low = 0.01, high = 200.0
            guard g(low) < 0, g(high) > 0 else { return nil }
            // 50 halvings of log k over [0.01, 200] leave a relative error below 1e-14.
            for _ in 0..<50 {
                let middle = (low * high).squareRoot()
                if g(middle) < 0 { low = middle } else { high = middle }
            }
            let k = (low * high).squareRoot()
            var moment = 0.0
            for p in scaled { moment += p.w * exp(k * p.logU) }
            d = .weibull(shape: k, scale: largest * exp(log(moment / weight) / k))
        default:
            return nil
        }
        return d.validate().isEmpty ? d : nil
    }
}
