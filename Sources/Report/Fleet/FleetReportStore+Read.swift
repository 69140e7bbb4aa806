import Scenarios
import Sim

/// Reading fleets back: every additive figure and histogram bucket as written, so that a
/// fleet read back is the `FleetReport` that was written (`wallSeconds` aside).
extension FleetReportStore {
    /// The `fleet_id`s of the fleets `database` holds, ascending; none when it has no fleet
    /// tables.
    public static func fleetIDs(_ database: Database) throws(SQLiteError) -> [Int64] {
        guard try database.tableExists(ReportTables.fleetSummary.table.name) else { return [] }
        return try database.query("SELECT fleet_id FROM fleet_summary ORDER BY fleet_id").map { row in
            if case .integer(let id) = row[0] { id } else { 0 }
        }
    }

    /// Reads the fleet `fleetID` of `store`.
    /// - Throws: `ReportError` when it is not there or its rows do not hold together.
    public static func read(_ store: ReportStore, fleetID: Int64) throws(ReportError) -> FleetReport {
        try reporting(store.path) { try read(store.database, fleetID: fleetID, path: store.path) }
    }

    private static func read(_ db: Database, fleetID: Int64, path: String) throws -> FleetReport {
        let s = ReportTables.fleetSummary
        let handles: [any TableColumnHandle] = [s.scenarioName, s.scenarioPath, s.fingerprint, s.seed, s.users, s.represents, s.partitionCount,
                                                s.partitions, s.minutes, s.sessions, s.sessionsOpenMax, s.wallSeconds, s.spanMinutes,
                                                s.startHour, s.dayShare]
        let columns = handles.map { s.table.columns[Int($0.index)].name }
        let rows = try db.query("SELECT \(columns.joined(separator: ", ")) FROM fleet_summary WHERE fleet_id = ?", [.integer(fleetID)])
        guard let row = rows.first else { throw ReportError(file: path, message: "holds no fleet \(fleetID)") }
        func int(_ index: Int) -> Int64 { if case .integer(let v) = row[index] { v } else { 0 } }
        func real(_ index: Int) -> Double { if case .real(let v) = row[index] { v } else { Double(int(index)) } }
        func text(_ index: Int) -> String { if case .text(let v) = row[index] { v } else { "" } }
        func bad(_ message: String) -> ReportError { ReportError(file: path, message: "fleet \(fleetID): \(message)") }
        func array(_ index: Int) throws -> [Int] {
            let json = text(index)
            let values = json.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
            guard json.first == "[", json.last == "]", json == "[]" || values.allSatisfy({ $0 != nil }) else {
                throw bad("fleet_summary.\(columns[index]) is not a JSON array of whole numbers")
            }
            return json == "[]" ? [] : values.map { $0! }
        }
        let partitions = try array(7)
        let sessionsOpenMax = try array(10)
        guard partitions.count == sessionsOpenMax.count, zip(partitions, partitions.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw bad("fleet_summary.partitions and sessions_open_max do not match (ascending partitions, one figure each)")
        }
        let minutes = try readMinutes(db, fleetID: fleetID, count: Int(int(8)), bad: bad)
        let result = FleetResult(scenarioName: text(0), fingerprint: text(2), seed: UInt64(bitPattern: int(3)), users: Int(int(4)),
                                 represents: Int(int(5)), partitionCount: Int(int(6)), partitions: partitions, spanMinutes: Int(int(12)),
                                 startHour: Int(int(13)), dayShare: real(14), minutes: minutes, sessions: Int(int(9)),
                                 sessionsOpenMax: sessionsOpenMax)
        return FleetReport(result, scenarioPath: text(1), wallSeconds: real(11))
    }

    private static func readMinutes(_ db: Database, fleetID: Int64, count: Int, bad: (String) -> ReportError) throws -> [FleetMinute] {
        let m = ReportTables.fleetMinutes
        let list = m.table.columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
        let select = try db.prepare("SELECT \(list) FROM fleet_minutes WHERE fleet_id = ? ORDER BY minute")
        try select.bind(fleetID, at: 1)
        var minutes: [FleetMinute] = []
        minutes.reserveCapacity(count)
        try select.forEachRow { row in
            func int(_ column: TableColumn<Int64>) -> Int64 { row.int64(at: column.index) }
            var minute = FleetMinute(minute: Int(int(m.minute)), replicas: Int(int(m.replicas)))
            guard minute.minute == minutes.count else { throw bad("fleet_minutes lacks minute \(minutes.count)") }
            minute.backend.arrivals = Int(int(m.arrivals))
            minute.backend.admitted = Int(int(m.admitted))
            minute.backend.rejected = m.rejected.map { Int(int($0)) }
            minute.backend.started = Int(int(m.started))
            minute.backend.served = Int(int(m.served))
            minute.backend.abandoned = Int(int(m.abandoned))
            minute.backend.queueWaitNanos = int(m.queueWaitNs)
            minute.backend.queueLengthNanos = int(m.queueRequestNs)
            minute.backend.busyReplicaNanos = int(m.busyReplicaNs)
            minute.backend.batchedRequestNanos = int(m.batchedRequestNs)
            minute.backend.inputTokens = int(m.inputTokens)
            minute.backend.cachedTokens = int(m.cachedTokens)
            minute.backend.outputTokens = int(m.outputTokens)
            minute.backend.costPicoUSD = int(m.costPicoUSD)
            minute.sessionsStarted = Int(int(m.sessionsStarted))
            minute.openSessionNanos = int(m.openSessionNs)
            minute.keys = Int(int(m.keys))
            minute.underlinesEnded = Int(int(m.underlinesEnded))
            minute.underlinesWithVerdict = Int(int(m.underlinesWithVerdict))
            minutes.append(minute)
        }
        guard minutes.count == count else { throw bad("fleet_minutes holds \(minutes.count) minutes, fleet_summary says \(count)") }

        let names = Dictionary(uniqueKeysWithValues: histogramMetrics.enumerated().map { ($0.element.name, $0.offset) })
        var buckets = Array(repeating: Array(repeating: [(index: Int, count: Int)](), count: histogramMetrics.count), count: count)
        let h = try db.prepare("SELECT minute, metric, bucket, count FROM fleet_histograms WHERE fleet_id = ? ORDER BY minute, metric, bucket")
        try h.bind(fleetID, at: 1)
        try h.forEachRow { row in
            let minute = Int(row.int64(at: 0))
            guard case .text(let metric) = row.value(at: 1), let which = names[metric], buckets.indices.contains(minute) else {
                throw bad("fleet_histograms holds a bucket of no minute or latency of the fleet (minute \(minute))")
            }
            buckets[minute][which].append((Int(row.int64(at: 2)), Int(row.int64(at: 3))))
        }
        for index in minutes.indices {
            for (which, metric) in histogramMetrics.enumerated() where !buckets[index][which].isEmpty {
                minutes[index][keyPath: metric.path] = LatencyHistogram(buckets: buckets[index][which])
            }
        }
        return minutes
    }
}
