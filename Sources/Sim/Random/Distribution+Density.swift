extension Distribution {
    /// log f(x), the natural logarithm of the probability density at `x` milliseconds, for
    /// the continuous parametric cases a calibration fits: lognormal, gamma, Weibull,
    /// exponential, and any of them shifted. −∞ outside the support; `nil` for the cases
    /// without a density (constant, empirical, quantile table, mixture, and the others no
    /// fit produces).
    ///
    /// Maximum-likelihood fitting sums this over the samples, so it is computed in log form
    /// throughout: a density of 1e-300 still has a finite logarithm.
    /// NaN at NaN, as `cdf` answers.
    /// - Precondition: `validate()` reports no problems.
    /// - Complexity: O(1).
    public func logDensity(_ x: Double) -> Double? {
        if x.isNaN { return .nan }
        switch self {
        case .lognormal(let mu, let sigma):
            guard x > 0 else { return -.infinity }
            let logX = CMath.log(x)
            let z = (logX - mu) / sigma
            return -0.5 * z * z - logX - CMath.log(sigma) - Self.logSquareRootTwoPi
        case .gamma(let shape, let scale):
            guard x > 0 else { return shape == 1 && x == 0 ? -CMath.log(scale) : -.infinity }
            return (shape - 1) * CMath.log(x) - x / scale - shape * CMath.log(scale) - CMath.logGamma(shape)
        case .weibull(let shape, let scale):
            guard x > 0 else { return shape == 1 && x == 0 ? -CMath.log(scale) : -.infinity }
            let logRatio = CMath.log(x / scale)
            return CMath.log(shape / scale) + (shape - 1) * logRatio - CMath.exp(shape * logRatio)
        case .exponential(let mean):
            guard x >= 0 else { return -.infinity }
            return -CMath.log(mean) - x / mean
        case .shifted(let offset, let base):
            return base.logDensity(x - offset)
        default:
            return nil
        }
    }

    /// log √(2π).
    private static let logSquareRootTwoPi = 0.91893853320467274178
}
