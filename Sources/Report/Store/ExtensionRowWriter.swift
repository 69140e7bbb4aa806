import Sim

/// Writes a run's extension records — memory events, kills, downloads, language loads,
/// token rejections and the per-run totals — into their tables (`docs/report-schema.md`).
struct ExtensionRowWriter {
    let memory: Statement
    let kill: Statement
    let download: Statement
    let load: Statement
    let rejection: Statement
    let perRun: Statement

    init(_ database: Database) throws {
        func insert(_ table: String, _ columns: [String]) throws -> Statement {
            try database.prepare("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))")
        }
        memory = try insert("memory_events", ["run_id", "seq", "time_ns", "footprint_mb", "component", "event", "language"])
        kill = try insert("kills", ["run_id", "kill_id", "time_ns", "restarted_ns", "restart_ns", "footprint_mb", "limit_mb",
                                    "tasks_lost", "suggestions_lost", "checks_lost", "chips_lost", "requests_abandoned",
                                    "downloads_interrupted", "keys_held"])
        download = try insert("downloads", ["run_id", "download_id", "language", "start_ns", "end_ns", "size_bytes", "bytes", "outcome"])
        load = try insert("language_loads", ["run_id", "seq", "time_ns", "language", "bytes_on_disk", "size_bytes", "verified", "outcome"])
        rejection = try insert("token_rejections", ["run_id", "seq", "request_id", "attempt_ns", "rejected_ns", "retry_ns", "reason",
                                                    "keyboard_generation", "server_generation", "added_ns"])
        perRun = try insert("extension_per_run", ["run_id", "peak_footprint_mb", "kills", "keys_held", "downloads",
                                                  "downloads_interrupted", "verification_failures", "corrupt_loads",
                                                  "silently_wrong_suggestions", "silently_wrong_checks", "token_rejections",
                                                  "revoked_requests", "token_added_ns"])
    }

    /// Writes the per-run totals, and with `events` every memory event, kill, download,
    /// load and rejection.
    func write(_ records: ExtensionRecords, runID: Int64, events: Bool = true) throws {
        let run = SQLValue.integer(runID)
        var addedNs: Int64 = 0
        for r in records.tokenRejections where r.reason == .expired { addedNs += r.added.nanoseconds }
        if events { try writeEvents(records, run: run) }
        try writePerRun(records, run: run, addedNs: addedNs)
    }

    private func writeEvents(_ records: ExtensionRecords, run: SQLValue) throws {
        for (seq, m) in records.memory.enumerated() {
            try memory.execute([run, .integer(Int64(seq)), .integer(m.time.nanoseconds), megabytes(m.footprintMegabytes),
                                .text(m.component.rawValue), .text(m.event.rawValue), m.language.map(SQLValue.text) ?? .null])
        }
        for k in records.kills {
            try kill.execute([run, .integer(Int64(k.id)), .integer(k.time.nanoseconds), .integer(k.restarted.nanoseconds),
                              .integer(k.restartDuration.nanoseconds), megabytes(k.footprintMegabytes), megabytes(k.limitMegabytes),
                              .integer(Int64(k.tasksLost)), .integer(Int64(k.suggestionsLost)), .integer(Int64(k.checksLost)),
                              .integer(Int64(k.chipsLost)), .integer(Int64(k.requestsAbandoned)),
                              .integer(Int64(k.downloadsInterrupted)), .integer(Int64(k.keysHeld.count))])
        }
        for d in records.downloads.sorted(by: { $0.id < $1.id }) {
            try download.execute([run, .integer(Int64(d.id)), .text(d.language), .integer(d.start.nanoseconds), .integer(d.end.nanoseconds),
                                  .integer(Int64(d.sizeBytes)), .integer(Int64(d.bytes)), .text(d.outcome.rawValue)])
        }
        for (seq, l) in records.loads.enumerated() {
            try load.execute([run, .integer(Int64(seq)), .integer(l.time.nanoseconds), .text(l.language), .integer(Int64(l.bytesOnDisk)),
                              .integer(Int64(l.sizeBytes)), .integer(l.verified ? 1 : 0), .text(l.outcome.rawValue)])
        }
        for (seq, r) in records.tokenRejections.enumerated() {
            try rejection.execute([run, .integer(Int64(seq)), .integer(Int64(r.requestID)), .integer(r.attempt.nanoseconds),
                                   .integer(r.rejected.nanoseconds), r.retry.map { SQLValue.integer($0.nanoseconds) } ?? .null,
                                   .text(r.reason.rawValue), .integer(Int64(r.keyboardGeneration)),
                                   .integer(Int64(r.serverGeneration)), .integer(r.added.nanoseconds)])
        }
    }

    private func writePerRun(_ records: ExtensionRecords, run: SQLValue, addedNs: Int64) throws {
        let t = records.totals
        try perRun.execute([
            run, megabytes(t.peakFootprintMegabytes), .integer(Int64(records.kills.count)),
            .integer(Int64(records.kills.reduce(0) { $0 + $1.keysHeld.count })), .integer(Int64(records.downloads.count)),
            .integer(Int64(records.downloads.count { $0.outcome != .complete })), .integer(Int64(records.verificationFailures)),
            .integer(Int64(records.corruptLoads)), .integer(Int64(t.silentlyWrongSuggestions)), .integer(Int64(t.silentlyWrongChecks)),
            .integer(Int64(records.tokenRejections.count)), .integer(Int64(records.tokenRejections.count { $0.reason == .revoked })),
            .integer(addedNs),
        ])
    }

    /// Megabytes rounded to the byte (six decimals): footprints are sums of component sizes,
    /// and 22 + 8 + 12 + 7.6 + 7.6 + 0.2 would otherwise be stored as 57.400000000000006.
    private func megabytes(_ x: Double) -> SQLValue { .real((x * 1e6).rounded() / 1e6) }
}
