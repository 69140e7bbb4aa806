import Sim

/// The cloud's verdicts as the user meets them: how many local underlines get one while they
/// still matter, and how long it takes. A debounce policy that waits longer sends fewer
/// requests but lets more words be edited, or messages sent, before the cloud has spoken; the
/// mean time to verdict alone hides that, because it averages only the underlines that got one.
extension RunMetric {
    /// Share of local underlines the cloud confirmed or retracted while they were showing.
    public static let verdictCoverage = RunMetric(
        name: "verdict_coverage", label: "local underlines with a verdict in time (share)", unit: "share", lowerIsBetter: false,
        description: "Local underlines the cloud confirmed or retracted before the chip ended (its word edited, the field changed, "
            + "the chip dropped or lost to a kill, or the run over), over all local underlines of the run. Hiding the keyboard "
            + "cancels the pending request but keeps the chip: a verdict after it is shown again still counts."
    ) { run in coverage(run.observations.underlines.lazy.filter { $0.origin == .local }) }

    /// The same share over local underlines on real errors.
    public static let errorVerdictCoverage = RunMetric(
        name: "error_verdict_coverage", label: "local underlines on errors with a verdict in time (share)", unit: "share",
        lowerIsBetter: false,
        description: "Verdict coverage over the local underlines on real errors; errors the local checker missed have no local "
            + "underline and do not count (underline recall measures them)."
    ) { run in coverage(run.observations.underlines.lazy.filter { $0.origin == .local && $0.trueError }) }

    /// Median time to the cloud's verdict over the run's local underlines that got one.
    public static let underlineVerdictP50Ms = verdictPercentile(50)
    /// 95th percentile of the time to verdict.
    public static let underlineVerdictP95Ms = verdictPercentile(95)
    /// 99th percentile of the time to verdict.
    public static let underlineVerdictP99Ms = verdictPercentile(99)

    /// The verdict metrics, in table order.
    static let verdictMetrics = [verdictCoverage, errorVerdictCoverage, underlineVerdictP50Ms, underlineVerdictP95Ms, underlineVerdictP99Ms]

    /// The share of `underlines` with a verdict (`timeToVerdict`), nil for none.
    private static func coverage<S: Sequence<UnderlineObservation>>(_ underlines: S) -> Double? {
        var count = 0
        var covered = 0
        for underline in underlines {
            count += 1
            if underline.timeToVerdict != nil { covered += 1 }
        }
        return count == 0 ? nil : Double(covered) / Double(count)
    }

    /// The nearest-rank `percent`th percentile of word finished → verdict.
    private static func verdictPercentile(_ percent: Int) -> RunMetric {
        RunMetric(
            name: "underline_verdict_p\(percent)_ms", label: "time to verdict (confirm or retract), p\(percent) (ms)", unit: "ms",
            lowerIsBetter: true,
            description: "Nearest-rank \(percent == 50 ? "median" : "\(percent)th percentile") of the time from a word being finished "
                + "to the cloud confirming or retracting its local underline, over the underlines that got a verdict "
                + "(read it with `verdict_coverage`).",
            percentile: percent, latency: .underlineVerdict
        ) { run in nearestRankMs(percent, run.observations.underlines.compactMap { $0.timeToVerdict?.nanoseconds }) }
    }
}
