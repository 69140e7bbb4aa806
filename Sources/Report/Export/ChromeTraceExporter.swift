/// One replication's timeline as a Chrome Trace Event file (`{"traceEvents": [...]}`),
/// which Perfetto UI and chrome://tracing open.
///
/// Every executor thread (and core) is a track of its tasks; keys, debounce timers, cloud
/// requests and — when the report records them — underlines and suggestion updates get
/// tracks of their own. Slices are complete (`"ph": "X"`) events in microseconds with
/// nanosecond decimals. Items that overlap in time (a key touched while the previous one
/// waits for the main thread, two requests in flight) are spread over numbered lanes, so no
/// two slices on one track overlap and Perfetto draws every one.
public struct ChromeTraceExporter: StreamExporter {
    public let name = "chrome-trace"
    public let title = "a Chrome trace of one run"
    public let fileExtension = "json"
    public let scope = ExportScope.run
    public let summary = "is one replication's timeline as Chrome Trace Event JSON (open it in Perfetto UI, ui.perfetto.dev, "
        + "or chrome://tracing)"
    public let documentation = "one replication's timeline (`--run ID`, default the first run) as Chrome Trace Event JSON: "
        + "`{\"traceEvents\": [...]}`, complete `X` events in microseconds (nanosecond decimals). Open it in Perfetto UI "
        + "(ui.perfetto.dev) or chrome://tracing"

    /// The Chrome trace exporter.
    public init() {}

    /// Writes the timeline of `--run`'s run (the first run when none is given) to `output`.
    public func write(_ source: ExportSource, to output: ReportOutput) throws {
        try Self.write(source.store, options: source.options, to: output)
    }

    /// A table whose rows are intervals of one run.
    struct Source {
        /// Track name.
        var track: String
        /// Category of its events.
        var category: String
        var table: String
        /// Candidate start and end columns; the first that exists is used.
        var starts: [String]
        var ends: [String]
        /// A SQL expression naming each slice, over the table's columns (alias `t`).
        var name: String
        /// Columns the name needs; the source is skipped when one is missing.
        var nameColumns: [String]
    }

    /// The interval tables keysim knows, in track order. A source whose table or columns the
    /// report lacks is skipped, so tracks appear as the model starts recording them.
    static let sources = [
        Source(track: "keys (touch → inserted)", category: "key", table: "keys", starts: ["touch_ns"], ends: ["inserted_ns"],
               name: "'key ' || t.key_index || ' (' || t.edit || ')'", nameColumns: ["key_index", "edit"]),
        Source(track: "suggestions", category: "suggestion", table: "suggestions", starts: ["touch_ns"], ends: ["end_ns", "shown_ns"],
               name: "'suggestion for key ' || t.key_index", nameColumns: ["key_index"]),
        Source(track: "cloud requests", category: "request", table: "requests", starts: ["sent_ns"], ends: ["answered_ns", "end_ns"],
               name: "'request ' || t.request_id || ' (' || t.trigger || ')'", nameColumns: ["request_id", "trigger"]),
        Source(track: "underlines", category: "underline", table: "underlines", starts: ["shown_ns", "word_finished_ns"],
               ends: ["end_ns"], name: "'underline ' || t.underline_id || ' (' || t.outcome || ')'",
               nameColumns: ["underline_id", "outcome"]),
        Source(track: "underlines", category: "underline", table: "underlines", starts: ["shown_ns", "word_finished_ns"],
               ends: ["end_ns"], name: "'underline ' || t.id || ' (' || t.outcome || ')'", nameColumns: ["id", "outcome"]),
        Source(track: "touches (touch → decided)", category: "touch", table: "touches", starts: ["touch_ns"], ends: ["decided_ns"],
               name: "'touch ' || t.key_index || CASE WHEN t.ready THEN '' ELSE ' (prediction late)' END"
                   + " || CASE WHEN t.plain_typo OR t.shifted_typo THEN ' (typo drawn ' || t.plain_typo || ', shifted ' || t.shifted_typo || ')' ELSE '' END",
               nameColumns: ["key_index", "ready", "plain_typo", "shifted_typo"]),
        Source(track: "fixes", category: "fix", table: "fixes", starts: ["accepted_ns"], ends: ["applied_ns", "end_ns"],
               name: "'fix of underline ' || t.underline_id", nameColumns: ["underline_id"]),
    ]

    /// One slice before lane assignment.
    struct Slice {
        var startNs: Int64
        var endNs: Int64
        var name: String
        var category: String
        /// `"key": value` pairs, already JSON.
        var args: [String]
    }

    /// Writes the timeline of `options.runID` (the first run when nil).
    public static func write(_ store: ReportStore, options: ExportOptions, to output: ReportOutput) throws {
        let db = store.database
        let runID: Int64
        if let selected = options.runID {
            try ReportInspector.checkRun(db, selected, path: store.path)
            runID = selected
        } else {
            guard case .integer(let first) = try db.query("SELECT MIN(run_id) FROM runs")[0][0] else {
                throw ReportError(file: store.path, message: "the report has no runs to draw")
            }
            runID = first
        }
        let run = try db.query("""
            SELECT scenario_name, COALESCE(policy, ''), replication, trace_index, trace_path, seed FROM runs WHERE run_id = ?
            """, [.integer(runID)])[0]
        let policy = run[1].textValue.isEmpty ? "" : " / \(run[1].textValue)"
        let processName = "keysim run \(runID): \(run[0].textValue)\(policy), replication \(run[2].integerValue), trace \(run[3].integerValue)"

        var tracks: [(name: String, slices: [Slice])] = []
        tracks += try executorTracks(db, runID: runID, options: options)
        let relations = try ReportInspector.relations(db)
        var seenTables: Set<String> = []
        for source in sources + extensionSources where !seenTables.contains(source.table) {
            guard let relation = relations.first(where: { $0.name == source.table }),
                  let start = source.starts.first(where: relation.columns.contains),
                  let end = source.ends.first(where: relation.columns.contains),
                  source.nameColumns.allSatisfy(relation.columns.contains) else { continue }
            seenTables.insert(source.table)
            let slices = try intervalSlices(db, source: source, relation: relation, start: start, end: end, runID: runID, options: options)
            tracks.append((source.track, slices))
            if source.table == "requests" {
                tracks.append(("debounce timer (armed → fired)", try debounceSlices(db, runID: runID, sentColumn: start)))
            }
        }
        tracks.append(("budget violations", try violationInstants(db, runID: runID)))
        guard tracks.contains(where: { !$0.slices.isEmpty }) else {
            // A summary report keeps no item rows: say which runs a timeline can be drawn for.
            let drawable = try db.relationExists("task_rows")
                ? try db.query("SELECT DISTINCT run_id FROM task_rows ORDER BY run_id LIMIT 10").map { String($0[0].integerValue) } : []
            let hint = drawable.isEmpty ? "no run of this report has one; write it again with --detail default or full"
                : "runs with one: \(drawable.joined(separator: ", "))"
            throw ReportError(file: store.path, message: "run \(runID) has no timeline rows to draw (its report keeps them only at some detail levels); \(hint)")
        }

        try output.write("{\"traceEvents\":[\n")
        var first = true
        func emit(_ event: String) throws {
            try output.write((first ? "" : ",\n") + event)
            first = false
        }
        try emit("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\(JSONText.quoted(processName))}}")
        var tid = 0
        for track in tracks where !track.slices.isEmpty {
            for (lane, slices) in lanes(track.slices).enumerated() {
                tid += 1
                let name = lane == 0 ? track.name : "\(track.name) \(lane + 1)"
                try emit("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":\(tid),\"args\":{\"name\":\(JSONText.quoted(name))}}")
                try emit("{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":\(tid),\"args\":{\"sort_index\":\(tid)}}")
                for slice in slices {
                    let args = "{" + slice.args.joined(separator: ",") + "}"
                    if slice.category == "violation" {
                        try emit("{\"name\":\(JSONText.quoted(slice.name)),\"cat\":\"violation\",\"ph\":\"i\",\"s\":\"t\",\"ts\":\(micros(slice.startNs)),\"pid\":1,\"tid\":\(tid),\"args\":\(args)}")
                    } else {
                        try emit("{\"name\":\(JSONText.quoted(slice.name)),\"cat\":\(JSONText.quoted(slice.category)),\"ph\":\"X\",\"ts\":\(micros(slice.startNs)),\"dur\":\(micros(slice.endNs - slice.startNs)),\"pid\":1,\"tid\":\(tid),\"args\":\(args)}")
                    }
                }
            }
        }
        for counter in try memoryCounterEvents(db, runID: runID) { try emit(counter) }
        try output.write("\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"keysim_version\":\(JSONText.quoted(KeysimVersion.current)),\"report\":\(JSONText.quoted(store.path)),\"run_id\":\(runID),\"trace_path\":\(JSONText.quoted(run[4].textValue)),\"seed\":\(run[5].integerValue)}}\n")
        try output.finish()
    }

    // MARK: - Tracks

    /// A track per executor thread and core; cancelled tasks (never run) are left out.
    private static func executorTracks(_ db: Database, runID: Int64, options: ExportOptions) throws -> [(name: String, slices: [Slice])] {
        guard try db.relationExists("tasks") else { return [] }
        var byTrack: [(key: String, slices: [Slice])] = []
        let coreCounts = try db.query("SELECT executor, COUNT(DISTINCT core) FROM tasks WHERE run_id = ? AND core >= 0 GROUP BY executor",
                                      [.integer(runID)])
        let multiCore = Set(coreCounts.filter { $0[1].integerValue > 1 }.map(\.[0].textValue))
        let statement = try db.prepare("""
            SELECT executor, core, kind, tag, task_id, release_ns, start_ns, finish_ns, deadline_ns, preemptions
            FROM tasks WHERE run_id = ? AND cancelled = 0 AND core >= 0 ORDER BY executor, core, start_ns, seq
            """)
        try statement.bind(runID, at: 1)
        try statement.forEachRow { row in
            let executor = row.string(at: 0) ?? ""
            let core = row.int64(at: 1)
            let key = executor == "main" ? "main thread" : "\(executor) thread"
            let track = multiCore.contains(executor) ? "\(key), core \(core)" : key
            var args = ["\"task_id\":\(row.int64(at: 4))", "\"tag\":\(row.int64(at: 3))",
                        "\"release_us\":\(micros(row.int64(at: 5)))",
                        "\"wait_us\":\(micros(row.int64(at: 6) - row.int64(at: 5)))"]
            if !row.isNull(at: 8) { args.append("\"deadline_us\":\(micros(row.int64(at: 8)))") }
            if row.int64(at: 9) > 0 { args.append("\"preemptions\":\(row.int64(at: 9))") }
            let slice = Slice(startNs: row.int64(at: 6), endNs: row.int64(at: 7), name: "\(row.string(at: 2) ?? "task") \(row.int64(at: 3))",
                              category: "task", args: args)
            if byTrack.last?.key == track { byTrack[byTrack.count - 1].slices.append(slice) } else { byTrack.append((track, [slice])) }
        }
        // The main thread first: it is the one the key budget is about.
        return byTrack.sorted { (a, b) in
            a.key == "main thread" || b.key == "main thread" ? a.key == "main thread" && b.key != "main thread" : a.key < b.key
        }.map { ($0.key, $0.slices) }
    }

    private static func intervalSlices(_ db: Database, source: Source, relation: ReportRelation, start: String, end: String,
                                       runID: Int64, options: ExportOptions) throws -> [Slice] {
        let argColumns = ReportInspector.exportedColumns(relation, options).filter { $0 != "run_id" && $0 != start && $0 != end }
        let order = relation.primaryKey.isEmpty ? "rowid" : relation.primaryKey.map { "t." + ReportInspector.quoted($0) }.joined(separator: ", ")
        let columns = ([start, end].map { "t." + ReportInspector.quoted($0) } + ["(\(source.name))"]
                       + argColumns.map { "t." + ReportInspector.quoted($0) }).joined(separator: ", ")
        let statement = try db.prepare("""
            SELECT \(columns) FROM \(ReportInspector.quoted(source.table)) t
            WHERE t.run_id = ? AND t.\(ReportInspector.quoted(start)) IS NOT NULL AND t.\(ReportInspector.quoted(end)) IS NOT NULL
            ORDER BY \(order)
            """)
        try statement.bind(runID, at: 1)
        var slices: [Slice] = []
        try statement.forEachRow { row in
            let startNs = row.int64(at: 0), endNs = row.int64(at: 1)
            var args: [String] = []
            for (offset, column) in argColumns.enumerated() {
                args.append(JSONText.quoted(column) + ":" + JSONText.value(row.value(at: Int32(offset + 3))))
            }
            slices.append(Slice(startNs: startNs, endNs: max(startNs, endNs), name: row.string(at: 2) ?? source.category,
                                category: source.category, args: args))
        }
        return slices
    }

    /// The debounce timer that sent each request, from the edit that last armed it (the last
    /// edit to land before the request left) to the moment it fired.
    private static func debounceSlices(_ db: Database, runID: Int64, sentColumn: String) throws -> [Slice] {
        guard try db.relationExists("keys") else { return [] }
        let rows = try db.query("""
            SELECT q.request_id, q."trigger", q.\(ReportInspector.quoted(sentColumn)),
                   (SELECT MAX(k.inserted_ns) FROM keys k WHERE k.run_id = q.run_id AND k.inserted_ns <= q.\(ReportInspector.quoted(sentColumn)))
            FROM requests q WHERE q.run_id = ? ORDER BY q.request_id
            """, [.integer(runID)])
        return rows.compactMap { row in
            guard case .integer(let sent) = row[2], case .integer(let armed) = row[3] else { return nil }
            return Slice(startNs: armed, endNs: sent, name: "debounce → request \(row[0].integerValue) (\(row[1].textValue))",
                         category: "timer", args: ["\"request_id\":\(row[0].integerValue)", "\"delay_us\":\(micros(sent - armed))"])
        }
    }

    /// Instant events at the touch of every key over its budget.
    private static func violationInstants(_ db: Database, runID: Int64) throws -> [Slice] {
        guard try db.relationExists("budget_violations"), try db.relationExists("keys") else { return [] }
        let rows = try db.query("""
            SELECT v.item_index, k.touch_ns, v.latency_ns, v.budget_ns, v.cause FROM budget_violations v
            JOIN keys k ON k.run_id = v.run_id AND k.key_index = v.item_index
            WHERE v.run_id = ? AND v.budget = 'key' ORDER BY k.touch_ns
            """, [.integer(runID)])
        return rows.map { row in
            Slice(startNs: row[1].integerValue, endNs: row[1].integerValue, name: "key \(row[0].integerValue) over budget",
                  category: "violation", args: ["\"latency_us\":\(micros(row[2].integerValue))", "\"budget_us\":\(micros(row[3].integerValue))",
                                                "\"cause\":\(JSONText.quoted(row[4].textValue))"])
        }
    }

    // MARK: - Helpers

    /// Spreads slices over lanes so that none overlaps another in its lane: each slice goes
    /// to the first lane whose last slice has ended. Lanes keep start order.
    static func lanes(_ slices: [Slice]) -> [[Slice]] {
        let sorted = slices.enumerated().sorted { ($0.element.startNs, $0.element.endNs, $0.offset) < ($1.element.startNs, $1.element.endNs, $1.offset) }
        var lanes: [[Slice]] = []
        var ends: [Int64] = []
        for (_, slice) in sorted {
            // Instants (violations) never overlap anything; they share lane 0.
            let lane: Int? = slice.category == "violation" ? 0 : ends.firstIndex { $0 <= slice.startNs }
            if let lane, lane < lanes.count {
                lanes[lane].append(slice)
                ends[lane] = max(ends[lane], slice.endNs)
            } else {
                lanes.append([slice])
                ends.append(slice.endNs)
            }
        }
        return lanes
    }

    /// Nanoseconds as microseconds with three decimals, exactly.
    static func micros(_ nanoseconds: Int64) -> String {
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let fraction = magnitude % 1000
        let digits = String(fraction)
        return "\(sign)\(magnitude / 1000)." + String(repeating: "0", count: 3 - digits.count) + digits
    }
}
