extension ReportDigest {
    /// The underlines per batch (pooled over its runs), or for one run: local underlines by
    /// what happened first (confirmed, retracted, edited or dropped), the share of them the
    /// cloud settled while they showed (verdict coverage, pooled over the runs), the cloud's own
    /// findings, precision and recall, and the seconds false local underlines stayed visible.
    /// Empty when no run underlined anything.
    static func underlineTable(_ db: Database, scope: Scope, label: String) throws -> Table {
        let headers = ["batch", "policy / point", "local", "confirmed", "retracted", "retracted share", "edited or dropped",
                       "verdict coverage (pooled)", "found by the cloud", "precision", "recall", "false underlines (s per 100 words, pooled)"]
        let numeric = [true, false, true, true, true, true, true, true, true, true, true, true]
        let formats: [Format] = [.integer, .text, .integer, .integer, .integer, .percent, .integer, .percent, .integer, .percent, .percent, .fixed1]
        let filter = "AND " + scope.runs()
        return try table(db, headers: headers, numeric: numeric, sql: """
            WITH u AS (
                SELECT u.*, r.batch_id FROM underlines u JOIN runs r USING (run_id) WHERE 1 = 1 \(filter)
            ), per_batch AS (
                SELECT r.batch_id, SUM(r.words) AS words, SUM(r.error_words_finished) AS errors
                FROM runs r WHERE 1 = 1 \(filter) GROUP BY r.batch_id
            )
            SELECT b.batch_id, \(label),
                   SUM(u.origin = 'local'),
                   SUM(u.origin = 'local' AND u.confirmed_ns IS NOT NULL),
                   SUM(u.origin = 'local' AND u.confirmed_ns IS NULL AND u.outcome = 'retracted'),
                   1.0 * SUM(u.origin = 'local' AND u.confirmed_ns IS NULL AND u.outcome = 'retracted') / NULLIF(SUM(u.origin = 'local'), 0),
                   SUM(u.origin = 'local' AND u.confirmed_ns IS NULL AND u.outcome IN ('edited', 'dropped', 'field-changed')),
                   1.0 * SUM(u.origin = 'local' AND (u.confirmed_ns IS NOT NULL OR u.outcome = 'retracted'))
                       / NULLIF(SUM(u.origin = 'local'), 0),
                   SUM(u.origin = 'cloud'),
                   1.0 * SUM(u.shown_ns IS NOT NULL AND u.true_error) / NULLIF(SUM(u.shown_ns IS NOT NULL), 0),
                   MIN(1.0, 1.0 * SUM(u.shown_ns IS NOT NULL AND u.true_error) / NULLIF(p.errors, 0)),
                   100.0 * COALESCE(SUM(CASE WHEN u.origin = 'local' AND NOT u.true_error AND u.shown_ns IS NOT NULL
                                             THEN u.end_ns - u.shown_ns END), 0) / 1e9 / NULLIF(p.words, 0)
            FROM u JOIN batches b ON b.batch_id = u.batch_id JOIN per_batch p ON p.batch_id = u.batch_id
            GROUP BY b.batch_id ORDER BY b.batch_id
            """, formats: formats)
    }
}
