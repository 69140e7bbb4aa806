#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The distribution of one typing interval under the rhythm model: a mixture of the context's
/// lognormal (its median times the key pair's multiplier) and, with the hesitation's share,
/// the hesitation's lognormal, cut at the pause threshold. `HumanTypist` draws from it through
/// its quantile; `TypistFitter` turns recorded intervals into normal scores through its CDF.
struct TypingMixture: Sendable {
    /// The typing component's log-median (ms) and σ.
    let mu: Double, sigma: Double
    /// The hesitation component's share, log-median (ms) and σ; share 0 without one.
    let share: Double, hesitationMu: Double, hesitationSigma: Double
    /// The log of the pause threshold (ms).
    let logThreshold: Double

    /// The mixture of `timing`, its typing median multiplied by `multiplier`, cut at `thresholdMs`.
    init(_ timing: TypistProfile.ContextTiming, multiplier: Double = 1, thresholdMs: Double) {
        mu = log(timing.interval.medianMs * multiplier)
        sigma = max(timing.interval.sigma, 1e-9)
        share = timing.hesitation?.share ?? 0
        hesitationMu = log(timing.hesitation?.medianMs ?? 1)
        hesitationSigma = max(timing.hesitation?.sigma ?? 1, 1e-9)
        logThreshold = log(thresholdMs)
    }

    /// P(log X ≤ y), before the cut.
    func cdf(log y: Double) -> Double {
        let typing = StandardNormal.cdf((y - mu) / sigma)
        guard share > 0 else { return typing }
        return (1 - share) * typing + share * StandardNormal.cdf((y - hesitationMu) / hesitationSigma)
    }

    /// P(X ≤ `ms` | X ≤ the threshold).
    func truncatedCDF(ms: Double) -> Double {
        let kept = cdf(log: logThreshold)
        guard kept > 0 else { return 1 }
        return min(1, cdf(log: log(max(ms, 1e-9))) / kept)
    }

    /// The interval in milliseconds whose truncated CDF is `p`, by bisection on its log to
    /// 1e-10 (far below the microsecond a trace keeps); the threshold when nearly all the
    /// mixture lies above it.
    func quantile(_ p: Double) -> Double {
        let target = p * cdf(log: logThreshold)
        guard target > 1e-300 else { return exp(logThreshold) }
        var low = min(mu - 40 * sigma, share > 0 ? hesitationMu - 40 * hesitationSigma : mu - 40 * sigma)
        var high = logThreshold
        while high - low > 1e-10 {
            let middle = (low + high) / 2
            if cdf(log: middle) < target { low = middle } else { high = middle }
        }
        return exp((low + high) / 2)
    }
}
