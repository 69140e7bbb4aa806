import Scenarios

/// The result of a sweep: for each grid point, the means of the trade-off's two metrics
/// (`--x`, `--y`; by default cloud requests per 100 words and the time to a verdict) with
/// their 95 % intervals, and the point's place in the trade-off as `ParetoTest` decides it
/// at the sweep's confidence: on the front, not separable from it, dominated (by which
/// point), or excluded by a constraint.
///
/// The stored columns keep the names of the first sweeps: `cost` is the x metric and `delay`
/// the y metric.
public struct Sweep: Sendable, Equatable {
    /// One grid point.
    public struct Point: Sendable, Equatable {
        /// 0-based index in grid order.
        public var index: Int
        /// Its value of each parameter, as tables show them, in parameter order ("-" where
        /// the field does not apply to the point's debounce policy).
        public var values: [String]
        /// Runs at the point.
        public var runs: Int
        /// Mean of the x metric, if any run had one.
        public var cost: Double?
        /// Half-width of its 95 % interval.
        public var costHalfWidth: Double?
        /// Mean of the y metric, if any run had one.
        public var delay: Double?
        /// Half-width of its 95 % interval.
        public var delayHalfWidth: Double?
        /// On the front: no point's means are better on both axes, and none is better at the
        /// confidence (`status == .front`).
        public var onFront: Bool
        /// Its place in the trade-off.
        public var status: ParetoTest.Status
        /// The index of the first point better on both axes at the confidence, if dominated.
        public var dominatedBy: Int?
        /// The mean and 95 % half-width of each constraint's metric, in constraint order.
        public var constrained: [MeanInterval?]
    }

    /// The `sweeps` row id.
    public var id: Int64
    /// The scenario's name.
    public var scenarioName: String
    /// The parameter columns: `policy` when several were swept, then the swept field paths.
    public var parameters: [String]
    /// The x metric's name (`sweeps.cost_metric`).
    public var costMetric: String
    /// The y metric's name (`sweeps.delay_metric`).
    public var delayMetric: String
    /// The confidence of "dominated".
    public var confidence: Double
    /// What a recommended point meets.
    public var constraints: [SweepConstraint]
    /// The points, in grid order.
    public var points: [Point]
    /// What its metrics are: runs' (`RunMetric`) or fleets' (`FleetMetric`), and so which
    /// point it recommends.
    public var subject: Subject = .runs

    /// What a sweep's points are.
    public enum Subject: Sendable, Equatable {
        /// Keyboard runs: their metrics are `RunMetric`s; every point on the front (and
        /// meeting the constraints) is recommended.
        case runs
        /// Fleet runs (`FleetSweep`): their metrics are `FleetMetric`s; the one point
        /// recommended is the best on x among those on the front that meet the constraints
        /// (the fewest replicas that keep the busiest hour's p95 verdict under a target).
        case fleet
    }

    /// The points recommended, in grid order: for runs, every point on the front that meets
    /// every constraint; for a fleet, the one of those best on x (then on y).
    public var recommended: [Point] {
        let front = points.filter { $0.status == .front }
        guard subject == .fleet else { return front }
        let lowerIsBetter = (x: axis(costMetric)?.lowerIsBetter ?? true, y: axis(delayMetric)?.lowerIsBetter ?? true)
        func key(_ p: Point) -> (Double, Double) {
            ((lowerIsBetter.x ? 1 : -1) * (p.cost ?? .infinity), (lowerIsBetter.y ? 1 : -1) * (p.delay ?? .infinity))
        }
        return front.min { key($0) < key($1) }.map { [$0] } ?? []
    }

    /// What a table shows of a metric of this sweep: its label, description, decimals and
    /// direction, from `RunMetric` or `FleetMetric` by `subject`; nil for an unknown name.
    func axis(_ name: String) -> (label: String, description: String, decimals: Int, lowerIsBetter: Bool)? {
        switch subject {
        case .runs: RunMetric.named(name).map { ($0.label, $0.description, $0.decimals, $0.lowerIsBetter) }
        case .fleet: FleetMetric.named(name).map { ($0.label, $0.description, $0.decimals, $0.lowerIsBetter) }
        }
    }

    /// The table's headers: `#`, the parameters, runs, each axis with its half-width, each
    /// constrained metric, and the point's place.
    public var headers: [String] {
        let x = axis(costMetric)?.label ?? costMetric
        let y = axis(delayMetric)?.label ?? delayMetric
        return ["#"] + parameters + ["runs", x, "± 95%", y, "± 95%"] + constraints.map(\.description) + ["trade-off"]
    }

    /// Which of `headers` hold numbers.
    public var numericColumns: [Bool] {
        // A parameter is numeric when every point's value is a number (or `-`, not applying).
        let numericParameters = parameters.indices.map { column in
            points.allSatisfy { !$0.values.indices.contains(column) || $0.values[column] == "-" || Double($0.values[column]) != nil }
        }
        return [true] + numericParameters + [true, true, true, true, true] + constraints.map { _ in true } + [false]
    }

    /// The table's rows, as `headers` names them (`empty` where a value is missing).
    public func rows(empty: String = "-") -> [[String]] {
        let x = axis(costMetric)?.decimals ?? 2
        let y = axis(delayMetric)?.decimals ?? 2
        return points.map { point in
            var row = ["\(point.index + 1)"] + point.values + ["\(point.runs)"]
            row += [point.cost.map { TextTable.fixed($0, x) } ?? empty, point.costHalfWidth.map { TextTable.fixed($0, x) } ?? empty,
                    point.delay.map { TextTable.fixed($0, y) } ?? empty, point.delayHalfWidth.map { TextTable.fixed($0, y) } ?? empty]
            for (constraint, value) in zip(constraints, point.constrained) {
                let d = axis(constraint.metric)?.decimals ?? 2
                row.append(value.map { "\(TextTable.fixed($0.mean, d)) ± \(TextTable.fixed($0.halfWidth, d))" } ?? empty)
            }
            row.append(Self.place(point))
            return row
        }
    }

    /// "front", "not separable", "dominated by #3", "excluded", "no data".
    static func place(_ point: Point) -> String {
        if point.status == .dominated, let by = point.dominatedBy { return "dominated by #\(by + 1)" }
        return point.status.rawValue
    }

    /// The table `keysim sweep` prints.
    public func table() -> String {
        var table = TextTable(headers: headers)
        for row in rows() { table.add(row) }
        return table.render()
    }

    /// The lines under the table: what each place means, and the recommendation.
    public func legend() -> [String] {
        let percent = JSONWriter.number(confidence * 100)
        var lines = [
            "front: no point's means are better on both axes; not separable: some point's means are, but none is better on both at \(percent)% confidence;",
            "dominated by #k: #k is better on both axes at \(percent)% confidence (one-sided paired t-tests on common random numbers, Bonferroni over the points compared).",
        ]
        if !constraints.isEmpty {
            lines.append("excluded: the point's mean breaks \(constraints.map(\.description).joined(separator: " or ")); excluded points neither are recommended nor dominate others.")
        }
        for (letter, name) in [("x", costMetric), ("y", delayMetric)] {
            guard let metric = axis(name) else { continue }
            lines.append("\(letter): \(metric.label): \(metric.description)")
        }
        let recommended = recommended
        // Each recommended point with its settings, or only its number when there are many.
        let named = recommended.count <= 5 && !parameters.isEmpty
        lines.append(recommended.isEmpty ? "recommended: none (no point is on the front\(constraints.isEmpty ? "" : " and meets the constraints"))"
                     : "recommended: " + recommended.map { point in
                         "#\(point.index + 1)" + (named ? " (" + zip(parameters, point.values).filter { $0.1 != "-" }
                             .map { "\($0.0)=\($0.1)" }.joined(separator: ", ") + ")" : "")
                     }.joined(separator: ", ")
                     + (subject == .fleet ? ": the \(axis(costMetric).map { $0.lowerIsBetter ? "lowest" : "highest" } ?? "best") "
                        + "\(axis(costMetric)?.label ?? costMetric) of the points on the front"
                        + (constraints.isEmpty ? "" : " meeting \(constraints.map(\.description).joined(separator: " and "))") : ""))
        return lines
    }
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
        let criteria = SweepCriteria.read(spec: spec)
        let batches = try database.query(
            "SELECT batch_id, settings FROM job_batches WHERE job_id = ? ORDER BY batch_index", [.integer(jobID)])
        // Every run's value by its work item within the batch, so that points pair up.
        let valuesQuery = try database.prepare("""
            SELECT r.replication, r.trace_index, m.value FROM run_metrics m JOIN runs r USING (run_id)
            WHERE r.batch_id = ? AND m.metric = ? ORDER BY r.run_id
            """)
        let items = try database.query("""
            SELECT DISTINCT r.replication, r.trace_index FROM runs r JOIN job_batches b USING (batch_id)
            WHERE b.job_id = ? ORDER BY r.replication, r.trace_index
            """, [.integer(jobID)]).map { [$0[0].integerValue, $0[1].integerValue] }
        let position = Dictionary(uniqueKeysWithValues: items.enumerated().map { ($1, $0) })
        func values(_ batchID: SQLValue, _ metric: RunMetric) throws -> [Double?] {
            var result = [Double?](repeating: nil, count: items.count)
            try valuesQuery.bind(batchID, at: 1)
            try valuesQuery.bind(metric.name, at: 2)
            try valuesQuery.forEachRow { row in
                if let index = position[[row.int64(at: 0), row.int64(at: 1)]] { result[index] = row.double(at: 2) }
            }
            return result
        }
        let runsQuery = try database.prepare("SELECT COUNT(*) FROM runs WHERE batch_id = ?")
        var points: [(batch: SQLValue, settings: String, runs: Int64, x: [Double?], y: [Double?], feasible: Bool)] = []
        for batch in batches {
            let runs = try runsQuery.rows([batch[0]]).first?.first?.integerValue ?? 0
            var feasible = true
            for constraint in criteria.constraints {
                guard let metric = RunMetric.named(constraint.metric) else { continue }
                let present = try values(batch[0], metric).compactMap { $0 }
                if !constraint.holds(mean: present.isEmpty ? nil : MeanInterval(present).mean) { feasible = false }
            }
            points.append((batch[0], batch[1].textValue, runs, try values(batch[0], criteria.x), try values(batch[0], criteria.y), feasible))
        }
        let outcomes = ParetoTest.classify(points.map { ParetoTest.Point(x: $0.x, y: $0.y, feasible: $0.feasible) },
                                           lowerIsBetter: (criteria.x.lowerIsBetter, criteria.y.lowerIsBetter),
                                           confidence: criteria.confidence)

        let w = ReportTables.sweeps
        var sweepRows = BulkInsert(database, w.table)
        try sweepRows.insertRow { row in
            try row.set(w.jobID, jobID)
            try row.set(w.scenarioName, head[0].textValue)
            try row.set(w.parameters, "[" + parameters.map(JSONWriter.quoted).joined(separator: ",") + "]")
            try row.set(w.points, points.count)
            try row.set(w.costMetric, criteria.x.name)
            try row.set(w.delayMetric, criteria.y.name)
            try row.set(w.confidence, criteria.confidence)
            try row.set(w.constraints, "[" + criteria.constraints.map { JSONWriter.quoted($0.description) }.joined(separator: ",") + "]")
        }
        let sweepID = database.lastInsertRowID
        let p = ReportTables.sweepPoints
        var pointRows = BulkInsert(database, p.table)
        try pointRows.begin(rows: points.count)
        for (index, point) in points.enumerated() {
            let x = MeanInterval(point.x.compactMap { $0 }), y = MeanInterval(point.y.compactMap { $0 })
            let outcome = outcomes[index]
            try pointRows.set(p.sweepID, sweepID)
            try pointRows.set(p.pointIndex, index)
            try pointRows.set(p.batchID, point.batch.integerValue)
            try pointRows.set(p.settings, point.settings)
            try pointRows.set(p.runs, point.runs)
            try pointRows.set(p.cost, x.count > 0 ? x.mean : nil)
            try pointRows.set(p.costHalfWidth, x.count > 0 ? x.halfWidth : nil)
            try pointRows.set(p.delay, y.count > 0 ? y.mean : nil)
            try pointRows.set(p.delayHalfWidth, y.count > 0 ? y.halfWidth : nil)
            try pointRows.set(p.onFront, outcome.status == .front)
            try pointRows.set(p.front, outcome.status.rawValue)
            try pointRows.set(p.dominatedBy, outcome.dominatedBy.map { Int64($0) })
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
        let heads = try database.query("""
            SELECT sweep_id, scenario_name, parameters, cost_metric, delay_metric, confidence, constraints FROM sweeps\(filter)
            ORDER BY sweep_id
            """, values)
        let pointsQuery = try database.prepare("""
            SELECT point_index, settings, runs, cost, cost_half_width, delay, delay_half_width, front, dominated_by, batch_id
            FROM sweep_points WHERE sweep_id = ? ORDER BY point_index
            """)
        let metricQuery = try database.prepare("""
            SELECT m.value FROM run_metrics m JOIN runs r USING (run_id) WHERE r.batch_id = ? AND m.metric = ? ORDER BY r.run_id
            """)
        let names = RunMetric.all.map(\.name)
        return try heads.map { head in
            func strings(_ value: SQLValue) -> [String] {
                guard case .array(let items)? = (try? JSON5Parser.parse(value.textValue))?.kind else { return [] }
                return items.compactMap { if case .string(let name) = $0.kind { name } else { nil } }
            }
            let parameters = strings(head[2])
            let constraints = strings(head[6]).compactMap { try? SweepConstraint.parse($0, metrics: names) }
            var points: [Point] = []
            try pointsQuery.bind(head[0], at: 1)
            try pointsQuery.forEachRow { r in
                func optional(_ column: Int32) -> Double? { r.isNull(at: column) ? nil : r.double(at: column) }
                let settings = try? JSON5Parser.parse(r.string(at: 1) ?? "{}")
                let shown = parameters.map { name in settings?[name].map(SweepGrid.display) ?? "-" }
                let status = ParetoTest.Status(rawValue: r.string(at: 7) ?? "") ?? .noData
                points.append(Point(index: Int(r.int64(at: 0)), values: shown, runs: Int(r.int64(at: 2)), cost: optional(3),
                                    costHalfWidth: optional(4), delay: optional(5), delayHalfWidth: optional(6),
                                    onFront: status == .front, status: status,
                                    dominatedBy: r.isNull(at: 8) ? nil : Int(r.int64(at: 8)),
                                    constrained: [MeanInterval?](repeating: nil, count: constraints.count)))
                points[points.count - 1].constrained = try constraints.map { constraint in
                    var found: [Double] = []
                    try metricQuery.bind(.integer(r.int64(at: 9)), at: 1)
                    try metricQuery.bind(constraint.metric, at: 2)
                    try metricQuery.forEachRow { found.append($0.double(at: 0)) }
                    return found.isEmpty ? nil : MeanInterval(found)
                }
            }
            return Sweep(id: head[0].integerValue, scenarioName: head[1].textValue, parameters: parameters,
                         costMetric: head[3].textValue, delayMetric: head[4].textValue,
                         confidence: head[5].doubleValue ?? 0.95, constraints: constraints, points: points)
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
