// The special functions behind the distributions' samplers, CDFs and quantiles. Internal:
// tests reach them through `@testable import`, and compare them with reference values.

/// Normal-distribution and incomplete-gamma functions, plus a root finder on doubles.
enum SpecialFunctions {
    /// z₀.₉₉, the 99th percentile of the standard normal distribution.
    static let normalQuantile99 = 2.3263478740408408

    /// The standard normal CDF Φ(z), through `erfc` so that both tails keep full relative
    /// accuracy (1 − Φ(z) for large z would cancel to zero long before Φ(−z) underflows).
    static func normalCDF(_ z: Double) -> Double {
        0.5 * CMath.erfc(-z * 0.70710678118654752440)
    }

    /// The standard normal density φ(z).
    static func normalDensity(_ z: Double) -> Double {
        0.39894228040143267794 * CMath.exp(-0.5 * z * z)
    }

    /// The standard normal quantile Φ⁻¹(p): Wichura's algorithm AS 241 (PPND16, Applied
    /// Statistics 37, 1988), relative error about 1e-16 over the whole of (0, 1).
    ///
    /// Returns −∞ at 0, +∞ at 1, and NaN outside [0, 1].
    static func normalQuantile(_ p: Double) -> Double {
        guard p > 0 && p < 1 else {
            if p == 0 { return -.infinity }
            if p == 1 { return .infinity }
            return .nan
        }
        let q = p - 0.5
        if abs(q) <= 0.425 {
            // Central region: a rational function of r = 0.425² − q².
            let r = 0.180625 - q * q
            let numerator = ((((((r * 2509.0809287301226727 + 33430.575583588128105) * r
                + 67265.770927008700853) * r + 45921.953931549871457) * r
                + 13731.693765509461125) * r + 1971.5909503065514427) * r
                + 133.14166789178437745) * r + 3.387132872796366608
            let denominator = ((((((r * 5226.495278852545925 + 28729.085735721942674) * r
                + 39307.89580009271061) * r + 21213.794301586595867) * r
                + 5394.1960214247511077) * r + 687.1870074920579083) * r
                + 42.313330701600911252) * r + 1
            return q * numerator / denominator
        }
        // Tails: a rational function of r = √(−log(min(p, 1 − p))), where min(p, 1 − p) is
        // exact because p itself is never rounded here.
        var r = CMath.sqrt(-CMath.log(q < 0 ? p : 1 - p))
        let magnitude: Double
        if r <= 5 {
            r -= 1.6
            let numerator = ((((((r * 7.7454501427834140764e-4 + 0.0227238449892691845833) * r
                + 0.24178072517745061177) * r + 1.27045825245236838258) * r
                + 3.64784832476320460504) * r + 5.7694972214606914055) * r
                + 4.6303378461565452959) * r + 1.42343711074968357734
            let denominator = ((((((r * 1.05075007164441684324e-9 + 5.475938084995344946e-4) * r
                + 0.0151986665636164571966) * r + 0.14810397642748007459) * r
                + 0.68976733498510000455) * r + 1.6763848301838038494) * r
                + 2.05319162663775882187) * r + 1
            magnitude = numerator / denominator
        } else {
            r -= 5
            let numerator = ((((((r * 2.01033439929228813265e-7 + 2.71155556874348757815e-5) * r
                + 0.0012426609473880784386) * r + 0.026532189526576123093) * r
                + 0.29656057182850489123) * r + 1.7848265399172913358) * r
                + 5.4637849111641143699) * r + 6.6579046435011037772
            let denominator = ((((((r * 2.04426310338993978564e-15 + 1.4215117583164458887e-7) * r
                + 1.8463183175100546818e-5) * r + 7.868691311456132591e-4) * r
                + 0.0148753612908506148525) * r + 0.13692988092273580531) * r
                + 0.59983220655588793769) * r + 1
            magnitude = numerator / denominator
        }
        return q < 0 ? -magnitude : magnitude
    }

    /// The largest gamma shape whose incomplete gamma function is supported: the series and
    /// the continued fraction below need about √(72·a) terms near x ≈ a, 8,500 at 1e6.
    static let gammaShapeMax = 1e6

    /// The regularized incomplete gamma functions P(a, x) = γ(a, x)/Γ(a) and
    /// Q(a, x) = 1 − P(a, x), both returned so that callers can use whichever is small (and
    /// therefore accurate) without a cancelling subtraction.
    ///
    /// The series for P when x < a + 1, otherwise the continued fraction for Q evaluated
    /// with the modified Lentz method (Numerical Recipes, 3rd ed., §6.2).
    /// - Precondition: `0 < a <= gammaShapeMax`, `x` not NaN.
    static func regularizedGamma(_ a: Double, _ x: Double) -> (lower: Double, upper: Double) {
        precondition(a > 0 && a <= gammaShapeMax, "gamma shape out of range: \(a)")
        precondition(!x.isNaN, "regularizedGamma at NaN")
        if x <= 0 { return (0, 1) }
        if x == .infinity { return (1, 0) }
        let epsilon = 0x1p-53
        let iterationsMax = 20_000
        let logPrefactor = logGammaPrefactor(a, x)
        if x < a + 1 {
            // P(a, x) = xᵃ e⁻ˣ / Γ(a) · Σₙ xⁿ / (a (a+1) … (a+n)); every term is positive.
            var denominator = a
            var term = 1 / a
            var sum = term
            for _ in 0..<iterationsMax {
                denominator += 1
                term *= x / denominator
                sum += term
                if term < sum * epsilon { break }
            }
            let lower = Swift.min(1, sum * CMath.exp(logPrefactor))
            return (lower, 1 - lower)
        }
        // Q(a, x) = xᵃ e⁻ˣ / Γ(a) · 1/(x+1−a − 1·(1−a)/(x+3−a − 2·(2−a)/(x+5−a − …))).
        let tiny = 0x1p-1000
        var b = x + 1 - a
        var c = 1 / tiny
        var d = 1 / b
        var fraction = d
        for i in 1...iterationsMax {
            let an = -Double(i) * (Double(i) - a)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            fraction *= delta
            if abs(delta - 1) < epsilon { break }
        }
        let upper = Swift.min(1, CMath.exp(logPrefactor) * fraction)
        return (1 - upper, upper)
    }

    /// log(xᵃ e⁻ˣ / Γ(a)), the prefactor that the series and the continued fraction share,
    /// for a > 0 and 0 < x < ∞.
    ///
    /// Where P and Q are neither 0 nor 1, x is near a, and a·log x, x and log Γ(a) are each
    /// about a·log a yet cancel to O(log a): summed directly they leave an absolute error of
    /// about a·log(a)·2⁻⁵³ (4e-12 at a = 5000). For a ≥ 15 Stirling's formula
    /// log Γ(a) = (a − ½)·log a − a + ½·log 2π + s(a) turns the prefactor into
    ///
    ///     a·(log1p(t) − t) + ½·log(a / 2π) − s(a),   t = (x − a) / a,
    ///
    /// whose error is about |x − a|·2⁻⁵³ instead (Temme; also how R and Boost compute it).
    static func logGammaPrefactor(_ a: Double, _ x: Double) -> Double {
        guard a >= 15 else { return a * CMath.log(x) - x - CMath.logGamma(a) }
        let t = (x - a) / a
        // log1p(t) − t is about −t²/2 when t is small; log(x / a) would round x / a first.
        let deviationTerm = abs(t) < 0.5 ? a * (CMath.log1p(t) - t) : a * CMath.log(x / a) - (x - a)
        return deviationTerm + 0.5 * CMath.log(a / (2 * Double.pi)) - stirlingError(a)
    }

    /// s(a) = log Γ(a) − ((a − ½)·log a − a + ½·log 2π), by its asymptotic series
    /// Σ B₂ₖ / (2k (2k − 1) a²ᵏ⁻¹) through k = 7. For a ≥ 15 the first omitted term,
    /// 3617 / (122400 a¹⁵), is below 1e-19.
    static func stirlingError(_ a: Double) -> Double {
        let r = 1 / a
        let r2 = r * r
        return r * (1.0 / 12 - r2 * (1.0 / 360 - r2 * (1.0 / 1260 - r2 * (1.0 / 1680
            - r2 * (1.0 / 1188 - r2 * (691.0 / 360360 - r2 / 156))))))
    }

    /// The smallest double x in [`lower`, `upper`] for which `predicate(x)` holds, for a
    /// predicate that is false below some point and true from it on, and true at `upper`.
    ///
    /// Bisects the bit patterns rather than the values: for non-negative doubles the bit
    /// patterns are ordered like the values, so the answer is exact to the last bit after at
    /// most 64 evaluations, whatever the range (even up to +∞).
    /// - Precondition: `0 <= lower <= upper`.
    /// - Complexity: at most 65 evaluations of `predicate`.
    static func smallestNonNegative(
        from lower: Double, through upper: Double, where predicate: (Double) -> Bool
    ) -> Double {
        precondition(lower >= 0 && lower <= upper, "bad bracket [\(lower), \(upper)]")
        if predicate(lower) { return lower }
        // +0 and −0 compare equal but only +0 has the smallest bit pattern.
        var falseBits = lower == 0 ? 0 : lower.bitPattern
        var trueBits = upper.bitPattern
        while trueBits - falseBits > 1 {
            let middle = falseBits + (trueBits - falseBits) / 2
            if predicate(Double(bitPattern: middle)) {
                trueBits = middle
            } else {
                falseBits = middle
            }
        }
        return Double(bitPattern: trueBits)
    }
}
