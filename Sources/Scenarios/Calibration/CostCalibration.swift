import Sim

/// The outcome of calibrating one target: every fit tried, the one chosen, and whether any
/// parametric fit was acceptable.
public struct CostCalibration: Sendable, Equatable {
    /// What the distribution is for.
    public var target: CalibrationTarget
    /// The measurements (all the names mapped to the target, merged).
    public var series: MeasuredSeries
    /// The parametric fits, in `FitFamily.parametric` order (those that apply).
    public var fits: [DistributionFit]
    /// The distribution written.
    public var chosen: DistributionFit
    /// The largest acceptable KS statistic for this many durations.
    public var ksLimit: Double
    /// Whether the family was forced with `--kind`.
    public var forced: Bool

    /// Whether no parametric fit had a KS statistic within the limit: then the quantile
    /// table is written (unless a family was forced) and the command warns.
    public var noAcceptableFit: Bool { !fits.contains { $0.ksStatistic <= ksLimit } }

    /// Fits `series` for `target`: every parametric family, then the lowest AIC among the
    /// acceptable ones, or the quantile table when none is; `kind` forces a family.
    /// - Returns: `nil` when the series is too small (fewer than `CostFitter.samplesMin`
    ///   durations) or all its durations are equal, or the forced family does not apply.
    public static func calibrate(_ series: MeasuredSeries, target: CalibrationTarget, kind: FitFamily?,
                                 fitter: CostFitter = CostFitter()) -> CostCalibration? {
        let fits = FitFamily.parametric.compactMap { fitter.fit(series, family: $0) }
        let limit = fitter.ksLimit(count: series.count)
        let chosen: DistributionFit?
        if let kind {
            chosen = fits.first { $0.family == kind } ?? fitter.fit(series, family: kind)
        } else {
            let acceptable = fits.filter { $0.ksStatistic <= limit }
            chosen = acceptable.min { ($0.aic ?? .infinity) < ($1.aic ?? .infinity) } ?? fitter.fit(series, family: .quantiles)
        }
        guard let chosen else { return nil }
        return CostCalibration(target: target, series: series, fits: fits, chosen: chosen, ksLimit: limit, forced: kind != nil)
    }
}
