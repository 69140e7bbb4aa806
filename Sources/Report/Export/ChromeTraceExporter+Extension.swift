import Scenarios

extension ChromeTraceExporter {
    /// Interval tables of the extension's life: kills to restarts, language downloads, and
    /// token refusals (attempt to refusal).
    static let extensionSources = [
        Source(track: "extension (killed → restarted)", category: "kill", table: "kills", starts: ["time_ns"], ends: ["restarted_ns"],
               name: "'killed at ' || printf('%.1f', t.footprint_mb) || ' MB, restart ' || t.kill_id", nameColumns: ["kill_id", "footprint_mb"]),
        Source(track: "language downloads", category: "download", table: "downloads", starts: ["start_ns"], ends: ["end_ns"],
               name: "'download ' || t.language || ' (' || t.outcome || ')'", nameColumns: ["language", "outcome"]),
        Source(track: "token rejections (attempt → refused)", category: "token", table: "token_rejections", starts: ["attempt_ns"],
               ends: ["rejected_ns"], name: "'request ' || t.request_id || ' token ' || t.reason", nameColumns: ["request_id", "reason"]),
    ]

    /// The footprint as a counter track (`"ph": "C"`), one event per change; none when the
    /// report has no `memory_events`.
    static func memoryCounterEvents(_ db: Database, runID: Int64) throws -> [String] {
        guard try db.tableExists("memory_events") else { return [] }
        let rows = try db.query("SELECT time_ns, footprint_mb FROM memory_events WHERE run_id = ? ORDER BY seq", [.integer(runID)])
        return rows.map { row in
            "{\"name\":\"memory footprint (MB)\",\"ph\":\"C\",\"ts\":\(micros(row[0].integerValue)),\"pid\":1,\"args\":{\"MB\":\(JSONWriter.value(row[1]))}}"
        }
    }
}
