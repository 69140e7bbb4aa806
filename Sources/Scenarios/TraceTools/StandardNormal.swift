#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Sim

/// The standard normal distribution's CDF and quantile, for the typist's Gaussian copula and
/// the fitter's normal scores.
enum StandardNormal {
    /// Φ(z), through `erfc` so that both tails keep their relative accuracy.
    static func cdf(_ z: Double) -> Double {
        0.5 * erfc(-z * 0.70710678118654752440)
    }

    /// Φ⁻¹(p): −∞ at 0, +∞ at 1. Sim's lognormal quantile is exp(μ + σ Φ⁻¹(p)) through
    /// Wichura's AS 241 (relative error about 1e-16), so its log with μ = 0, σ = 1 is Φ⁻¹
    /// to within a rounding, without a second copy of the algorithm.
    static func quantile(_ p: Double) -> Double {
        precondition(p >= 0 && p <= 1, "a probability is between 0 and 1")
        return log(unitLognormal.quantile(p)!)
    }

    /// A standard normal draw from `random` (by inversion: one uniform a draw).
    static func sample(_ random: inout RandomStream) -> Double {
        quantile(random.nextOpenUnit())
    }

    private static let unitLognormal = Distribution.lognormal(mu: 0, sigma: 1)
}
