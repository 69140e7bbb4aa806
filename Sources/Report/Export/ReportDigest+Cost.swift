extension ReportDigest {
    /// What the cloud cost, per batch (the mean of its runs' values, as `compare` and `gate`
    /// take them) or for one run: tokens per 100 words, dollars per 1,000 words and per
    /// user-day, and the requests refused, from `run_metrics` — so a summary report, which
    /// keeps no request rows, has it too. Empty when no run sent a request.
    static func costTable(_ db: Database, scope: Scope, label: String) throws -> Table {
        let metrics = RunMetric.cloudMetrics
        let headers = ["batch", "policy / point", "runs", "input tokens per 100 words", "cached", "output",
                       "USD per 1,000 words", "USD per user-day", "requests refused"]
        let numeric = [true, false] + Array(repeating: true, count: 7)
        let formats: [Format] = [.integer, .text, .integer, .fixed1, .fixed1, .fixed1, .usd, .usd, .fixed1]
        let filter = "AND " + scope.runs()
        let columns = metrics.map { "AVG(CASE WHEN m.metric = '\($0.name)' THEN m.value END)" }.joined(separator: ", ")
        return try table(db, headers: headers, numeric: numeric, sql: """
            SELECT b.batch_id, \(label), COUNT(DISTINCT m.run_id), \(columns)
            FROM run_metrics m JOIN runs r USING (run_id) JOIN batches b ON b.batch_id = r.batch_id
            WHERE m.metric IN (\(metrics.map { "'\($0.name)'" }.joined(separator: ", "))) \(filter)
            GROUP BY b.batch_id HAVING COUNT(CASE WHEN m.metric = '\(RunMetric.inputTokensPer100Words.name)' THEN 1 END) > 0
            ORDER BY b.batch_id
            """, formats: formats)
    }
}
