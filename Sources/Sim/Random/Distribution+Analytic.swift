extension Distribution {
    /// The expected value in milliseconds, from the parameters rather than from draws.
    ///
    /// `nil` where the mean is undefined (a pareto with shape ≤ 1, or a mixture with such a
    /// component) and for a distribution that `validate()` rejects; +∞ where a finite mean is
    /// beyond the range of doubles (a lognormal with sigma above about 37). For `.normal`
    /// this is the mean of the truncated distribution, above the `mean` parameter.
    /// - Complexity: O(n) in the number of samples, points or (nested) components.
    public var mean: Double? {
        guard validate().isEmpty else { return nil }
        return unvalidatedMean
    }

    /// The p-quantile in milliseconds: the smallest x with `cdf(x) >= p`.
    ///
    /// `quantile(0)` is the lower end of the support and `quantile(1)` the upper end, +∞ for
    /// unbounded distributions. `nil` when `p` is outside [0, 1] or `validate()` reports
    /// problems. Closed forms where they exist; gamma inverts the regularized incomplete
    /// gamma function and mixture inverts the mixture CDF, both by bisection to the last bit.
    /// - Complexity: O(1) for the closed forms; about 64 CDF evaluations for gamma and
    ///   mixture; O(n log n) for `.empirical`, which sorts its samples.
    public func quantile(_ p: Double) -> Double? {
        guard p >= 0 && p <= 1, validate().isEmpty else { return nil }
        return unvalidatedQuantile(p)
    }

    /// P(X ≤ x), the cumulative distribution function at `x` milliseconds; NaN at NaN, as
    /// the C math functions answer (an `x` computed from measured data may be one, and a
    /// chart of it must not stop the program).
    /// - Precondition: `validate()` reports no problems.
    /// - Complexity: O(1) for the parametric cases (the incomplete gamma function takes up
    ///   to a few thousand terms for large shapes), O(n) for `.empirical`, O(log n) for
    ///   `.quantileTable`, the sum over components for `.mixture`.
    public func cdf(_ x: Double) -> Double {
        if x.isNaN { return .nan }
        switch self {
        case .constant(let value):
            return x >= value ? 1 : 0
        case .uniform(let min, let max):
            if x < min { return 0 }
            if x >= max { return 1 }
            return (x - min) / (max - min)
        case .normal(let mean, let stddev):
            if x <= 0 { return 0 }
            // 1 − Q((x − μ)/σ) / Q(−μ/σ), with Q(z) = Φ(−z).
            let survival = SpecialFunctions.normalCDF((mean - x) / stddev)
                / SpecialFunctions.normalCDF(mean / stddev)
            return Swift.max(0, 1 - survival)
        case .lognormal(let mu, let sigma):
            if x <= 0 { return 0 }
            return SpecialFunctions.normalCDF((CMath.log(x) - mu) / sigma)
        case .exponential(let mean):
            if x <= 0 { return 0 }
            return -CMath.expm1(-x / mean)
        case .gamma(let shape, let scale):
            if x <= 0 { return 0 }
            return SpecialFunctions.regularizedGamma(shape, x / scale).lower
        case .pareto(let scale, let shape):
            if x <= scale { return 0 }
            return -CMath.expm1(shape * CMath.log(scale / x))
        case .weibull(let shape, let scale):
            if x <= 0 { return 0 }
            return -CMath.expm1(-CMath.exp(shape * CMath.log(x / scale)))
        case .shifted(let offset, let base):
            return base.cdf(x - offset)
        case .empirical(let samples):
            var atOrBelow = 0
            for sample in samples where sample <= x { atOrBelow += 1 }
            return Double(atOrBelow) / Double(samples.count)
        case .quantileTable(let points):
            return Distribution.tableCDF(points, at: x)
        case .mixture(let components):
            var totalWeight = 0.0
            var weightedSum = 0.0
            for component in components {
                totalWeight += component.weight
                weightedSum += component.weight * component.distribution.cdf(x)
            }
            return Swift.min(1, weightedSum / totalWeight)
        }
    }

    /// `mean` without the validity check, for valid distributions and their components.
    private var unvalidatedMean: Double? {
        switch self {
        case .constant(let value):
            return value
        case .uniform(let min, let max):
            return 0.5 * min + 0.5 * max
        case .normal(let mean, let stddev):
            // E[X | X ≥ 0] = μ + σ φ(α) / Q(α) with α = −μ/σ, and Q(α) = Φ(μ/σ).
            let ratio = mean / stddev
            return mean + stddev * SpecialFunctions.normalDensity(ratio)
                / SpecialFunctions.normalCDF(ratio)
        case .lognormal(let mu, let sigma):
            return CMath.exp(mu + 0.5 * sigma * sigma)
        case .exponential(let mean):
            return mean
        case .gamma(let shape, let scale):
            return shape * scale
        case .pareto(let scale, let shape):
            return shape > 1 ? shape * scale / (shape - 1) : nil
        case .weibull(let shape, let scale):
            return scale * CMath.exp(CMath.logGamma(1 + 1 / shape))
        case .shifted(let offset, let base):
            return base.unvalidatedMean.map { offset + $0 }
        case .empirical(let samples):
            var sum = 0.0
            for sample in samples { sum += sample }
            return sum / Double(samples.count)
        case .quantileTable(let points):
            // The quantile function is piecewise linear, so E[X] = ∫₀¹ Q(p) dp is exactly the
            // sum of the trapezoids.
            var sum = 0.0
            for index in 1..<points.count {
                let left = points[index - 1]
                let right = points[index]
                sum += (right.p - left.p) * 0.5 * (left.value + right.value)
            }
            return sum
        case .mixture(let components):
            var totalWeight = 0.0
            var weightedSum = 0.0
            for component in components {
                guard let componentMean = component.distribution.unvalidatedMean else { return nil }
                totalWeight += component.weight
                weightedSum += component.weight * componentMean
            }
            return weightedSum / totalWeight
        }
    }

    /// `quantile(_:)` without the checks, for valid distributions and `p` in [0, 1].
    private func unvalidatedQuantile(_ p: Double) -> Double {
        switch self {
        case .constant(let value):
            return value
        case .uniform(let min, let max):
            return p == 1 ? max : min + (max - min) * p
        case .normal(let mean, let stddev):
            if p == 0 { return 0 }
            // The sampler's inverse CDF: 1 − F(x) = (1 − p) · Φ(μ/σ), in upper-tail form.
            let keptMass = SpecialFunctions.normalCDF(mean / stddev)
            let z = -SpecialFunctions.normalQuantile((1 - p) * keptMass)
            return Swift.max(0, mean + stddev * z)
        case .lognormal(let mu, let sigma):
            // Φ⁻¹ gives ∓∞ at p = 0 and 1, and exp maps those to 0 and +∞.
            return CMath.exp(mu + sigma * SpecialFunctions.normalQuantile(p))
        case .exponential(let mean):
            return mean * -CMath.log1p(-p)
        case .gamma(let shape, let scale):
            if p == 0 { return 0 }
            if p == 1 { return .infinity }
            // Solve with whichever of P and Q is the small one: P = p in the lower half,
            // Q = 1 − p (exact for p ≥ 0.5) in the upper half.
            let standard = SpecialFunctions.smallestNonNegative(from: 0, through: .infinity) { x in
                let (lower, upper) = SpecialFunctions.regularizedGamma(shape, x)
                return p <= 0.5 ? lower >= p : upper <= 1 - p
            }
            return scale * standard
        case .pareto(let scale, let shape):
            return scale * CMath.exp(-CMath.log1p(-p) / shape)
        case .weibull(let shape, let scale):
            if p == 1 { return .infinity }
            return scale * CMath.exp(CMath.log(-CMath.log1p(-p)) / shape)
        case .shifted(let offset, let base):
            return offset + base.unvalidatedQuantile(p)
        case .empirical(let samples):
            return Distribution.empiricalQuantile(samples.sorted(), p)
        case .quantileTable(let points):
            return Distribution.interpolate(points, at: p)
        case .mixture(let components):
            // Every component's F is ≥ p at its own p-quantile and < p below it, so the
            // mixture quantile lies between the smallest and the largest of them.
            var lower = Double.infinity
            var upper = 0.0
            for component in components {
                let componentQuantile = component.distribution.unvalidatedQuantile(p)
                lower = Swift.min(lower, componentQuantile)
                upper = Swift.max(upper, componentQuantile)
            }
            // The top of the support; a numeric CDF may reach 1 sooner.
            if p == 1 { return upper }
            return SpecialFunctions.smallestNonNegative(from: lower, through: upper) { x in
                cdf(x) >= p
            }
        }
    }

    /// The smallest of `sorted` whose empirical CDF (count at or below, over n) is ≥ p.
    private static func empiricalQuantile(_ sorted: [Double], _ p: Double) -> Double {
        let count = Double(sorted.count)
        // The smallest rank k with k/n ≥ p, computed as the CDF computes it, so that
        // p · n rounding up past an integer (0.7 · 10 = 7.000000000000001) cannot skip a rank.
        var rank = Swift.min(Swift.max(Int((p * count).rounded(.up)), 1), sorted.count)
        while rank > 1 && Double(rank - 1) / count >= p { rank -= 1 }
        while rank < sorted.count && Double(rank) / count < p { rank += 1 }
        return sorted[rank - 1]
    }

    /// The CDF of a quantile table: the inverse of `interpolate(_:at:)`. Where points share a
    /// value (an atom) the CDF jumps to the probability of the last of them.
    /// - Complexity: O(log n) for n points.
    static func tableCDF(_ points: [QuantilePoint], at x: Double) -> Double {
        var low = 0
        var high = points.count - 1
        if x < points[low].value { return 0 }
        if x >= points[high].value { return 1 }
        // Invariant: points[low].value <= x < points[high].value.
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if points[middle].value <= x { low = middle } else { high = middle }
        }
        let left = points[low]
        let right = points[high]
        let fraction = (x - left.value) / (right.value - left.value)
        return Swift.min(right.p, left.p + fraction * (right.p - left.p))
    }
}
