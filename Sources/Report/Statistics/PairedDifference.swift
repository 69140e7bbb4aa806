/// The paired difference of two policies (or scenario files) run on the same work items with
/// common random numbers: the per-pair differences candidate − baseline, their mean, its
/// Student-t interval and the paired t test of "no difference".
///
/// Each pair is one work item (replication × trace) run under both sides. Under common random
/// numbers the two runs of a pair share the trace and every draw the policies do not change,
/// so the differences vary far less than two independent samples would; the interval and the
/// test treat the differences as one sample (n − 1 degrees of freedom).
public struct PairedDifference: Sendable, Equatable {
    /// The per-pair differences, candidate − baseline, summarised.
    public let differences: SampleMean

    /// The difference of `candidate` and `baseline`, pair by pair.
    /// - Precondition: both hold one value per pair, in the same order.
    public init(baseline: [Double], candidate: [Double]) {
        precondition(baseline.count == candidate.count, "a paired difference needs one value of each side per pair")
        differences = SampleMean(zip(baseline, candidate).map { $1 - $0 })
    }

    /// A paired difference of differences already taken (candidate − baseline per pair).
    public init(differences: [Double]) {
        self.differences = SampleMean(differences)
    }

    /// Pairs.
    public var pairs: Int { differences.count }

    /// The mean difference, candidate − baseline.
    public var mean: Double { differences.mean }

    /// The two-sided interval of the mean difference at `confidence`; nil under two pairs.
    public func interval(confidence: Double) -> ClosedRange<Double>? {
        differences.interval(confidence: confidence)
    }

    /// The paired t statistic, mean / (s/√n); nil under two pairs or when the differences do
    /// not vary (then `pValue` decides without it).
    public var tStatistic: Double? {
        guard pairs >= 2, differences.standardError > 0 else { return nil }
        return mean / differences.standardError
    }

    /// The two-sided p-value of the paired t test of a zero mean difference; nil under two
    /// pairs. Differences that do not vary are a certainty either way: 1 when they are all
    /// zero (the policies did not differ on this metric), 0 when they all equal one nonzero
    /// value (they always differed by exactly that).
    public var pValue: Double? {
        guard pairs >= 2 else { return nil }
        guard let t = tStatistic else { return mean == 0 ? 1 : 0 }
        return StudentT.twoSidedPValue(t, degreesOfFreedom: pairs - 1)
    }

    /// The one-sided p-value of "the mean difference is below zero": P(T ≤ t) with n − 1
    /// degrees of freedom; nil under two pairs. Differences that do not vary give 0 when
    /// their mean is below zero and 1 otherwise.
    public var lowerTailPValue: Double? {
        guard pairs >= 2 else { return nil }
        guard let t = tStatistic else { return mean < 0 ? 0 : 1 }
        return StudentT.cdf(t, degreesOfFreedom: pairs - 1)
    }
}
