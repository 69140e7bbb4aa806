import Scenarios

/// The result of a sweep: for each grid point, the mean cost (cloud requests per 100 words,
/// or the sweep's choice of `TradeOff.costChoices`) and delay with their 95 % intervals, and whether the point is on the Pareto front of the
/// trade-off between them. The axes come from `TradeOff`.
public struct Sweep: Sendable, Equatable {
    /// One grid point.
    public struct Point: Sendable, Equatable {
        /// 0-based index in grid order.
        public var index: Int
        /// Its value of each parameter, as tables show them, in parameter order.
        public var values: [String]
        /// Runs at the point.
        public var runs: Int
        /// Mean cost, if any run had one.
        public var cost: Double?
        /// Half-width of the cost's 95 % interval.
        public var costHalfWidth: Double?
        /// Mean delay, if any run had one.
        public var delay: Double?
        /// Half-width of the delay's 95 % interval.
        public var delayHalfWidth: Double?
        /// On the Pareto front of (cost, delay).
        public var onFront: Bool
    }

    /// The `sweeps` row id.
    public var id: Int64
    /// The scenario's name.
    public var scenarioName: String
    /// The swept field paths.
    public var parameters: [String]
    /// The cost metric's name.
    public var costMetric: String
    /// The delay metric's name.
    public var delayMetric: String
    /// The points, in grid order.
    public var points: [Point]

    /// The table `keysim sweep` prints.
    public func table() -> String {
        let cost = RunMetric.named(costMetric)?.label ?? costMetric
        let delay = RunMetric.named(delayMetric)?.label ?? delayMetric
        let d = costDecimals
        var table = TextTable(headers: parameters + ["runs", cost, "± 95%", delay, "± 95%", "Pareto front"])
        for point in points {
            table.add(point.values + ["\(point.runs)", point.cost.map { TextTable.fixed($0, d) } ?? "-",
                                      point.costHalfWidth.map { TextTable.fixed($0, d) } ?? "-",
                                      point.delay.map { TextTable.fixed($0, 1) } ?? "-",
                                      point.delayHalfWidth.map { TextTable.fixed($0, 1) } ?? "-", point.onFront ? "*" : ""])
        }
        return table.render()
    }

    /// Decimal places of the cost axis's values: its metric's.
    public var costDecimals: Int { RunMetric.named(costMetric)?.decimals ?? 2 }
}

extension Sweep {
    /// Computes the sweep of job `jobID` from its runs' metrics and stores it in `sweeps`
    /// and `sweep_points`.
    static func write(_ database: Database, jobID: Int64) throws {
        let job = try database.query("SELECT scenario_name, spec FROM jobs WHERE job_id = ?", [.integer(jobID)])
        guard let head = job.first else { return }
        let spec = try? JSON5Parser.parse(head[1].textValue)
        var parameters: [String] = []
        if case .array(let names)? = spec?["parameters"]?.kind {
            parameters = names.compactMap { if case .string(let name) = $0.kind { name } else { nil } }
        }
        var costMetric = TradeOff.cost
        if case .string(let name)? = spec?["costMetric"]?.kind, let chosen = RunMetric.named(name) { costMetric = chosen }
        let batches = try database.query(
            "SELECT batch_id, settings FROM job_batches WHERE job_id = ? ORDER BY batch_index", [.integer(jobID)])
        let valuesQuery = try database.prepare("""
            SELECT m.value FROM run_metrics m JOIN runs r USING (run_id) WHERE r.batch_id = ? AND m.metric = ? ORDER BY r.run_id
            """)
        let runsQuery = try database.prepare("SELECT COUNT(*) FROM runs WHERE batch_id = ?")
        func values(_ batchID: SQLValue, _ metric: RunMetric) throws -> [Double] {
            var result: [Double] = []
            try valuesQuery.bind(batchID, at: 1)
            try valuesQuery.bind(metric.name, at: 2)
            try valuesQuery.forEachRow { result.append($0.double(at: 0)) }
            return result
        }
        var points: [(batch: SQLValue, settings: String, runs: Int64, cost: MeanInterval, delay: MeanInterval)] = []
        for batch in batches {
            let runs = try runsQuery.rows([batch[0]]).first?.first?.integerValue ?? 0
            points.append((batch[0], batch[1].textValue, runs, MeanInterval(try values(batch[0], costMetric)),
                           MeanInterval(try values(batch[0], TradeOff.delay))))
        }
        let complete = points.indices.filter { points[$0].cost.count > 0 && points[$0].delay.count > 0 }
        let front = Pareto.front(complete.map { (points[$0].cost.mean, points[$0].delay.mean) })
        var onFront = Array(repeating: false, count: points.count)
        for (k, index) in complete.enumerated() { onFront[index] = front[k] }

        let parametersJSON = "[" + parameters.map(JSONWriter.quoted).joined(separator: ",") + "]"
        let w = ReportTables.sweeps
        var sweepRows = BulkInsert(database, w.table)
        try sweepRows.insertRow { row in
            try row.set(w.jobID, jobID)
            try row.set(w.scenarioName, head[0].textValue)
            try row.set(w.parameters, parametersJSON)
            try row.set(w.points, points.count)
            try row.set(w.costMetric, costMetric.name)
            try row.set(w.delayMetric, TradeOff.delay.name)
        }
        let sweepID = database.lastInsertRowID
        let p = ReportTables.sweepPoints
        var pointRows = BulkInsert(database, p.table)
        try pointRows.begin(rows: points.count)
        for (index, point) in points.enumerated() {
            try pointRows.set(p.sweepID, sweepID)
            try pointRows.set(p.pointIndex, index)
            try pointRows.set(p.batchID, point.batch.integerValue)
            try pointRows.set(p.settings, point.settings)
            try pointRows.set(p.runs, point.runs)
            try pointRows.set(p.cost, point.cost.count > 0 ? point.cost.mean : nil)
            try pointRows.set(p.costHalfWidth, point.cost.count > 0 ? point.cost.halfWidth : nil)
            try pointRows.set(p.delay, point.delay.count > 0 ? point.delay.mean : nil)
            try pointRows.set(p.delayHalfWidth, point.delay.count > 0 ? point.delay.halfWidth : nil)
            try pointRows.set(p.onFront, onFront[index])
            try pointRows.endRow()
        }
        try pointRows.finish()
    }

    /// The sweeps stored in a report, oldest first; `jobID` limits them to one job.
    public static func load(_ database: Database, jobID: Int64? = nil) throws -> [Sweep] {
        guard try database.tableExists("sweeps") else { return [] }
        var filter = ""
        var values: [SQLValue] = []
        if let jobID { filter = " WHERE job_id = ?"; values = [.integer(jobID)] }
        let heads = try database.query(
            "SELECT sweep_id, scenario_name, parameters, cost_metric, delay_metric FROM sweeps\(filter) ORDER BY sweep_id", values)
        let pointsQuery = try database.prepare("""
            SELECT point_index, settings, runs, cost, cost_half_width, delay, delay_half_width, on_front
            FROM sweep_points WHERE sweep_id = ? ORDER BY point_index
            """)
        return try heads.map { head in
            var parameters: [String] = []
            if case .array(let names)? = (try? JSON5Parser.parse(head[2].textValue))?.kind {
                parameters = names.compactMap { if case .string(let name) = $0.kind { name } else { nil } }
            }
            var points: [Point] = []
            try pointsQuery.bind(head[0], at: 1)
            try pointsQuery.forEachRow { r in
                func optional(_ column: Int32) -> Double? { r.isNull(at: column) ? nil : r.double(at: column) }
                let settings = try? JSON5Parser.parse(r.string(at: 1) ?? "{}")
                let shown = parameters.map { name in settings?[name].map(SweepGrid.display) ?? "-" }
                points.append(Point(index: Int(r.int64(at: 0)), values: shown, runs: Int(r.int64(at: 2)), cost: optional(3),
                                    costHalfWidth: optional(4), delay: optional(5), delayHalfWidth: optional(6),
                                    onFront: r.int64(at: 7) != 0))
            }
            return Sweep(id: head[0].integerValue, scenarioName: head[1].textValue, parameters: parameters,
                         costMetric: head[3].textValue, delayMetric: head[4].textValue, points: points)
        }
    }
}

/// What happens when the last batch of a job is written: the job is marked complete and,
/// when the report holds the whole job (not one shard of it), its comparison or sweep is
/// computed from the stored runs. `keysim merge` calls the same code after combining shards,
/// so a merged report holds the very rows a single machine would have written.
enum JobAnalysis {
    static func finish(_ database: Database, jobID: Int64) throws {
        try database.prepare("UPDATE jobs SET complete = 1 WHERE job_id = ?").execute([.integer(jobID)])
        let row = try database.query("SELECT command, shard_count FROM jobs WHERE job_id = ?", [.integer(jobID)])
        guard let row = row.first, row[1] == .integer(1) else { return }
        switch row[0].textValue {
        case "compare", "gate": try Comparison.write(database, jobID: jobID)
        case "sweep": try Sweep.write(database, jobID: jobID)
        default: break
        }
    }
}
