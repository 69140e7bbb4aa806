import Sim

extension ReportDigest {
    /// The latency figures of a group of runs (a batch, or one run) read from what every
    /// detail level keeps — the runs' latency histograms and metrics — for a report that
    /// keeps no item rows (`--detail summary`): the count exact, the mean exact (the runs'
    /// means weighted by their counts), percentiles and maximum from the merged histogram,
    /// within 1 % (`LatencyHistogram`).
    struct HistogramFigures {
        var count: Int
        var meanMs: Double?
        var p50Ms: Double
        var p95Ms: Double
        var p99Ms: Double
        var maxMs: Double
    }

    /// The note a table gets when some of its rows come from histograms.
    static let histogramNote = "Rows marked ≈ come from the runs' latency histograms (the report keeps no item rows at its "
        + "detail level): counts and means exact, percentiles and maxima within 1 %."

    /// `metric`'s figures over the runs that `runFilter` (SQL over `runs r`) selects, with
    /// the mean from run metric `meanMetric`; nil when the histograms hold no value.
    static func histogramFigures(_ db: Database, metric: LatencyMetric, meanMetric: String,
                                 runFilter: String) throws -> HistogramFigures? {
        let rows = try db.query("""
            SELECT h.bucket, SUM(h.count) FROM latency_histogram h JOIN runs r USING (run_id)
            WHERE h.metric = ? AND \(runFilter) GROUP BY h.bucket
            """, [.text(metric.rawValue)])
        let histogram = LatencyHistogram(buckets: rows.map { (Int($0[0].integerValue), Int($0[1].integerValue)) })
        guard histogram.count > 0 else { return nil }
        // Each run's mean weighted by its count: the exact mean of the pooled values.
        let runs = try db.query("""
            SELECT m.value, (SELECT SUM(h.count) FROM latency_histogram h WHERE h.run_id = r.run_id AND h.metric = ?)
            FROM runs r LEFT JOIN run_metrics m ON m.run_id = r.run_id AND m.metric = ? WHERE \(runFilter)
            """, [.text(metric.rawValue), .text(meanMetric)])
        var weighted = 0.0
        var counted = 0
        var complete = true
        for run in runs {
            let count = Int(run[1].integerValue)
            guard count > 0 else { continue }
            guard case .real(let mean) = run[0] else { complete = false; continue }
            weighted += mean * Double(count)
            counted += count
        }
        let (_, upper) = LatencyHistogram.range(of: histogram.buckets.last!.index)
        return HistogramFigures(count: histogram.count, meanMs: complete && counted > 0 ? weighted / Double(counted) : nil,
                                p50Ms: histogram.percentile(50) / 1e6, p95Ms: histogram.percentile(95) / 1e6,
                                p99Ms: histogram.percentile(99) / 1e6, maxMs: Double(upper - 1) / 1e6)
    }

    /// `value` in milliseconds, two decimals, marked as read from a histogram.
    static func approximateMs(_ value: Double) -> String { "≈" + TextTable.fixed(value, 2) }

    /// The key-latency rows of batches that keep no key rows, from their histograms, in the
    /// columns of `key_latency_per_batch`.
    static func keyLatencyRowsFromHistograms(_ db: Database, label: String, scope: Scope, skipping shown: Set<String>) throws -> [[String]] {
        var rows: [[String]] = []
        for batch in try db.query("SELECT b.batch_id, b.scenario_name, \(label) FROM batches b WHERE \(scope.batches("b.batch_id")) ORDER BY b.batch_id") {
            let id = batch[0].integerValue
            guard !shown.contains(String(id)),
                  let figures = try histogramFigures(db, metric: .key, meanMetric: RunMetric.keyLatencyMeanMs.name,
                                                     runFilter: "r.batch_id = \(id)") else { continue }
            let budget = try db.query("""
                SELECT MAX(b.limit_ns), SUM(b.over), SUM(b.count) FROM budgets b JOIN runs r USING (run_id)
                WHERE r.batch_id = ? AND b.metric = 'key'
                """, [.integer(id)])[0]
            rows.append([String(id), batch[1].textValue, format(batch[2], .text), String(figures.count),
                         figures.meanMs.map { TextTable.fixed($0, 2) } ?? "–", approximateMs(figures.p50Ms),
                         approximateMs(figures.p95Ms), approximateMs(figures.p99Ms), approximateMs(figures.maxMs),
                         budget[0] == .null ? "–" : TextTable.fixed(Double(budget[0].integerValue) / 1e6, 0),
                         budget[2].integerValue > 0
                             ? TextTable.percent(Double(budget[1].integerValue) / Double(budget[2].integerValue)) : "–"])
        }
        return rows
    }

    /// The key-latency row of run `runID` from its histogram, in the columns of
    /// `key_latency_per_run`, or nil when it has none.
    static func keyLatencyRowFromHistograms(_ db: Database, runID: Int64) throws -> [String]? {
        guard let figures = try histogramFigures(db, metric: .key, meanMetric: RunMetric.keyLatencyMeanMs.name,
                                                 runFilter: "r.run_id = \(runID)") else { return nil }
        let budget = try db.query("SELECT over, count FROM budgets WHERE run_id = ? AND metric = 'key'", [.integer(runID)]).first
        let share = budget.flatMap { $0[1].integerValue > 0 ? Double($0[0].integerValue) / Double($0[1].integerValue) : nil }
        return [String(runID), String(figures.count), figures.meanMs.map { TextTable.fixed($0, 2) } ?? "–",
                approximateMs(figures.p50Ms), approximateMs(figures.p95Ms), approximateMs(figures.p99Ms),
                approximateMs(figures.maxMs), share.map(TextTable.percent) ?? "–"]
    }
}

extension ReportDigest {
    /// The note of a request or violation table some of whose rows come from per-run figures.
    static let perRunNote = "Rows marked ≈ come from the runs' totals, metrics and latency histograms (the report keeps "
        + "no item rows at its detail level): counts and means exact; percentiles and maxima within 1 %, of answered "
        + "requests only for round trips (the histograms' population)."

    /// Cloud-request rows, in the columns of `requests_per_batch` (or of `requests_per_run`
    /// for `runID`), of the batches (or the run) whose runs sent requests the report keeps no
    /// rows of: from `runs.requests`, the runs' metrics and their round-trip histograms.
    /// Keyed by the row's first cell (the batch or run id).
    static func requestRowsFromRuns(_ db: Database, label: String, scope: Scope) throws -> [String: [String]] {
        let runID = scope.runID
        let rows = try runID.map { try db.query("SELECT run_id, '', '' FROM runs WHERE run_id = ?", [.integer($0)]) }
            ?? db.query("SELECT b.batch_id, b.scenario_name, \(label) FROM batches b WHERE \(scope.batches("b.batch_id")) ORDER BY b.batch_id")
        var result: [String: [String]] = [:]
        for group in rows {
            let id = group[0].integerValue
            let filter = runID == nil ? "r.batch_id = \(id)" : "r.run_id = \(id)"
            // Each run's mean round trip (over all its requests) weighted by its requests.
            let totals = try db.query("""
                SELECT COUNT(*), SUM(r.requests), SUM(r.words),
                       SUM(COALESCE((SELECT m.value FROM run_metrics m WHERE m.run_id = r.run_id AND m.metric = ?), 0) * r.words / 100.0),
                       (SELECT COUNT(*) FROM requests q WHERE q.run_id IN (SELECT r.run_id FROM runs r WHERE \(filter))),
                       SUM((SELECT m.value FROM run_metrics m WHERE m.run_id = r.run_id AND m.metric = ?) * r.requests)
                FROM runs r WHERE \(filter)
                """, [.text(RunMetric.charactersSentPer100Words.name), .text(RunMetric.requestRoundTripMeanMs.name)])[0]
            let (runs, requests, words, characters, kept) = (totals[0].integerValue, totals[1].integerValue, totals[2].integerValue,
                                                              totals[3].doubleValue ?? 0, totals[4].integerValue)
            guard requests > 0, kept == 0 else { continue }
            let figures = try histogramFigures(db, metric: .requestRoundTrip, meanMetric: RunMetric.requestRoundTripMeanMs.name,
                                               runFilter: filter)
            let perWords = words > 0 ? TextTable.fixed(100 * Double(requests) / Double(words), 1) : "–"
            let mean = totals[5].doubleValue.map { TextTable.fixed($0 / Double(requests), 0) } ?? "–"
            let p95 = figures.map { "≈" + TextTable.fixed($0.p95Ms, 0) } ?? "–"
            let maximum = figures.map { "≈" + TextTable.fixed($0.maxMs, 0) } ?? "–"
            let key = String(id)
            result[key] = runID == nil
                ? [key, group[1].textValue, format(group[2], .text), String(runs), String(requests), perWords,
                   String(Int(characters.rounded())), mean, p95, maximum]
                : [key, String(requests), perWords, String(Int(characters.rounded())), mean, maximum]
        }
        return result
    }

    /// Budget rows of the batches (or the run) the report keeps no violation rows of though
    /// items went over: each budget's count over it (`budgets.over`) and the largest latency
    /// its histogram holds. In the columns of the batch violation table, or of the run's
    /// (budget, item, latency, budget, cause) with the count in place of an item.
    static func violationRowsFromBudgets(_ db: Database, label: String, scope: Scope) throws -> [[String]] {
        let runID = scope.runID
        let filter = runID.map { "r.run_id = \($0)" }
            ?? "NOT EXISTS (SELECT 1 FROM budget_violations v JOIN runs rv USING (run_id) WHERE rv.batch_id = r.batch_id) AND \(scope.runs())"
        let rows = try db.query("""
            SELECT r.batch_id, \(label), g.metric, SUM(g.over), MAX(g.limit_ns)
            FROM budgets g JOIN runs r USING (run_id) JOIN batches b ON b.batch_id = r.batch_id
            WHERE \(filter) GROUP BY r.batch_id, g.metric HAVING SUM(g.over) > 0 ORDER BY r.batch_id, g.metric
            """)
        return try rows.map { row in
            let batch = row[0].integerValue
            let limitMs = TextTable.fixed(Double(row[4].integerValue) / 1e6, 0)
            let worst = try LatencyMetric(rawValue: row[2].textValue).flatMap { metric in
                try histogramFigures(db, metric: metric, meanMetric: "", runFilter: runID.map { "r.run_id = \($0)" } ?? "r.batch_id = \(batch)")
            }.map { approximateMs($0.maxMs) } ?? "–"
            return runID == nil
                ? [String(batch), format(row[1], .text), row[2].textValue, String(row[3].integerValue), worst, limitMs]
                : [row[2].textValue, "\(row[3].integerValue) over", worst, limitMs, "items not kept at this detail level"]
        }
    }
}
