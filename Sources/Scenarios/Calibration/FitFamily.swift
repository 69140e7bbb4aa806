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
