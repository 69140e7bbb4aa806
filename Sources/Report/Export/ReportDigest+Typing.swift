extension ReportDigest {
    /// Keystroke savings, latency-adjusted keystroke savings and word prediction rate per
    /// batch (pooled over its runs), or for one run, from the `words` table. Empty when no
    /// run measured typing quality (the report of a scenario without a dictionary).
    static func typingQualityTable(_ db: Database, scope: Scope, label: String) throws -> Table {
        let headers = ["batch", "policy / point", "runs", "words", "keystrokes", "keystroke savings", "in time", "word prediction rate"]
        let numeric = [true, false, true, true, true, true, true, true]
        let formats: [Format] = [.integer, .text, .integer, .integer, .integer, .percent, .percent, .percent]
        guard try db.relationExists("words") else { return Table(headers: headers, numeric: numeric, rows: []) }
        let filter = "WHERE " + scope.runs()
        return try table(db, headers: headers, numeric: numeric, sql: """
            SELECT b.batch_id, \(label), COUNT(*), SUM(q.words), SUM(q.keystrokes),
                   1.0 * SUM(q.keystrokes_saved) / SUM(q.keystrokes), 1.0 * SUM(q.keystrokes_saved_in_time) / SUM(q.keystrokes),
                   1.0 * SUM(q.words_predicted) / SUM(q.words)
            FROM typing_quality_per_run q JOIN runs r USING (run_id) JOIN batches b ON b.batch_id = r.batch_id
            \(filter) GROUP BY b.batch_id ORDER BY b.batch_id
            """, formats: formats)
    }
}
