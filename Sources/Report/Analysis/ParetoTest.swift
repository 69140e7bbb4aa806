/// Which points of a sweep form the front of a two-metric trade-off, when every point's
/// metrics are estimates from replications run with common random numbers.
///
/// A point is **dominated** only when another point is better on both axes at the stated
/// confidence: on each axis, a one-sided paired t-test of the per-pair differences (pairs
/// are the same replication of the same trace at both points) rejects "not better" at
/// level α = (1 − confidence) / m, where m is the number of other points it is tested
/// against (Bonferroni), and a point is better on both only when both tests reject (an
/// intersection–union test, which needs no further correction). So a point truly on the
/// front is marked dominated with probability at most 1 − confidence. A point that is
/// dominated by the means but not at that confidence is **not separable** from the front;
/// the others are the **front** (no point's means are better on both axes).
public enum ParetoTest {
    /// A point's place in the trade-off.
    public enum Status: String, Sendable, Equatable, CaseIterable {
        /// No point's means are at least as good on both axes and better on one.
        case front
        /// Dominated by some point's means, but by none at the stated confidence.
        case notSeparable = "not separable"
        /// Another point is better on both axes at the stated confidence.
        case dominated
        /// Fails a constraint: neither recommended nor counted against the others.
        case excluded
        /// Has no value on one of the axes.
        case noData = "no data"
    }

    /// One point's values on both axes, one entry per pair (work item) of the sweep, `nil`
    /// where that run has no value.
    public struct Point: Sendable, Equatable {
        /// The x metric per pair.
        public var x: [Double?]
        /// The y metric per pair.
        public var y: [Double?]
        /// Whether the point meets every constraint.
        public var feasible: Bool

        /// Creates a point.
        public init(x: [Double?], y: [Double?], feasible: Bool = true) {
            self.x = x
            self.y = y
            self.feasible = feasible
        }
    }

    /// A point's classification, and the first point (by index) that dominates it.
    public struct Outcome: Sendable, Equatable {
        /// Its status.
        public var status: Status
        /// The index of the first point better on both axes at the confidence, if dominated.
        public var dominatedBy: Int?
    }

    /// Classifies `points`; `lowerIsBetter` says each axis's direction.
    /// - Precondition: `0 < confidence < 1`, and every point has as many pairs.
    public static func classify(_ points: [Point], lowerIsBetter: (x: Bool, y: Bool), confidence: Double) -> [Outcome] {
        precondition(confidence > 0 && confidence < 1, "a confidence is in (0, 1)")
        precondition(points.allSatisfy { $0.x.count == points.first!.x.count && $0.y.count == $0.x.count }, "one value per pair")
        // Means on the "smaller is better" scale.
        let sign = (x: lowerIsBetter.x ? 1.0 : -1.0, y: lowerIsBetter.y ? 1.0 : -1.0)
        let means = points.map { p -> (x: Double, y: Double)? in
            guard let x = mean(p.x), let y = mean(p.y) else { return nil }
            return (sign.x * x, sign.y * y)
        }
        let candidates = points.indices.filter { points[$0].feasible && means[$0] != nil }
        let level = (1 - confidence) / Double(max(candidates.count - 1, 1))
        let meanFront = Pareto.front(candidates.map { means[$0]! })
        var outcomes = points.indices.map { index in
            Outcome(status: means[index] == nil ? .noData : .excluded, dominatedBy: nil)
        }
        for (k, p) in candidates.enumerated() {
            let dominator = candidates.first { q in
                q != p && isBetter(points[q].x, than: points[p].x, sign: sign.x, level: level)
                    && isBetter(points[q].y, than: points[p].y, sign: sign.y, level: level)
            }
            if let dominator {
                outcomes[p] = Outcome(status: .dominated, dominatedBy: dominator)
            } else {
                outcomes[p] = Outcome(status: meanFront[k] ? .front : .notSeparable, dominatedBy: nil)
            }
        }
        return outcomes
    }

    /// Whether `a` is better (smaller, after `sign`) than `b` by a one-sided paired t-test at
    /// `level`, over the pairs where both have a value (at least two).
    static func isBetter(_ a: [Double?], than b: [Double?], sign: Double, level: Double) -> Bool {
        var differences: [Double] = []
        for (x, y) in zip(a, b) {
            if let x, let y { differences.append(sign * (x - y)) }
        }
        guard differences.count >= 2 else { return false }
        return pValue(differences) < level
    }

    /// The one-sided p-value of "the mean difference is below zero" from paired differences:
    /// P(T ≤ t) for t = mean / (sd / √n), with n − 1 degrees of freedom. Differences without
    /// spread (common random numbers can make every pair differ alike) give 0 when their
    /// mean is below zero and 1 otherwise.
    static func pValue(_ differences: [Double]) -> Double {
        PairedDifference(differences: differences).lowerTailPValue ?? 1
    }

    private static func mean(_ values: [Double?]) -> Double? {
        let present = values.compactMap { $0 }
        return present.isEmpty ? nil : present.reduce(0, +) / Double(present.count)
    }
}
