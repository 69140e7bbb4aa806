/// Two policies run on the same work items with the same random numbers, and for each
/// metric the paired difference with a Student-t confidence interval.
///
/// Runs pair up by (replication, trace): under common random numbers the two runs of a pair
/// see the same trace and the same draws wherever the policies do not change what is drawn,
/// so the per-pair differences vary far less than two independent samples would, and a
/// small effect shows with few replications.
public struct Comparison: Sendable, Equatable {
    /// One metric's row.
    public struct Row: Sendable, Equatable {
        /// The metric.
        public var metric: String
        /// Its label, with the unit.
        public var label: String
        /// Pairs where both runs have a value.
        public var pairs: Int
        /// Mean under A, over those pairs.
        public var meanA: Double?
        /// Mean under B, over those pairs.
        public var meanB: Double?
        /// Mean of the per-pair differences B − A.
        public var difference: Double?
        /// Lower end of the 95 % interval of the difference.
        public var ciLow: Double?
        /// Upper end of the 95 % interval of the difference.
        public var ciHigh: Double?
        /// Whether the interval excludes zero (needs at least two pairs).
        public var significant: Bool
        /// Decimal places to show.
        public var decimals: Int
    }

    /// The `comparisons` row id.
    public var id: Int64
    /// The scenario's name.
    public var scenarioName: String
    /// Label of side A (a policy, a file).
    public var labelA: String
    /// Label of side B.
    public var labelB: String
    /// Run pairs (replication × trace).
    public var pairs: Int
    /// One row per metric, in `RunMetric.all` order.
    public var rows: [Row]

    /// The confidence level of the intervals.
    public static let confidence = 0.95

    /// The table `keysim compare` prints.
    public func table() -> String {
        var table = TextTable(headers: ["metric", labelA, labelB, "difference (B − A)", "95% CI", "significant"])
        for row in rows {
            let d = Self.decimals(showing: [row.difference, row.ciLow, row.ciHigh], atLeast: row.decimals)
            let interval = row.ciLow.flatMap { low in row.ciHigh.map { "[\(TextTable.fixed(low, d)), \(TextTable.fixed($0, d))]" } } ?? "-"
            table.add([row.label, row.meanA.map { TextTable.fixed($0, d) } ?? "-", row.meanB.map { TextTable.fixed($0, d) } ?? "-",
                       row.difference.map { Self.signed($0, d) } ?? "-", interval, row.pairs < 2 ? "-" : (row.significant ? "yes" : "no")])
        }
        return table.render()
    }

    /// The decimal places that show every nonzero value with two significant digits (at least
    /// `base`, at most 6): a difference smaller than the metric's usual precision must not
    /// print as `+0.00 [0.00, 0.00]` beside "significant".
    static func decimals(showing values: [Double?], atLeast base: Int) -> Int {
        var decimals = base
        for case let value? in values where value != 0 && value.isFinite {
            var needed = 0
            var scaled = Swift.abs(value)
            while scaled < 10 && needed < 6 {
                scaled *= 10
                needed += 1
            }
            decimals = Swift.max(decimals, needed)
        }
        return decimals
    }

    /// A number with its sign, so that a difference reads as one.
    static func signed(_ value: Double, _ decimals: Int) -> String {
        let text = TextTable.fixed(value, decimals)
        return value > 0 && !text.hasPrefix("-") ? "+" + text : text
    }
}

extension Comparison {
    /// Computes the comparison of job `jobID` (two batches) from its runs' metrics and
    /// stores it in `comparisons` and `comparison_metrics`.
    static func write(_ database: Database, jobID: Int64) throws {
        let batches = try database.query(
            "SELECT batch_id, label FROM job_batches WHERE job_id = ? ORDER BY batch_index", [.integer(jobID)])
        guard batches.count == 2, case .integer(let batchA) = batches[0][0], case .integer(let batchB) = batches[1][0],
              case .text(let labelA) = batches[0][1], case .text(let labelB) = batches[1][1] else { return }
        let scenario = try database.query("SELECT scenario_name FROM jobs WHERE job_id = ?", [.integer(jobID)]).first?.first
        let pairCount = try database.query("""
            SELECT COUNT(*) FROM runs a JOIN runs b ON b.batch_id = ?2 AND b.replication = a.replication AND b.trace_index = a.trace_index
            WHERE a.batch_id = ?1
            """, [.integer(batchA), .integer(batchB)])[0][0]
        let c = ReportTables.comparisons
        var comparisonRows = BulkInsert(database, c.table)
        try comparisonRows.insertRow { row in
            try row.set(c.jobID, jobID)
            try row.set(c.scenarioName, scenario?.textValue ?? "")
            try row.set(c.labelA, labelA)
            try row.set(c.labelB, labelB)
            try row.set(c.batchA, batchA)
            try row.set(c.batchB, batchB)
            try row.set(c.pairs, pairCount.integerValue)
            try row.set(c.confidence, confidence)
        }
        let comparisonID = database.lastInsertRowID
        let pairsQuery = try database.prepare("""
            SELECT ma.value, mb.value
            FROM runs a
            JOIN runs b ON b.batch_id = ?2 AND b.replication = a.replication AND b.trace_index = a.trace_index
            JOIN run_metrics ma ON ma.run_id = a.run_id AND ma.metric = ?3
            JOIN run_metrics mb ON mb.run_id = b.run_id AND mb.metric = ?3
            WHERE a.batch_id = ?1
            ORDER BY a.replication, a.trace_index
            """)
        let m = ReportTables.comparisonMetrics
        var metricRows = BulkInsert(database, m.table)
        try metricRows.begin(rows: RunMetric.all.count)
        for (position, metric) in RunMetric.all.enumerated() {
            var valuesA: [Double] = [], valuesB: [Double] = []
            try pairsQuery.bind(batchA, at: 1)
            try pairsQuery.bind(batchB, at: 2)
            try pairsQuery.bind(metric.name, at: 3)
            try pairsQuery.forEachRow { row in
                valuesA.append(row.double(at: 0))
                valuesB.append(row.double(at: 1))
            }
            let differences = MeanInterval(zip(valuesA, valuesB).map { $1 - $0 })
            let empty = valuesA.isEmpty
            func real(_ x: Double) -> Double? { empty ? nil : x }
            try metricRows.set(m.comparisonID, comparisonID)
            try metricRows.set(m.position, position)
            try metricRows.set(m.metric, metric.name)
            try metricRows.set(m.pairs, valuesA.count)
            try metricRows.set(m.meanA, real(MeanInterval(valuesA).mean))
            try metricRows.set(m.meanB, real(MeanInterval(valuesB).mean))
            try metricRows.set(m.difference, real(differences.mean))
            try metricRows.set(m.ciLow, real(differences.mean - differences.halfWidth))
            try metricRows.set(m.ciHigh, real(differences.mean + differences.halfWidth))
            try metricRows.set(m.significant, differences.excludesZero)
            try metricRows.endRow()
        }
        try metricRows.finish()
    }

    /// The comparisons stored in a report, oldest first; `jobID` limits them to one job.
    public static func load(_ database: Database, jobID: Int64? = nil) throws -> [Comparison] {
        guard try database.tableExists("comparisons") else { return [] }
        var filter = ""
        var values: [SQLValue] = []
        if let jobID { filter = " WHERE job_id = ?"; values = [.integer(jobID)] }
        let heads = try database.query(
            "SELECT comparison_id, scenario_name, label_a, label_b, pairs FROM comparisons\(filter) ORDER BY comparison_id", values)
        let rowsQuery = try database.prepare("""
            SELECT cm.metric, COALESCE(m.label, cm.metric), cm.pairs, cm.mean_a, cm.mean_b, cm.difference, cm.ci_low, cm.ci_high,
                   cm.significant, COALESCE(m.unit, '')
            FROM comparison_metrics cm LEFT JOIN metrics m USING (metric)
            WHERE cm.comparison_id = ? ORDER BY cm.position
            """)
        return try heads.map { head in
            var rows: [Row] = []
            try rowsQuery.bind(head[0], at: 1)
            try rowsQuery.forEachRow { r in
                func optional(_ column: Int32) -> Double? { r.isNull(at: column) ? nil : r.double(at: column) }
                rows.append(Row(metric: r.string(at: 0) ?? "", label: r.string(at: 1) ?? "", pairs: Int(r.int64(at: 2)),
                                meanA: optional(3), meanB: optional(4), difference: optional(5), ciLow: optional(6),
                                ciHigh: optional(7), significant: r.int64(at: 8) != 0,
                                decimals: r.string(at: 9) == "share" ? 4 : 2))
            }
            return Comparison(id: head[0].integerValue, scenarioName: head[1].textValue, labelA: head[2].textValue,
                              labelB: head[3].textValue, pairs: Int(head[4].integerValue), rows: rows)
        }
    }
}

extension SQLValue {
    /// The integer, or 0 for any other kind.
    var integerValue: Int64 { if case .integer(let value) = self { value } else { 0 } }
    /// The double (integers converted), or nil for other kinds.
    var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }
    /// The text, or "" for any other kind.
    var textValue: String { if case .text(let value) = self { value } else { "" } }
}
