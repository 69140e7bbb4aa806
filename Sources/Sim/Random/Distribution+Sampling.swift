extension Distribution {
    /// One draw, in milliseconds: always finite and ≥ 0.
    ///
    /// Continuous distributions use one uniform per draw through the inverse CDF wherever
    /// that is cheap (so that a sweep over a parameter moves each draw monotonically); gamma
    /// uses Marsaglia–Tsang rejection: at most about 1.05 attempts of two uniforms each, plus
    /// one uniform for shape < 1. Tails that overflow (a pareto with a tiny shape, a
    /// lognormal with a huge sigma) are clamped to the largest finite double;
    /// `sampleDuration(_:)` clamps further, to 2⁵³ ns.
    ///
    /// Allocates nothing, whatever the case, including nested mixtures.
    /// - Precondition: `validate()` reports no problems (checked only as far as a NaN
    ///   result goes; other invalid parameters give unspecified, clamped values).
    /// - Complexity: O(1) for the parametric cases, O(log n) for a quantile table of n
    ///   points, O(k) per level for a mixture of k components.
    public func sample(_ rng: inout RandomStream) -> Double {
        Distribution.clamped(unclampedSample(&rng), kindName: kindName)
    }

    /// One draw as a simulated duration, rounded to the nearest nanosecond.
    /// - Precondition: `validate()` reports no problems.
    /// - Complexity: as `sample(_:)`.
    public func sampleDuration(_ rng: inout RandomStream) -> SimDuration {
        SimDuration(milliseconds: sample(&rng))
    }

    /// One draw before the final clamp to [0, greatestFiniteMagnitude].
    private func unclampedSample(_ rng: inout RandomStream) -> Double {
        switch self {
        case .constant(let value):
            return value
        case .uniform(let min, let max):
            return min + (max - min) * rng.nextDouble()
        case .normal(let mean, let stddev):
            // Inverse CDF on the kept range [0, ∞), written with upper tails: the truncated
            // survival function is Q(z) / Q(α) with α = −mean/stddev and Q(α) = Φ(mean/stddev),
            // so z = −Φ⁻¹(v · Φ(mean/stddev)) for v uniform on (0, 1). Small upper-tail
            // probabilities stay exact where 1 − (something near 1) would not.
            let keptMass = SpecialFunctions.normalCDF(mean / stddev)
            let z = -SpecialFunctions.normalQuantile(rng.nextOpenUnit() * keptMass)
            return mean + stddev * z
        case .lognormal(let mu, let sigma):
            return Distribution.lognormalValue(mu: mu, sigma: sigma, standardNormal: Lognormal.standardNormal(&rng))
        case .exponential(let mean):
            return -mean * CMath.log(rng.nextOpenUnit())
        case .gamma(let shape, let scale):
            return scale * Distribution.standardGamma(shape: shape, &rng)
        case .pareto(let scale, let shape):
            // Inverse survival function: x_m · u^(−1/α), with u uniform on (0, 1).
            return scale * CMath.exp(-CMath.log(rng.nextOpenUnit()) / shape)
        case .weibull(let shape, let scale):
            // Inverse survival function: λ · (−log u)^(1/k), with u uniform on (0, 1).
            return scale * CMath.exp(CMath.log(-CMath.log(rng.nextOpenUnit())) / shape)
        case .shifted(let offset, let base):
            return offset + base.unclampedSample(&rng)
        case .empirical(let samples):
            return samples[rng.nextInt(below: samples.count)]
        case .quantileTable(let points):
            return Distribution.interpolate(points, at: rng.nextDouble())
        case .mixture(let components):
            precondition(!components.isEmpty, "sampling a mixture with no components")
            var totalWeight = 0.0
            for component in components { totalWeight += component.weight }
            var remaining = rng.nextDouble() * totalWeight
            for component in components.dropLast() {
                if remaining < component.weight {
                    return component.distribution.unclampedSample(&rng)
                }
                remaining -= component.weight
            }
            // Also catches the rounding case where `remaining` outlives every weight.
            return components[components.count - 1].distribution.unclampedSample(&rng)
        }
    }

    /// A gamma draw with unit scale: Marsaglia and Tsang, "A simple method for generating
    /// gamma variables" (ACM TOMS 26(3), 2000). For shape < 1 it draws with shape + 1 and
    /// multiplies by u^(1/shape), the boost from the same paper.
    private static func standardGamma(shape: Double, _ rng: inout RandomStream) -> Double {
        if shape < 1 {
            let boosted = standardGamma(shape: shape + 1, &rng)
            return boosted * CMath.exp(CMath.log(rng.nextOpenUnit()) / shape)
        }
        let d = shape - 1.0 / 3.0
        let c = 1 / (3 * CMath.sqrt(d))
        // Each attempt is accepted with probability above 0.95 for every shape ≥ 1; a
        // thousand rejections in a row means NaN parameters, not bad luck.
        for _ in 0..<1_000 {
            let x = SpecialFunctions.normalQuantile(rng.nextOpenUnit())
            var v = 1 + c * x
            if v <= 0 { continue }
            v = v * v * v
            let u = rng.nextOpenUnit()
            let xSquared = x * x
            // The squeeze accepts most attempts without computing a logarithm.
            if u < 1 - 0.0331 * xSquared * xSquared { return d * v }
            if CMath.log(u) < 0.5 * xSquared + d * (1 - v + CMath.log(v)) { return d * v }
        }
        preconditionFailure("gamma sampler rejected 1000 attempts: shape \(shape) is not valid")
    }

    /// The inverse CDF of a quantile table at `p` in [0, 1]: linear between the two points
    /// whose probabilities surround `p`, exactly the point's value at a point.
    /// - Complexity: O(log n) for n points.
    static func interpolate(_ points: [QuantilePoint], at p: Double) -> Double {
        precondition(!points.isEmpty, "quantile table with no points")
        var low = 0
        var high = points.count - 1
        if p >= points[high].p { return points[high].value }
        if p <= points[low].p { return points[low].value }
        // Invariant: points[low].p <= p < points[high].p.
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if points[middle].p <= p { low = middle } else { high = middle }
        }
        let left = points[low]
        let right = points[high]
        let fraction = (p - left.p) / (right.p - left.p)
        // The min keeps the result monotone in p when rounding would overshoot `right`.
        return Swift.min(right.value, left.value + fraction * (right.value - left.value))
    }
}
