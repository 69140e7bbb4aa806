extension ReportDigest {
    /// A metric the summary table shows when the report has it, read from `run_metrics` by
    /// name, so that metrics a later keysim adds appear once they are in the report.
    struct SummaryMetric {
        /// Its name in `run_metrics` (`verdict_coverage`).
        var name: String
        /// The column's header.
        var header: String
        /// Decimals shown; nil for a share, shown as a percentage.
        var decimals: Int?
        /// A metric the table shows only when this one is absent (the mean verdict time, when
        /// the report has no percentile of it).
        var insteadOf: String?
    }

    /// The metrics of the summary, in column order: what debounce policies trade.
    static let summaryMetrics = [
        SummaryMetric(name: "underline_verdict_p95_ms", header: "time to verdict p95 (ms)", decimals: 0),
        SummaryMetric(name: "underline_verdict_mean_ms", header: "time to verdict mean (ms)", decimals: 0,
                      insteadOf: "underline_verdict_p95_ms"),
        SummaryMetric(name: "verdict_coverage", header: "verdict coverage", decimals: nil),
        SummaryMetric(name: "cost_usd_per_1000_words", header: "cost per 1000 words (USD)", decimals: 4),
    ]

    /// One row per batch in scope (or the run): what it ran, key latency's p99 and share over
    /// its budget, cloud requests per 100 words, then the summary metrics the report has
    /// (their means over the batch's runs). Key and request figures are the digest's own
    /// (`keyLatency`, `requests`), so a summary report's come from its histograms.
    static func summaryTable(_ db: Database, scope: Scope, label: String, keyLatency: Table, requests: Table) throws -> Table {
        func column(_ table: Table, _ header: String) -> [String: String] {
            guard let index = table.headers.firstIndex(of: header) else { return [:] }
            return Dictionary(table.rows.map { ($0[0], $0[index]) }, uniquingKeysWith: { first, _ in first })
        }
        let p99 = column(keyLatency, "p99"), over = column(keyLatency, "over budget"), perWords = column(requests, "per 100 words (pooled)")
        let groups: [[SQLValue]] = if let runID = scope.runID {
            try db.query("SELECT r.run_id, \(label.replacingOccurrences(of: "b.", with: "bb.")), 1 FROM runs r JOIN batches bb ON bb.batch_id = r.batch_id WHERE r.run_id = \(runID)")
        } else {
            try db.query("""
                SELECT b.batch_id, \(label), (SELECT COUNT(*) FROM runs r WHERE r.batch_id = b.batch_id)
                FROM batches b WHERE \(scope.batches("b.batch_id")) ORDER BY b.batch_id
                """)
        }
        let present = Set(try db.query("SELECT DISTINCT metric FROM run_metrics").map(\.[0].textValue))
        let metrics = summaryMetrics.filter { present.contains($0.name) && !($0.insteadOf.map(present.contains) ?? false) }
        var table = Table(headers: [scope.runID == nil ? "batch" : "run", "policy / point", "runs", "key p99 (ms)", "keys over budget",
                                    "requests per 100 words (pooled)"] + metrics.map(\.header),
                          numeric: [true, false, true, true, true, true] + metrics.map { _ in true }, rows: [])
        let mean = try db.prepare("""
            SELECT AVG(m.value) FROM run_metrics m JOIN runs r USING (run_id) WHERE m.metric = ?1 AND (r.batch_id = ?2 OR r.run_id = ?3)
            """)
        for group in groups.prefix(rowsMax) {
            let id = group[0].integerValue, key = String(id)
            var row = [key, format(group[1], .text), String(group[2].integerValue), p99[key] ?? "–", over[key] ?? "–", perWords[key] ?? "–"]
            for metric in metrics {
                try mean.bind(.text(metric.name), at: 1)
                try mean.bind(scope.runID == nil ? .integer(id) : .null, at: 2)
                try mean.bind(scope.runID == nil ? .null : .integer(id), at: 3)
                var value: Double?
                try mean.forEachRow { value = $0.isNull(at: 0) ? nil : $0.double(at: 0) }
                row.append(value.map { x in metric.decimals.map { TextTable.fixed(x, $0) } ?? TextTable.percent(x) } ?? "–")
            }
            table.rows.append(row)
        }
        table.omittedRows = max(0, groups.count - rowsMax)
        return table
    }
}
