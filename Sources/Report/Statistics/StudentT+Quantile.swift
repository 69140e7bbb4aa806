import Foundation

extension StudentT {
    /// The distribution function P(T ≤ t) for `degreesOfFreedom` ≥ 1, through the regularised
    /// incomplete beta function (error < 1e-10).
    public static func cdf(_ t: Double, degreesOfFreedom df: Int) -> Double {
        precondition(df >= 1)
        guard t.isFinite else { return t > 0 ? 1 : 0 }
        let n = Double(df)
        let tail = 0.5 * regularizedBeta(n / (n + t * t), n / 2, 0.5)
        return t >= 0 ? 1 - tail : tail
    }

    /// The quantile: the t with P(T ≤ t) = `p`, for 0 < p < 1, found by bisection on `cdf`
    /// (to 1e-9). Two-sided intervals at level c use `quantile((1 + c) / 2, …)`.
    public static func quantile(_ p: Double, degreesOfFreedom df: Int) -> Double {
        precondition(p > 0 && p < 1 && df >= 1)
        if p == 0.975 { return quantile975(degreesOfFreedom: df) }
        if p < 0.5 { return -quantile(1 - p, degreesOfFreedom: df) }
        var low = 0.0, high = 1.0
        while cdf(high, degreesOfFreedom: df) < p && high < 1e12 { high *= 2 }
        for _ in 0..<200 where high - low > 1e-9 {
            let middle = (low + high) / 2
            if cdf(middle, degreesOfFreedom: df) < p { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// The half-width factor of a two-sided interval at `confidence` relative to the 95 %
    /// interval keysim stores: multiply a stored 95 % half-width by it.
    public static func halfWidthScale(confidence: Double, degreesOfFreedom df: Int) -> Double {
        quantile((1 + confidence) / 2, degreesOfFreedom: df) / quantile975(degreesOfFreedom: df)
    }

    /// I_x(a, b), by the continued fraction (modified Lentz), using the symmetry
    /// I_x(a, b) = 1 − I_{1−x}(b, a) where the fraction converges slowly.
    static func regularizedBeta(_ x: Double, _ a: Double, _ b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let logGammas: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let front = exp(logGammas + logPowers)
        if x > (a + 1) / (a + b + 2) { return 1 - front * betaFraction(1 - x, b, a) / b }
        return front * betaFraction(x, a, b) / a
    }

    private static func betaFraction(_ x: Double, _ a: Double, _ b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var result = d
        for m in 1...300 {
            let m = Double(m)
            let even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 + even * d; if abs(d) < tiny { d = tiny }
            c = 1 + even / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            result *= d * c
            let odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 + odd * d; if abs(d) < tiny { d = tiny }
            c = 1 + odd / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            let step = d * c
            result *= step
            if abs(step - 1) < 1e-14 { break }
        }
        return result
    }
}
