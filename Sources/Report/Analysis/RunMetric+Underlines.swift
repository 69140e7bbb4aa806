import Sim

/// What the underlines cost and bought, per run: the figures a speculative-underline policy
/// is judged on.
extension RunMetric {
    /// Share of local underlines the cloud retracted.
    public static let localRetractionShare = RunMetric(
        name: "local_retraction_share", label: "local underlines retracted (share)", unit: "share", lowerIsBetter: true,
        description: "Local underlines the cloud retracted, over all local underlines of the run."
    ) { run in
        let local = run.observations.underlines.filter { $0.origin == .local }
        return local.isEmpty ? nil : share(local.lazy.map { $0.outcome == .retracted })
    }

    /// Share of shown underlines that were on real errors.
    public static let underlinePrecision = RunMetric(
        name: "underline_precision", label: "underline precision (share)", unit: "share", lowerIsBetter: false,
        description: "Shown underlines (local or cloud) that were on real errors, over all shown underlines."
    ) { run in
        let shown = run.observations.underlines.filter { $0.shown != nil }
        return shown.isEmpty ? nil : share(shown.lazy.map(\.trueError))
    }

    /// Share of real errors that got an underline.
    public static let underlineRecall = RunMetric(
        name: "underline_recall", label: "underline recall (share)", unit: "share", lowerIsBetter: false,
        description: "Real errors among finished words that were shown an underline, over all finished words that were errors."
    ) { run in
        let errorWords = run.summary.counters.errorWordsFinished
        guard errorWords > 0 else { return nil }
        return min(1.0, 1.0 * Double(run.observations.underlines.count { $0.trueError && $0.shown != nil }) / Double(errorWords))
    }

    /// Seconds false local underlines stayed visible, per 100 words.
    public static let falseUnderlineSecondsPer100Words = RunMetric(
        name: "false_underline_seconds_per_100_words", label: "false underlines visible (s per 100 words)",
        unit: "s per 100 words", lowerIsBetter: true,
        description: "Seconds that local underlines on correct words were visible, per 100 words of final text: what speculation costs the user."
    ) { run in
        guard run.summary.words > 0 else { return nil }
        let visible = run.observations.underlines.reduce(Int64(0)) { sum, u in
            guard u.origin == .local, !u.trueError, let shown = u.shown else { return sum }
            return sum + (u.end - shown).nanoseconds
        }
        return 100.0 * Double(visible) / 1e9 / Double(run.summary.words)
    }

    /// The underline metrics, in table order.
    static let underlineMetrics = [localRetractionShare, underlinePrecision, underlineRecall, falseUnderlineSecondsPer100Words]
}
