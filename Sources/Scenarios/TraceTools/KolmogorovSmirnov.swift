#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The two-sample Kolmogorov–Smirnov distance: the largest gap between two samples'
/// empirical distribution functions, 0 (the same distribution) to 1 (no overlap).
public enum KolmogorovSmirnov {
    /// The distance between `a` and `b`; `nil` when either is empty.
    /// - Complexity: O((n + m) log(n + m)) for the sorts.
    public static func distance(_ a: [Int64], _ b: [Int64]) -> Double? {
        guard !a.isEmpty, !b.isEmpty else { return nil }
        let x = a.sorted(), y = b.sorted()
        var i = 0, j = 0
        var largest = 0.0
        while i < x.count && j < y.count {
            // Step past every value equal to the smaller one in both samples, then compare.
            let value = min(x[i], y[j])
            while i < x.count && x[i] == value { i += 1 }
            while j < y.count && y[j] == value { j += 1 }
            largest = max(largest, abs(Double(i) / Double(x.count) - Double(j) / Double(y.count)))
        }
        return largest
    }

    /// The distance above which the two-sample test rejects, at level `alpha`, that samples of
    /// sizes `n` and `m` come from one distribution: c(α) √((n + m) / nm), with
    /// c(α) = √(−ln(α/2) / 2) (1.358 at 5 %), the large-sample value of the Kolmogorov
    /// distribution's quantile. It assumes independent draws.
    public static func criticalValue(n: Int, m: Int, alpha: Double = 0.05) -> Double {
        precondition(n > 0 && m > 0 && alpha > 0 && alpha < 1, "two non-empty samples and a level in (0, 1)")
        let c = (-log(alpha / 2) / 2).squareRoot()
        return c * (Double(n + m) / (Double(n) * Double(m))).squareRoot()
    }
}
