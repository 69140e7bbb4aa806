extension ReportDigest {
    /// Touches, typo rates on the drawn and the shifted layout, the touches the shift fixed
    /// and caused, and how often and how late the next-letter prediction came, per batch
    /// (pooled over its runs) or for one run, from the `touches` table. Empty when no run
    /// decided a touch (a scenario without `typing.touch`).
    static func touchTable(_ db: Database, scope: Scope, label: String) throws -> Table {
        let headers = ["batch", "policy / point", "runs", "touches", "typo rate, drawn", "typo rate, shifted",
                       "fixed by the shift", "caused by the shift", "predictions late", "mean late (ms)"]
        let numeric = [true, false] + Array(repeating: true, count: 8)
        let formats: [Format] = [.integer, .text, .integer, .integer, .percent2, .percent2, .integer, .integer, .percent2, .fixed1]
        guard try db.relationExists("touches") else { return Table(headers: headers, numeric: numeric, rows: []) }
        let filter = "WHERE " + scope.runs()
        // Percentages keep two decimals, as `keysim run` prints them: typo rates are a few
        // percent and the shift moves them by tenths. Lateness is averaged over the late
        // touches only, also as `keysim run` prints it; NULL (shown as –) when none was late.
        return try table(db, headers: headers, numeric: numeric, sql: """
            SELECT b.batch_id, \(label), COUNT(DISTINCT t.run_id), COUNT(*),
                   AVG(t.plain_typo), AVG(t.shifted_typo),
                   SUM(t.plain_typo = 1 AND t.shifted_typo = 0), SUM(t.plain_typo = 0 AND t.shifted_typo = 1),
                   1.0 - AVG(t.ready), AVG(CASE WHEN t.ready = 0 THEN t.late_ns END) / 1e6
            FROM touches t JOIN runs r USING (run_id) JOIN batches b ON b.batch_id = r.batch_id
            \(filter) GROUP BY b.batch_id ORDER BY b.batch_id
            """, formats: formats)
    }
}
