import Foundation

extension StudentT {
    /// The two-sided p-value of a t statistic: P(|T| ≥ |t|) for `degreesOfFreedom` ≥ 1,
    /// computed as the tail itself (I_{n/(n+t²)}(n/2, 1/2)), not as 1 − cdf, so that a large
    /// t keeps its small p-value to full relative precision. 1 at t = 0, 0 at infinity.
    public static func twoSidedPValue(_ t: Double, degreesOfFreedom df: Int) -> Double {
        precondition(df >= 1)
        precondition(!t.isNaN, "a t statistic is a number")
        guard t.isFinite else { return 0 }
        let n = Double(df)
        return min(1, regularizedBeta(n / (n + t * t), n / 2, 0.5))
    }
}
