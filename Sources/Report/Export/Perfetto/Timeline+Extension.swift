extension Timeline {
    /// Interval tables of the extension's life: kills to restarts, language downloads, and
    /// token refusals (attempt to refusal).
    static let extensionSources = [
        Source(track: "extension (killed → restarted)", category: "kill", table: "kills", starts: ["time_ns"], ends: ["restarted_ns"],
               name: "'killed at ' || printf('%.1f', t.footprint_mb) || ' MB'", nameColumns: ["footprint_mb"]),
        Source(track: "language downloads", category: "download", table: "downloads", starts: ["start_ns"], ends: ["end_ns"],
               name: "'download ' || t.language || ' (' || t.outcome || ')'", nameColumns: ["language", "outcome"]),
        Source(track: "token rejections (attempt → refused)", category: "token", table: "token_rejections", starts: ["attempt_ns"],
               ends: ["rejected_ns"], name: "'token ' || t.reason", nameColumns: ["reason"]),
    ]

    /// An instant per change of the extension's footprint (start, language load, eviction,
    /// cache growth, kill, restart), with the footprint after it.
    static func memoryInstants(_ db: Database, runID: Int64) throws -> [Slice] {
        guard try db.tableExists("memory_events") else { return [] }
        let rows = try db.query("""
            SELECT time_ns, footprint_mb, component, event, COALESCE(language, '') FROM memory_events WHERE run_id = ? ORDER BY seq
            """, [.integer(runID)])
        return rows.map { row in
            let language = row[4].textValue.isEmpty ? "" : " \(row[4].textValue)"
            return Slice(startNs: row[0].integerValue, endNs: row[0].integerValue, name: "\(row[3].textValue) \(row[2].textValue)\(language)",
                         category: "memory", args: [Arg(name: "footprint_mb", value: row[1])], isInstant: true)
        }
    }

    /// The footprint as a counter, one sample per instant at which it changed: when several
    /// changes share an instant (the process starts and loads its bundled language at 0), the
    /// footprint after the last of them, as a counter cannot hold two values at one time.
    static func memoryCounter(_ db: Database, runID: Int64) throws -> [Counter] {
        guard try db.tableExists("memory_events") else { return [] }
        let rows = try db.query("SELECT time_ns, footprint_mb FROM memory_events WHERE run_id = ? ORDER BY seq", [.integer(runID)])
        var samples: [Counter.Sample] = []
        for row in rows {
            let sample = Counter.Sample(timeNs: row[0].integerValue, value: row[1].doubleValue ?? 0)
            if samples.last?.timeNs == sample.timeNs { samples[samples.count - 1] = sample } else { samples.append(sample) }
        }
        return samples.isEmpty ? [] : [Counter(name: "memory footprint (MB)", unit: "MB", isCount: false, samples: samples)]
    }

    /// Each executor's queue, the tasks released and not yet started (a task cancelled while
    /// queued leaves at its cancellation), from the run's `tasks` rows.
    static func queueCounters(_ db: Database, runID: Int64) throws -> [Counter] {
        guard try db.relationExists("tasks") else { return [] }
        let rows = try db.query("""
            SELECT executor, release_ns AS t, 1 FROM tasks WHERE run_id = ?1
            UNION ALL SELECT executor, start_ns AS t, -1 FROM tasks WHERE run_id = ?1
            ORDER BY 1, 2, 3
            """, [.integer(runID)])
        var counters: [Counter] = []
        var waiting = 0
        for row in rows {
            let executor = row[0].textValue
            let name = "\(executor) thread queue (tasks waiting)"
            if counters.last?.name != name {
                counters.append(Counter(name: name, unit: "tasks", isCount: true, samples: []))
                waiting = 0
            }
            waiting += Int(row[2].integerValue)
            Self.append(&counters[counters.count - 1], at: row[1].integerValue, Double(waiting))
        }
        // The main thread first, as its track is.
        return counters.filter { $0.name.hasPrefix("main ") } + counters.filter { !$0.name.hasPrefix("main ") }
    }

    /// Cloud requests sent and not yet ended.
    static func requestsInFlightCounter(_ db: Database, runID: Int64) throws -> [Counter] {
        guard try db.relationExists("requests") else { return [] }
        let rows = try db.query("""
            SELECT sent_ns AS t, 1 FROM requests WHERE run_id = ?1 AND sent_ns IS NOT NULL AND end_ns IS NOT NULL
            UNION ALL SELECT end_ns AS t, -1 FROM requests WHERE run_id = ?1 AND sent_ns IS NOT NULL AND end_ns IS NOT NULL
            ORDER BY 1, 2
            """, [.integer(runID)])
        var counter = Counter(name: "cloud requests in flight", unit: "requests", isCount: true, samples: [])
        var inFlight = 0
        for row in rows {
            inFlight += Int(row[1].integerValue)
            append(&counter, at: row[0].integerValue, Double(inFlight))
        }
        return counter.samples.isEmpty ? [] : [counter]
    }

    /// Appends a sample where the value changes: a sample at the time of the last replaces it
    /// (only the value after every change at an instant is kept), and one that repeats the
    /// value before it is left out.
    private static func append(_ counter: inout Counter, at timeNs: Int64, _ value: Double) {
        if counter.samples.last?.timeNs == timeNs { counter.samples.removeLast() }
        if counter.samples.last?.value == value { return }
        counter.samples.append(Counter.Sample(timeNs: timeNs, value: value))
    }
}
