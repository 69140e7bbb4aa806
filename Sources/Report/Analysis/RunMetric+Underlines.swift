/// What the underlines cost and bought, per run: the figures a speculative-underline policy
/// is judged on.
extension RunMetric {
    /// Share of local underlines the cloud retracted.
    public static let localRetractionShare = RunMetric(
        name: "local_retraction_share", label: "local underlines retracted (share)", unit: "share", lowerIsBetter: true,
        description: "Local underlines the cloud retracted, over all local underlines of the run.",
        sql: """
        SELECT u.run_id, AVG(u.outcome = 'retracted') FROM underlines u JOIN runs r USING (run_id)
        WHERE r.batch_id = :batch AND u.origin = 'local' GROUP BY u.run_id
        """)

    /// Share of shown underlines that were on real errors.
    public static let underlinePrecision = RunMetric(
        name: "underline_precision", label: "underline precision (share)", unit: "share", lowerIsBetter: false,
        description: "Shown underlines (local or cloud) that were on real errors, over all shown underlines.",
        sql: """
        SELECT u.run_id, AVG(u.true_error) FROM underlines u JOIN runs r USING (run_id)
        WHERE r.batch_id = :batch AND u.shown_ns IS NOT NULL GROUP BY u.run_id
        """)

    /// Share of real errors that got an underline.
    public static let underlineRecall = RunMetric(
        name: "underline_recall", label: "underline recall (share)", unit: "share", lowerIsBetter: false,
        description: "Real errors among finished words that were shown an underline, over all finished words that were errors.",
        sql: """
        SELECT r.run_id, MIN(1.0, 1.0 * (SELECT COUNT(*) FROM underlines u WHERE u.run_id = r.run_id AND u.true_error
                                         AND u.shown_ns IS NOT NULL) / r.error_words_finished)
        FROM runs r WHERE r.batch_id = :batch AND r.error_words_finished > 0
        """)

    /// Seconds false local underlines stayed visible, per 100 words.
    public static let falseUnderlineSecondsPer100Words = RunMetric(
        name: "false_underline_seconds_per_100_words", label: "false underlines visible (s per 100 words)",
        unit: "s per 100 words", lowerIsBetter: true,
        description: "Seconds that local underlines on correct words were visible, per 100 words of final text: what speculation costs the user.",
        sql: """
        SELECT r.run_id, 100.0 * COALESCE((SELECT SUM(u.end_ns - u.shown_ns) FROM underlines u WHERE u.run_id = r.run_id
                                           AND u.origin = 'local' AND NOT u.true_error AND u.shown_ns IS NOT NULL), 0) / 1e9 / r.words
        FROM runs r WHERE r.batch_id = :batch AND r.words > 0
        """)

    /// The underline metrics, in table order.
    static let underlineMetrics = [localRetractionShare, underlinePrecision, underlineRecall, falseUnderlineSecondsPer100Words]
}
