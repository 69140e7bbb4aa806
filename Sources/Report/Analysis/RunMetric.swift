import Scenarios
import Sim

/// A figure computed for every run, declared once: its name, label, unit, direction, a
/// sentence for the docs, and how it is computed from the run's records.
///
/// Each run's value is computed in the process, on the worker thread that ran it, from its
/// records as they stream to the report (`value(for:budgets:)`), and stored in
/// `run_metrics` — so a summary report, which keeps no item rows, has every metric, and a
/// merged report has the very values its shards computed. `RunMetric.all` is the one list
/// that `run`, `compare`, `sweep`, `gate`, the `--json` documents, the `metrics` table and
/// the metrics table of `docs/report-schema.md` (`RunMetric.catalogMarkdown`) read.
public struct RunMetric: Sendable, Equatable {
    /// Identifier in `run_metrics.metric`, snake case with the unit last.
    public let name: String
    /// Human label with the unit, for tables and charts.
    public let label: String
    /// The unit ("ms", "share", "per 100 words").
    public let unit: String
    /// Whether smaller values are better.
    public let lowerIsBetter: Bool
    /// One sentence for `metrics.description` and the docs.
    public let description: String
    /// For a metric that is a percentile of the run's values (`key_latency_p99_ms`), which
    /// one; nil for means, shares and counts. `gate` judges a `max` rule on such a metric by
    /// its one-sided upper confidence bound.
    public let percentile: Int?
    /// The latency whose per-run values the metric summarises, when a scenario can budget it
    /// (`key` for `key_latency_p99_ms`): the budget `gate` sets a percentile rule beside.
    public let latency: LatencyMetric?
    /// The metric's value for one run; nil where the run has none (no requests, no words…),
    /// which leaves the run out rather than counting it as zero.
    let compute: @Sendable (Run) -> Double?

    /// What a metric is computed from: one run's records and summary, and its budgets.
    public struct Run {
        /// Everything the run recorded.
        public let observations: ObservationBuffer
        /// The run's totals and counters.
        public let summary: ReplicationSummary
        /// The scenario's latency budgets.
        public let budgets: [Budget]
        /// Words a user types in a day (`cloud.pricing.wordsPerUserDay`), for the cost per user-day.
        public let wordsPerUserDay: Double
    }

    /// Declares a metric; `compute` says how a run's value comes from its records.
    init(name: String, label: String, unit: String, lowerIsBetter: Bool, description: String, percentile: Int? = nil,
         latency: LatencyMetric? = nil, compute: @escaping @Sendable (Run) -> Double?) {
        precondition(percentile.map { (1...99).contains($0) } ?? true, "a percentile metric names a percentile from 1 to 99")
        self.name = name
        self.label = label
        self.unit = unit
        self.lowerIsBetter = lowerIsBetter
        self.description = description
        self.percentile = percentile
        self.latency = latency
        self.compute = compute
    }

    /// Decimal places shown in tables: dollars per 1,000 words or per user-day are fractions
    /// of a cent.
    public var decimals: Int { unit == "share" ? 4 : unit.hasPrefix("USD") ? 6 : 2 }

    /// The metric's value for `result` under the scenario's `keyboard` (its budgets, its
    /// words per user-day); nil where the run has none.
    public func value(for result: RunResult, keyboard: KeyboardConfig) -> Double? {
        compute(Run(observations: result.observations, summary: result.summary, budgets: keyboard.budgets,
                    wordsPerUserDay: keyboard.cloud.pricing.wordsPerUserDay))
    }

    /// Two metrics are the same when their names are.
    public static func == (lhs: RunMetric, rhs: RunMetric) -> Bool { lhs.name == rhs.name }
}

extension RunMetric {
    /// Mean key latency (touch to inserted) of the run.
    public static let keyLatencyMeanMs = RunMetric(
        name: "key_latency_mean_ms", label: "key latency, mean (ms)", unit: "ms", lowerIsBetter: true,
        description: "Mean touch-to-inserted latency of the run's keys."
    ) { run in meanMs(run.observations.keys.lazy.map(\.latency.nanoseconds)) }

    /// 99th percentile (nearest rank) of key latency in the run.
    public static let keyLatencyP99Ms = RunMetric(
        name: "key_latency_p99_ms", label: "key latency, p99 (ms)", unit: "ms", lowerIsBetter: true,
        description: "Nearest-rank 99th percentile of the run's touch-to-inserted latencies.", percentile: 99, latency: .key
    ) { run in nearestRankMs(99, run.observations.keys.map(\.latency.nanoseconds)) }

    /// Share of the run's keys over the key budget.
    public static let keyShareOverBudget = RunMetric(
        name: "key_share_over_budget", label: "keys over budget (share)", unit: "share", lowerIsBetter: true,
        description: "Share of the run's keys whose latency exceeded the key budget."
    ) { run in
        let keys = run.observations.keys
        guard let limit = run.budgets.first(where: { $0.metric == .key })?.limit, !keys.isEmpty else { return nil }
        return share(keys.lazy.map { $0.latency > limit })
    }

    /// Cloud requests per 100 words typed: the cost side of every debounce trade-off.
    public static let requestsPer100Words = RunMetric(
        name: "requests_per_100_words", label: "cloud requests per 100 words", unit: "per 100 words", lowerIsBetter: true,
        description: "Requests sent to the cloud checker per 100 words of final text."
    ) { run in
        let s = run.summary
        return s.words > 0 ? 100.0 * Double(s.requests) / Double(s.words) : nil
    }

    /// Characters sent to the cloud per 100 words typed: the token proxy.
    public static let charactersSentPer100Words = RunMetric(
        name: "characters_sent_per_100_words", label: "characters sent per 100 words", unit: "per 100 words",
        lowerIsBetter: true,
        description: "Characters sent to the cloud checker (the token proxy) per 100 words of final text."
    ) { run in
        let words = run.summary.words
        return words > 0 ? 100.0 * Double(run.observations.requests.reduce(0) { $0 + $1.characters }) / Double(words) : nil
    }

    /// Mean round trip of the run's cloud requests, sent to answered.
    public static let requestRoundTripMeanMs = RunMetric(
        name: "request_round_trip_mean_ms", label: "request round trip, mean (ms)", unit: "ms", lowerIsBetter: true,
        description: "Mean time from sending a request to the cloud checker to its end."
    ) { run in meanMs(run.observations.requests.lazy.map(\.roundTrip.nanoseconds)) }

    /// Mean time from a word being finished to the cloud's verdict on its local underline
    /// (confirmed or retracted): how long a speculative underline stays unsettled. Its label
    /// used to say "time to confirm an underline", which retractions made untrue; the name
    /// always said verdict, so reports old and new hold it under one name.
    public static let underlineVerdictMeanMs = RunMetric(
        name: "underline_verdict_mean_ms", label: "time to verdict (confirm or retract), mean (ms)", unit: "ms", lowerIsBetter: true,
        description: "Mean time from a word being finished to the cloud confirming or retracting its local underline, over the "
            + "underlines that got a verdict (read it with `verdict_coverage`).", latency: .underlineVerdict
    ) { run in
        meanMs(run.observations.underlines.lazy.filter { $0.origin == .local }.compactMap { u -> Int64? in
            guard let verdict = u.confirmed ?? (u.outcome == .retracted ? u.end : nil) else { return nil }
            return (verdict - u.wordFinished).nanoseconds
        })
    }

    /// 95th percentile (nearest rank) of suggestion latency in the run.
    public static let suggestionLatencyP95Ms = RunMetric(
        name: "suggestion_latency_p95_ms", label: "suggestion latency, p95 (ms)", unit: "ms", lowerIsBetter: true,
        description: "Nearest-rank 95th percentile of touch-to-suggestions-shown latencies.", percentile: 95, latency: .suggestion
    ) { run in nearestRankMs(95, run.observations.suggestions.filter { $0.outcome == .shown }.map(\.latency.nanoseconds)) }

    /// Underlines retracted within the flicker window, per 100 words.
    public static let flickersPer100Words = RunMetric(
        name: "flickers_per_100_words", label: "flickers per 100 words", unit: "per 100 words", lowerIsBetter: true,
        description: "Underlines shown and retracted within the flicker window, per 100 words of final text."
    ) { run in
        let words = run.summary.words
        return words > 0 ? 100.0 * Double(run.observations.underlines.count(where: \.flicker)) / Double(words) : nil
    }

    /// Fixes that damaged the user's text.
    public static let corruptingFixes = RunMetric(
        name: "corrupting_fixes", label: "corrupting fixes", unit: "count", lowerIsBetter: true,
        description: "Accepted fixes whose result differs from the text with just the word replaced."
    ) { run in Double(run.observations.fixes.count(where: \.corrupted)) }

    /// Mean time from a dictation's stop tap to its text inserted.
    public static let dictationStopToTextMeanMs = RunMetric(
        name: "dictation_stop_to_text_mean_ms", label: "dictation stop to text, mean (ms)", unit: "ms", lowerIsBetter: true,
        description: "Mean time from the stop tap of a dictation to its text inserted at the cursor."
    ) { run in meanMs(run.observations.dictations.lazy.map(\.stopToText.nanoseconds)) }

    /// Microphone-on seconds per dictated second: the privacy and battery price of the session design.
    public static let micOnPerDictatedSecond = RunMetric(
        name: "mic_on_per_dictated_second", label: "mic-on s per dictated s", unit: "ratio", lowerIsBetter: true,
        description: "Seconds the microphone was on per second of speech dictated."
    ) { run in
        let sessions = run.observations.dictationSessions
        let dictated = sessions.reduce(Int64(0)) { $0 + $1.dictated.nanoseconds }
        guard dictated > 0 else { return nil }
        return 1.0 * Double(sessions.reduce(Int64(0)) { $0 + $1.micOn.nanoseconds }) / Double(dictated)
    }

    /// Every metric, in the order tables show them: the one list every command, document
    /// and table reads. A metric added here is computed for every run written from then
    /// on and shows up in comparisons, sweeps, gates and `--json` without other changes.
    public static let all: [RunMetric] = [
        keyLatencyMeanMs, keyLatencyP99Ms, keyShareOverBudget, suggestionLatencyP95Ms, requestsPer100Words,
        charactersSentPer100Words, requestRoundTripMeanMs, underlineVerdictMeanMs, flickersPer100Words, corruptingFixes,
        dictationStopToTextMeanMs, micOnPerDictatedSecond, keystrokeSavings, keystrokeSavingsInTime, wordPredictionRate,
        touchTypoRatePlain, touchTypoRateShifted, touchPredictionsLateShare,
    ] + verdictMetrics + underlineMetrics + extensionMetrics + cloudMetrics

    /// The metric named `name`, if it is one of `all`.
    public static func named(_ name: String) -> RunMetric? { all.first { $0.name == name } }
}

/// The two axes of the sweep trade-off chart.
///
/// The cost axis is cloud requests per 100 words; the delay axis is the mean time to the
/// cloud's verdict on a local underline (word finished to confirmed or retracted). Charts, tables
/// and the `sweeps` table read the metrics' names and labels from here.
public enum TradeOff {
    /// The horizontal axis: what a policy costs.
    public static let cost = RunMetric.requestsPer100Words
    /// The vertical axis: how long the user waits for the cloud's verdict.
    public static let delay = RunMetric.underlineVerdictMeanMs
    /// Whether `delay` is a stand-in for the time to verdict (it no longer is).
    public static let delayIsStandIn = false
    /// The label of the delay axis, saying so when it is a stand-in.
    public static var delayLabel: String {
        delayIsStandIn ? "\(delay.label) — stand-in for the time to verdict" : delay.label
    }
}
