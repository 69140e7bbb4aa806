import Sim

/// The distribution families `keysim calibrate` fits, by the names `--kind` takes.
public enum FitFamily: String, Sendable, Equatable, CaseIterable {
    /// exp(N(μ, σ²)).
    case lognormal
    /// Gamma with shape k and scale θ.
    case gamma
    /// Weibull with shape k and scale λ.
    case weibull
    /// A fixed minimum plus a lognormal excess.
    case shiftedLognormal = "shifted-lognormal"
    /// A fixed minimum plus a gamma excess.
    case shiftedGamma = "shifted-gamma"
    /// A fixed minimum plus a Weibull excess.
    case shiftedWeibull = "shifted-weibull"
    /// The measured durations themselves, each equally likely.
    case empirical
    /// A table of quantiles, linear in between.
    case quantiles

    /// The parametric families, in the order fits are tried and listed.
    public static let parametric: [FitFamily] = [
        .lognormal, .gamma, .weibull, .shiftedLognormal, .shiftedGamma, .shiftedWeibull,
    ]

    /// Whether the family is one of the shifted ones.
    public var isShifted: Bool { self == .shiftedLognormal || self == .shiftedGamma || self == .shiftedWeibull }

    /// The unshifted family a shifted one adds its minimum to (itself otherwise).
    public var unshifted: FitFamily {
        switch self {
        case .shiftedLognormal: .lognormal
        case .shiftedGamma: .gamma
        case .shiftedWeibull: .weibull
        default: self
        }
    }

    /// The number of fitted parameters (the k of AIC = 2k − 2 log L); 0 for the tables.
    public var parameterCount: Int {
        switch self {
        case .lognormal, .gamma, .weibull: 2
        case .shiftedLognormal, .shiftedGamma, .shiftedWeibull: 3
        case .empirical, .quantiles: 0
        }
    }
}

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
