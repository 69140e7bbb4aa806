import Sim

/// Writes a run's extension records — memory events, kills, downloads, language loads,
/// token rejections and the per-run totals — into their tables (`ReportTables+Extension`).
struct ExtensionRowWriter {
    private var memory: BulkInsert
    private var kill: BulkInsert
    private var download: BulkInsert
    private var load: BulkInsert
    private var rejection: BulkInsert
    private var perRun: BulkInsert

    /// The events go row by row: a run has few of them, in counts that vary.
    init(_ database: Database) {
        memory = BulkInsert(database, ReportTables.memoryEvents.table, rowsPerStatement: 1)
        kill = BulkInsert(database, ReportTables.kills.table, rowsPerStatement: 1)
        download = BulkInsert(database, ReportTables.downloads.table, rowsPerStatement: 1)
        load = BulkInsert(database, ReportTables.languageLoads.table, rowsPerStatement: 1)
        rejection = BulkInsert(database, ReportTables.tokenRejections.table, rowsPerStatement: 1)
        perRun = BulkInsert(database, ReportTables.extensionPerRun.table)
    }

    /// Writes the per-run totals, and with `events` every memory event, kill, download,
    /// load and rejection.
    mutating func write(_ records: ExtensionRecords, runID: Int64, events: Bool = true) throws {
        if events { try writeEvents(records, runID: runID) }
        try writePerRun(records, runID: runID)
    }

    private mutating func writeEvents(_ records: ExtensionRecords, runID: Int64) throws {
        let m = ReportTables.memoryEvents
        try memory.begin(rows: records.memory.count)
        for (seq, e) in records.memory.enumerated() {
            try memory.set(m.runID, runID)
            try memory.set(m.seq, seq)
            try memory.set(m.timeNs, e.time.nanoseconds)
            try memory.set(m.footprintMB, Self.megabytes(e.footprintMegabytes))
            try memory.set(m.component, e.component.rawValue)
            try memory.set(m.event, e.event.rawValue)
            try memory.set(m.language, e.language)
            try memory.endRow()
        }
        try memory.finish()
        let k = ReportTables.kills
        try kill.begin(rows: records.kills.count)
        for e in records.kills {
            try kill.set(k.runID, runID)
            try kill.set(k.killID, e.id)
            try kill.set(k.timeNs, e.time.nanoseconds)
            try kill.set(k.restartedNs, e.restarted.nanoseconds)
            try kill.set(k.restartNs, e.restartDuration.nanoseconds)
            try kill.set(k.footprintMB, Self.megabytes(e.footprintMegabytes))
            try kill.set(k.limitMB, Self.megabytes(e.limitMegabytes))
            try kill.set(k.tasksLost, e.tasksLost)
            try kill.set(k.suggestionsLost, e.suggestionsLost)
            try kill.set(k.checksLost, e.checksLost)
            try kill.set(k.chipsLost, e.chipsLost)
            try kill.set(k.requestsAbandoned, e.requestsAbandoned)
            try kill.set(k.downloadsInterrupted, e.downloadsInterrupted)
            try kill.set(k.keysHeld, e.keysHeld.count)
            try kill.endRow()
        }
        try kill.finish()
        let d = ReportTables.downloads
        try download.begin(rows: records.downloads.count)
        for e in records.downloads.sorted(by: { $0.id < $1.id }) {
            try download.set(d.runID, runID)
            try download.set(d.downloadID, e.id)
            try download.set(d.language, e.language)
            try download.set(d.startNs, e.start.nanoseconds)
            try download.set(d.endNs, e.end.nanoseconds)
            try download.set(d.sizeBytes, e.sizeBytes)
            try download.set(d.bytes, e.bytes)
            try download.set(d.outcome, e.outcome.rawValue)
            try download.endRow()
        }
        try download.finish()
        let l = ReportTables.languageLoads
        try load.begin(rows: records.loads.count)
        for (seq, e) in records.loads.enumerated() {
            try load.set(l.runID, runID)
            try load.set(l.seq, seq)
            try load.set(l.timeNs, e.time.nanoseconds)
            try load.set(l.language, e.language)
            try load.set(l.bytesOnDisk, e.bytesOnDisk)
            try load.set(l.sizeBytes, e.sizeBytes)
            try load.set(l.verified, e.verified)
            try load.set(l.outcome, e.outcome.rawValue)
            try load.endRow()
        }
        try load.finish()
        let r = ReportTables.tokenRejections
        try rejection.begin(rows: records.tokenRejections.count)
        for (seq, e) in records.tokenRejections.enumerated() {
            try rejection.set(r.runID, runID)
            try rejection.set(r.seq, seq)
            try rejection.set(r.requestID, e.requestID)
            try rejection.set(r.attemptNs, e.attempt.nanoseconds)
            try rejection.set(r.rejectedNs, e.rejected.nanoseconds)
            try rejection.set(r.retryNs, e.retry?.nanoseconds)
            try rejection.set(r.reason, e.reason.rawValue)
            try rejection.set(r.keyboardGeneration, e.keyboardGeneration)
            try rejection.set(r.serverGeneration, e.serverGeneration)
            try rejection.set(r.addedNs, e.added.nanoseconds)
            try rejection.endRow()
        }
        try rejection.finish()
    }

    private mutating func writePerRun(_ records: ExtensionRecords, runID: Int64) throws {
        let p = ReportTables.extensionPerRun
        let totals = records.totals
        var addedNs: Int64 = 0
        for r in records.tokenRejections where r.reason == .expired { addedNs += r.added.nanoseconds }
        try perRun.insertRow { row in
            try row.set(p.runID, runID)
            try row.set(p.peakFootprintMB, Self.megabytes(totals.peakFootprintMegabytes))
            try row.set(p.kills, records.kills.count)
            try row.set(p.keysHeld, records.kills.reduce(0) { $0 + $1.keysHeld.count })
            try row.set(p.downloads, records.downloads.count)
            try row.set(p.downloadsInterrupted, records.downloads.count { $0.outcome != .complete })
            try row.set(p.verificationFailures, records.verificationFailures)
            try row.set(p.corruptLoads, records.corruptLoads)
            try row.set(p.silentlyWrongSuggestions, totals.silentlyWrongSuggestions)
            try row.set(p.silentlyWrongChecks, totals.silentlyWrongChecks)
            try row.set(p.tokenRejections, records.tokenRejections.count)
            try row.set(p.revokedRequests, records.tokenRejections.count { $0.reason == .revoked })
            try row.set(p.tokenAddedNs, addedNs)
        }
    }

    /// Megabytes rounded to the byte (six decimals): footprints are sums of component sizes,
    /// and 22 + 8 + 12 + 7.6 + 7.6 + 0.2 would otherwise be stored as 57.400000000000006.
    private static func megabytes(_ x: Double) -> Double { (x * 1e6).rounded() / 1e6 }
}
