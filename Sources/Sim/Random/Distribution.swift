/// A probability distribution of non-negative values in milliseconds: the latencies, think
/// times and service times that scenario files configure.
///
/// The cases hold only parameters; the behaviour lives in extensions:
/// - `Distribution+Sampling.swift`: `sample(_:)`, `sampleDuration(_:)`;
/// - `Distribution+Analytic.swift`: `mean`, `quantile(_:)`, `cdf(_:)`;
/// - `Distribution+Validation.swift`: `validate()`;
/// - `Distribution+Density.swift`: `logDensity(_:)`, for fitting measured costs.
///
/// Build from scenario input, call `validate()`, and sample only distributions that passed:
/// sampling an invalid one is a programmer error.
///
/// Not `indirect` as a whole: mixtures nest through their component array, `shifted` is the
/// one boxed case, and the parametric cases stay inline, so that copying one (as every task's cost draw does) touches no reference
/// count shared between the threads of a `--jobs` run.
public enum Distribution: Sendable, Equatable {
    /// Always the same value.
    case constant(Double)

    /// Uniform on [min, max].
    case uniform(min: Double, max: Double)

    /// A normal distribution with the given mean and standard deviation, truncated at zero:
    /// the values are those of N(mean, stddev²) conditioned on being ≥ 0. The parameters are
    /// the parent normal's; the truncated mean is a little larger (see `mean`).
    case normal(mean: Double, stddev: Double)

    /// exp(N(mu, sigma²)): median e^mu, and a right tail that grows with sigma. See
    /// `lognormal(median:p99:)` for the form latency budgets are usually written in.
    case lognormal(mu: Double, sigma: Double)

    /// Exponential with the given mean (rate 1/mean): memoryless waits.
    case exponential(mean: Double)

    /// Gamma with the given shape k and scale θ (mean kθ, variance kθ²).
    case gamma(shape: Double, scale: Double)

    /// Pareto (type I) with minimum `scale` (x_m) and tail index `shape` (α):
    /// P(X > x) = (x_m / x)^α for x ≥ x_m. The mean is infinite when α ≤ 1.
    case pareto(scale: Double, shape: Double)

    /// Weibull with the given shape k and scale λ: P(X > x) = exp(−(x/λ)^k). Shape below 1
    /// gives a heavier tail than the exponential (shape 1), above 1 a lighter one.
    case weibull(shape: Double, scale: Double)

    /// `offset` milliseconds plus a draw of `base`: a cost with a fixed minimum (the part of
    /// the work that always runs) and a random excess. The one boxed case: plain
    /// distributions stay inline.
    indirect case shifted(offset: Double, base: Distribution)

    /// Each recorded sample equally likely: replays measured values as they are.
    case empirical(samples: [Double])

    /// The inverse CDF given as points, linear in between: the value at `p` is interpolated
    /// between the two points whose probabilities surround `p`. Points run from p = 0 to
    /// p = 1 with increasing p and non-decreasing values.
    case quantileTable([QuantilePoint])

    /// Each component chosen with probability weight / (sum of weights), then sampled.
    case mixture([MixtureComponent])

    /// The lognormal distribution with the given median and 99th percentile, both in
    /// milliseconds: mu = ln(median), sigma = ln(p99 / median) / z₀.₉₉.
    ///
    /// Inputs with `median <= 0` or `p99 <= median` give a distribution that `validate()`
    /// rejects (sigma ≤ 0 or not finite); `validateLognormal(median:p99:)` names the
    /// original inputs instead, for error messages in terms the user wrote.
    public static func lognormal(median: Double, p99: Double) -> Distribution {
        .lognormal(
            mu: CMath.log(median),
            sigma: CMath.log(p99 / median) / SpecialFunctions.normalQuantile99)
    }

    /// The name of the case, as scenario files spell it: "constant", "uniform", "normal",
    /// "lognormal", "exponential", "gamma", "weibull", "shifted", "pareto", "empirical",
    /// "quantileTable", "mixture".
    public var kindName: String {
        switch self {
        case .constant: "constant"
        case .uniform: "uniform"
        case .normal: "normal"
        case .lognormal: "lognormal"
        case .exponential: "exponential"
        case .gamma: "gamma"
        case .pareto: "pareto"
        case .weibull: "weibull"
        case .shifted: "shifted"
        case .empirical: "empirical"
        case .quantileTable: "quantileTable"
        case .mixture: "mixture"
        }
    }
}

/// One point of a `Distribution.quantileTable`: the value (in milliseconds) below which a
/// fraction `p` of the draws fall.
public struct QuantilePoint: Sendable, Equatable {
    /// The cumulative probability, in [0, 1].
    public var p: Double
    /// The quantile at `p`, in milliseconds.
    public var value: Double

    /// Creates a point of the inverse CDF.
    public init(p: Double, value: Double) {
        self.p = p
        self.value = value
    }
}

/// One component of a `Distribution.mixture`.
public struct MixtureComponent: Sendable, Equatable {
    /// The relative weight; components are chosen with probability weight / total weight.
    public var weight: Double
    /// The distribution sampled when this component is chosen.
    public var distribution: Distribution

    /// Creates a mixture component.
    public init(weight: Double, distribution: Distribution) {
        self.weight = weight
        self.distribution = distribution
    }
}
