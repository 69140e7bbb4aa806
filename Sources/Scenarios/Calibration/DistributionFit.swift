import Sim

/// One fitted distribution and how well it matches the measurements.
public struct DistributionFit: Sendable, Equatable {
    /// The family.
    public var family: FitFamily
    /// The fitted distribution, in milliseconds.
    public var distribution: Distribution
    /// The maximised log-likelihood (interval probabilities for bucketed durations); `nil`
    /// for the tables.
    public var logLikelihood: Double?
    /// The Kolmogorov–Smirnov statistic: the largest gap between the measured and the
    /// fitted CDF (at the bucket edges for bucketed durations).
    public var ksStatistic: Double

    /// Akaike's criterion, 2k − 2 log L; `nil` for the tables.
    public var aic: Double? {
        logLikelihood.map { 2 * Double(family.parameterCount) - 2 * $0 }
    }

    /// Creates a fit.
    public init(family: FitFamily, distribution: Distribution, logLikelihood: Double?, ksStatistic: Double) {
        self.family = family
        self.distribution = distribution
        self.logLikelihood = logLikelihood
        self.ksStatistic = ksStatistic
    }
}
