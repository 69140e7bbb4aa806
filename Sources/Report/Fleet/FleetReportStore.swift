import Scenarios
import Sim

/// Writes a `FleetReport` into a report file's fleet tables and reads it back exactly.
///
/// A fleet is written in one transaction — its `fleet_summary` row, a `fleet_minutes` row a
/// minute and a `fleet_histograms` row per non-empty bucket — so a report holds a fleet
/// wholly or not at all; a file may hold several fleets, each with its `fleet_id`.
public enum FleetReportStore {
    /// The histograms a minute keeps, by their `metric` name, in the order they are written.
    static var histogramMetrics: [(name: String, path: WritableKeyPath<FleetMinute, LatencyHistogram>)] {
        [("first_token", \.firstToken), ("service", \.service), ("verdict", \.verdict)]
    }

    /// Writes `report` into `store` in one transaction; returns its `fleet_id`.
    @discardableResult
    public static func write(_ report: FleetReport, to store: ReportStore) throws(ReportError) -> Int64 {
        try reporting(store.path) {
            try store.database.transaction { () throws -> Int64 in
                try ReportSchema.ensureAnalysisTables(store.database)
                return try insert(report, into: store.database)
            }
        }
    }

    /// What `body` returns; what it throws as a `ReportError` naming `path`.
    static func reporting<T>(_ path: String, _ body: () throws -> T) throws(ReportError) -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw ReportStore.describe(error, path: path)
        } catch let error as ReportError {
            throw error
        } catch {
            throw ReportError(file: path, message: "\(error)")
        }
    }

    /// Inserts `report` inside the caller's transaction; returns its `fleet_id`.
    static func insert(_ report: FleetReport, into db: Database) throws -> Int64 {
        let s = ReportTables.fleetSummary
        var summaryRow = BulkInsert(db, s.table)
        let result = report.result
        let summary = result.summary
        try summaryRow.insertRow { row in
            try row.set(s.scenarioName, result.scenarioName)
            try row.set(s.scenarioPath, report.scenarioPath)
            try row.set(s.fingerprint, result.fingerprint)
            try row.set(s.seed, Int64(bitPattern: result.seed))
            try row.set(s.users, result.users)
            try row.set(s.represents, result.represents)
            try row.set(s.partitionCount, result.partitionCount)
            try row.set(s.partitions, jsonArray(result.partitions))
            try row.set(s.spanMinutes, result.spanMinutes)
            try row.set(s.startHour, result.startHour)
            try row.set(s.dayShare, result.dayShare)
            try row.set(s.minutes, result.minutes.count)
            try row.set(s.sessions, result.sessions)
            try row.set(s.sessionsOpenMax, jsonArray(result.sessionsOpenMax))
            try row.set(s.keys, summary.keys)
            try row.set(s.arrivals, summary.arrivals)
            try row.set(s.admitted, summary.admitted)
            try row.set(s.rejected, summary.rejected.reduce(0) { $0 + $1.count })
            try row.set(s.inputTokens, summary.inputTokens)
            try row.set(s.cachedTokens, summary.cachedTokens)
            try row.set(s.outputTokens, summary.outputTokens)
            try row.set(s.costUSD, summary.costUSD)
            try row.set(s.costUSDPerDay, summary.costUSDPerDay)
            try row.set(s.costUSDPerDailyUser, summary.costUSDPerDailyUser)
            try row.set(s.rejectedShare, summary.rejectedShare)
            try row.set(s.peakToMean, summary.peakToMean)
            try row.set(s.peakArrivalsPerSecond, summary.peakArrivalsPerSecond)
            try row.set(s.busiestHour, summary.busiestHour)
            try row.set(s.busiestHourFirstTokenP95Ms, summary.busiestHourFirstTokenP95Ms)
            try row.set(s.busiestHourVerdictP95Ms, summary.busiestHourVerdictP95Ms)
            try row.set(s.firstTokenP95Ms, summary.firstTokenP95Ms)
            try row.set(s.verdictP95Ms, summary.verdictP95Ms)
            try row.set(s.verdictCoverage, summary.verdictCoverage)
            try row.set(s.utilisation, summary.utilisation)
            try row.set(s.keysimVersion, KeysimVersion.current)
            try row.set(s.createdAt, ReportStore.timestamp())
            try row.set(s.wallSeconds, report.wallSeconds)
        }
        let fleetID = db.lastInsertRowID
        try insertMinutes(result.minutes, fleetID: fleetID, into: db)
        return fleetID
    }

    private static func insertMinutes(_ minutes: [FleetMinute], fleetID: Int64, into db: Database) throws {
        let m = ReportTables.fleetMinutes
        var rows = BulkInsert(db, m.table)
        try rows.begin(rows: minutes.count)
        for minute in minutes {
            let b = minute.backend
            try rows.set(m.fleetID, fleetID)
            try rows.set(m.minute, minute.minute)
            try rows.set(m.replicas, minute.replicas)
            try rows.set(m.arrivals, b.arrivals)
            try rows.set(m.admitted, b.admitted)
            for (column, count) in zip(m.rejected, b.rejected) { try rows.set(column, count) }
            try rows.set(m.started, b.started)
            try rows.set(m.served, b.served)
            try rows.set(m.abandoned, b.abandoned)
            try rows.set(m.queueWaitNs, b.queueWaitNanos)
            try rows.set(m.queueRequestNs, b.queueLengthNanos)
            try rows.set(m.busyReplicaNs, b.busyReplicaNanos)
            try rows.set(m.batchedRequestNs, b.batchedRequestNanos)
            try rows.set(m.sessionsStarted, minute.sessionsStarted)
            try rows.set(m.openSessionNs, minute.openSessionNanos)
            try rows.set(m.keys, minute.keys)
            try rows.set(m.inputTokens, b.inputTokens)
            try rows.set(m.cachedTokens, b.cachedTokens)
            try rows.set(m.outputTokens, b.outputTokens)
            try rows.set(m.costPicoUSD, b.costPicoUSD)
            try rows.set(m.underlinesEnded, minute.underlinesEnded)
            try rows.set(m.underlinesWithVerdict, minute.underlinesWithVerdict)
            try rows.set(m.arrivalsPerSecond, minute.arrivalsPerSecond)
            try rows.set(m.queueLengthMean, minute.meanQueueLength)
            try rows.set(m.openSessionsMean, minute.meanOpenSessions)
            try rows.set(m.batchMean, minute.meanBatch)
            try rows.set(m.utilisation, minute.utilisation)
            try rows.set(m.queueWaitMeanMs, minute.meanQueueWaitMs)
            try rows.set(m.rejectedShare, minute.rejectedShare)
            try rows.set(m.verdictCoverage, minute.verdictCoverage)
            try rows.set(m.firstTokenP50Ms, FleetMinute.percentileMs(minute.firstToken, 50))
            try rows.set(m.firstTokenP95Ms, FleetMinute.percentileMs(minute.firstToken, 95))
            try rows.set(m.firstTokenP99Ms, FleetMinute.percentileMs(minute.firstToken, 99))
            try rows.set(m.serviceP50Ms, FleetMinute.percentileMs(minute.service, 50))
            try rows.set(m.serviceP95Ms, FleetMinute.percentileMs(minute.service, 95))
            try rows.set(m.verdictP50Ms, FleetMinute.percentileMs(minute.verdict, 50))
            try rows.set(m.verdictP95Ms, FleetMinute.percentileMs(minute.verdict, 95))
            try rows.endRow()
        }
        try rows.finish()

        let h = ReportTables.fleetHistograms
        var buckets = BulkInsert(db, h.table)
        let total = minutes.reduce(0) { sum, minute in sum + histogramMetrics.reduce(0) { $0 + minute[keyPath: $1.path].buckets.count } }
        try buckets.begin(rows: total)
        for minute in minutes {
            for (name, path) in histogramMetrics {
                for bucket in minute[keyPath: path].buckets {
                    try buckets.set(h.fleetID, fleetID)
                    try buckets.set(h.minute, minute.minute)
                    try buckets.set(h.metric, name)
                    try buckets.set(h.bucket, bucket.index)
                    try buckets.set(h.count, bucket.count)
                    try buckets.endRow()
                }
            }
        }
        try buckets.finish()
    }

    /// `[1,2,3]`.
    static func jsonArray(_ values: [Int]) -> String { "[" + values.map(String.init).joined(separator: ",") + "]" }
}
