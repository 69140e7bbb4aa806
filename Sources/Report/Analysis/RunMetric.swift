/// A figure computed for every run from the report's own rows, stored in `run_metrics`,
/// and compared across policies (`keysim compare`) and sweep points (`keysim sweep`).
///
/// Each metric is one SQL query over the rows of one batch, so the same figure comes out of
/// a single-machine report and a merged one: both compute it from the same rows.
public struct RunMetric: Sendable, Equatable {
    /// Identifier in `run_metrics.metric`, snake case with the unit last.
    public let name: String
    /// Human label with the unit, for tables and charts.
    public let label: String
    /// The unit ("ms", "share", "per 100 words").
    public let unit: String
    /// Whether smaller values are better (all of ours are).
    public let lowerIsBetter: Bool
    /// One sentence for `metrics.description`.
    public let description: String
    /// A query with one parameter, `:batch` (a `batch_id`), returning `(run_id, value)` for
    /// the runs of that batch that have a value; a run without one (no requests, say) is
    /// left out rather than counted as zero.
    public let sql: String

    /// Decimal places shown in tables.
    public var decimals: Int { unit == "share" ? 4 : 2 }
}

extension RunMetric {
    /// Mean key latency (touch to inserted) of the run.
    public static let keyLatencyMeanMs = RunMetric(
        name: "key_latency_mean_ms", label: "key latency, mean (ms)", unit: "ms", lowerIsBetter: true,
        description: "Mean touch-to-inserted latency of the run's keys.",
        sql: """
        SELECT k.run_id, AVG(k.latency_ns) / 1e6 FROM keys k JOIN runs r USING (run_id)
        WHERE r.batch_id = :batch GROUP BY k.run_id
        """)

    /// 99th percentile (nearest rank) of key latency in the run.
    public static let keyLatencyP99Ms = RunMetric(
        name: "key_latency_p99_ms", label: "key latency, p99 (ms)", unit: "ms", lowerIsBetter: true,
        description: "Nearest-rank 99th percentile of the run's touch-to-inserted latencies.",
        sql: nearestRankSQL(percent: 99, table: "keys"))

    /// Share of the run's keys over the key budget.
    public static let keyShareOverBudget = RunMetric(
        name: "key_share_over_budget", label: "keys over budget (share)", unit: "share", lowerIsBetter: true,
        description: "Share of the run's keys whose latency exceeded the key budget.",
        sql: """
        SELECT k.run_id, AVG(k.latency_ns > b.limit_ns) FROM keys k JOIN runs r USING (run_id)
        JOIN budgets b ON b.run_id = k.run_id AND b.metric = 'key'
        WHERE r.batch_id = :batch GROUP BY k.run_id
        """)

    /// Cloud requests per 100 words typed: the cost side of every debounce trade-off.
    public static let requestsPer100Words = RunMetric(
        name: "requests_per_100_words", label: "cloud requests per 100 words", unit: "per 100 words", lowerIsBetter: true,
        description: "Requests sent to the cloud checker per 100 words of final text.",
        sql: "SELECT run_id, 100.0 * requests / words FROM runs WHERE batch_id = :batch AND words > 0")

    /// Characters sent to the cloud per 100 words typed: the token proxy.
    public static let charactersSentPer100Words = RunMetric(
        name: "characters_sent_per_100_words", label: "characters sent per 100 words", unit: "per 100 words",
        lowerIsBetter: true,
        description: "Characters sent to the cloud checker (the token proxy) per 100 words of final text.",
        sql: """
        SELECT r.run_id, 100.0 * COALESCE(SUM(q.characters), 0) / r.words FROM runs r LEFT JOIN requests q USING (run_id)
        WHERE r.batch_id = :batch AND r.words > 0 GROUP BY r.run_id
        """)

    /// Mean round trip of the run's cloud requests, sent to answered.
    public static let requestRoundTripMeanMs = RunMetric(
        name: "request_round_trip_mean_ms", label: "request round trip, mean (ms)", unit: "ms", lowerIsBetter: true,
        description: "Mean time from sending a request to the cloud checker to its end.",
        sql: """
        SELECT q.run_id, AVG(q.round_trip_ns) / 1e6 FROM requests q JOIN runs r USING (run_id)
        WHERE r.batch_id = :batch GROUP BY q.run_id
        """)

    /// Mean time from a word being finished to the cloud's verdict on its local underline
    /// (confirmed or retracted): how long a speculative underline stays unsettled.
    public static let underlineVerdictMeanMs = RunMetric(
        name: "underline_verdict_mean_ms", label: "time to confirm an underline, mean (ms)", unit: "ms", lowerIsBetter: true,
        description: "Mean time from a word being finished to the cloud confirming or retracting its local underline.",
        sql: """
        SELECT u.run_id, AVG(COALESCE(u.confirmed_ns, CASE WHEN u.outcome = 'retracted' THEN u.end_ns END) - u.word_finished_ns) / 1e6
        FROM underlines u JOIN runs r USING (run_id)
        WHERE r.batch_id = :batch AND u.origin = 'local'
          AND (u.confirmed_ns IS NOT NULL OR u.outcome = 'retracted')
        GROUP BY u.run_id
        """)

    /// 95th percentile (nearest rank) of suggestion latency in the run.
    public static let suggestionLatencyP95Ms = RunMetric(
        name: "suggestion_latency_p95_ms", label: "suggestion latency, p95 (ms)", unit: "ms", lowerIsBetter: true,
        description: "Nearest-rank 95th percentile of touch-to-suggestions-shown latencies.",
        sql: nearestRankSQL(percent: 95, table: "suggestions", filter: "t.outcome = 'shown'"))

    /// Underlines retracted within the flicker window, per 100 words.
    public static let flickersPer100Words = RunMetric(
        name: "flickers_per_100_words", label: "flickers per 100 words", unit: "per 100 words", lowerIsBetter: true,
        description: "Underlines shown and retracted within the flicker window, per 100 words of final text.",
        sql: """
        SELECT r.run_id, 100.0 * (SELECT COUNT(*) FROM underlines u WHERE u.run_id = r.run_id AND u.flicker) / r.words
        FROM runs r WHERE r.batch_id = :batch AND r.words > 0
        """)

    /// Fixes that damaged the user's text.
    public static let corruptingFixes = RunMetric(
        name: "corrupting_fixes", label: "corrupting fixes", unit: "count", lowerIsBetter: true,
        description: "Accepted fixes whose result differs from the text with just the word replaced.",
        sql: """
        SELECT r.run_id, (SELECT COUNT(*) FROM fixes f WHERE f.run_id = r.run_id AND f.corrupted) FROM runs r
        WHERE r.batch_id = :batch
        """)

    /// Mean time from a dictation's stop tap to its text inserted.
    public static let dictationStopToTextMeanMs = RunMetric(
        name: "dictation_stop_to_text_mean_ms", label: "dictation stop to text, mean (ms)", unit: "ms", lowerIsBetter: true,
        description: "Mean time from the stop tap of a dictation to its text inserted at the cursor.",
        sql: """
        SELECT d.run_id, AVG(d.stop_to_text_ns) / 1e6 FROM dictations d JOIN runs r USING (run_id)
        WHERE r.batch_id = :batch GROUP BY d.run_id
        """)

    /// Microphone-on seconds per dictated second: the privacy and battery price of the session design.
    public static let micOnPerDictatedSecond = RunMetric(
        name: "mic_on_per_dictated_second", label: "mic-on s per dictated s", unit: "ratio", lowerIsBetter: true,
        description: "Seconds the microphone was on per second of speech dictated.",
        sql: """
        SELECT s.run_id, 1.0 * SUM(s.mic_on_ns) / SUM(s.dictated_ns) FROM dictation_sessions s JOIN runs r USING (run_id)
        WHERE r.batch_id = :batch GROUP BY s.run_id HAVING SUM(s.dictated_ns) > 0
        """)

    /// A per-run nearest-rank percentile (milliseconds) of `latency_ns` in `table`, for the
    /// runs of `:batch`, optionally filtered on the table's rows (aliased `t`).
    static func nearestRankSQL(percent: Int, table: String, filter: String? = nil) -> String {
        """
        SELECT run_id, MAX(CASE WHEN rank = (\(percent) * n + 99) / 100 THEN latency_ns END) / 1e6 FROM (
            SELECT t.run_id, t.latency_ns,
                   ROW_NUMBER() OVER (PARTITION BY t.run_id ORDER BY t.latency_ns) AS rank,
                   COUNT(*) OVER (PARTITION BY t.run_id) AS n
            FROM \(table) t JOIN runs r USING (run_id) WHERE r.batch_id = :batch\(filter.map { " AND \($0)" } ?? "")
        ) GROUP BY run_id
        """
    }

    /// Every metric, in the order tables show them. A metric added here is computed for
    /// every batch written from then on and shows up in comparisons without other changes.
    public static let all: [RunMetric] = [
        keyLatencyMeanMs, keyLatencyP99Ms, keyShareOverBudget, suggestionLatencyP95Ms, requestsPer100Words,
        charactersSentPer100Words, requestRoundTripMeanMs, underlineVerdictMeanMs, flickersPer100Words, corruptingFixes,
        dictationStopToTextMeanMs, micOnPerDictatedSecond, keystrokeSavings, keystrokeSavingsInTime, wordPredictionRate,
        touchTypoRatePlain, touchTypoRateShifted, touchPredictionsLateShare,
    ] + underlineMetrics + extensionMetrics

    /// The metric named `name`, if it is one of `all`.
    public static func named(_ name: String) -> RunMetric? { all.first { $0.name == name } }
}

/// The two axes of the sweep trade-off chart.
///
/// The cost axis is cloud requests per 100 words; the delay axis is the time to confirm an
/// underline (word finished to the cloud's verdict on its local underline). Charts, tables
/// and the `sweeps` table read the metrics' names and labels from here.
public enum TradeOff {
    /// The horizontal axis: what a policy costs.
    public static let cost = RunMetric.requestsPer100Words
    /// The vertical axis: how long the user waits for the cloud's verdict.
    public static let delay = RunMetric.underlineVerdictMeanMs
    /// Whether `delay` is a stand-in for the time to confirm an underline (it no longer is).
    public static let delayIsStandIn = false
    /// The label of the delay axis, saying so when it is a stand-in.
    public static var delayLabel: String {
        delayIsStandIn ? "\(delay.label) — stand-in for time to confirm an underline" : delay.label
    }
}
