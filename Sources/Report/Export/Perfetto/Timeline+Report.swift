extension Timeline {
    /// A table whose rows are intervals of one run.
    struct Source: Sendable {
        /// The kinds of item a row of a source can stand for in a flow.
        enum LinkKind: Sendable {
            case key, request, underline
        }

        /// Track name.
        var track: String
        /// Category of its slices.
        var category: String
        var table: String
        /// Candidate start and end columns; the first that exists is used.
        var starts: [String]
        var ends: [String]
        /// A SQL expression naming each slice, over the table's columns (alias `t`). Names
        /// say what kind of item a slice is (Perfetto groups slices by name); the item's
        /// identifiers are among its args.
        var name: String
        /// Columns the name needs; the source is skipped when one is missing.
        var nameColumns: [String]
        /// The identifier column that links a row to flows, and the link it makes.
        var linkColumn: String? = nil
        var link: LinkKind? = nil
    }

    /// The interval tables keysim knows, in track order. A source whose table or columns the
    /// report lacks is skipped, so tracks appear as the model starts recording them.
    static let sources = [
        Source(track: "keys (touch → inserted)", category: "key", table: "keys", starts: ["touch_ns"], ends: ["inserted_ns"],
               name: "'key (' || t.edit || ')'", nameColumns: ["edit"], linkColumn: "key_index", link: .key),
        Source(track: "suggestions", category: "suggestion", table: "suggestions", starts: ["touch_ns"], ends: ["end_ns", "shown_ns"],
               name: "'suggestion (' || t.outcome || ')'", nameColumns: ["outcome"]),
        Source(track: "cloud requests", category: "request", table: "requests", starts: ["sent_ns"], ends: ["answered_ns", "end_ns"],
               name: "'request (' || t.outcome || ')'", nameColumns: ["outcome"], linkColumn: "request_id", link: .request),
        Source(track: "underlines", category: "underline", table: "underlines", starts: ["shown_ns", "word_finished_ns"],
               ends: ["end_ns"], name: "'underline (' || t.origin || ', ' || t.outcome || ')'", nameColumns: ["origin", "outcome"],
               linkColumn: "underline_id", link: .underline),
        Source(track: "touches (touch → decided)", category: "touch", table: "touches", starts: ["touch_ns"], ends: ["decided_ns"],
               name: "'touch' || CASE WHEN t.ready THEN '' ELSE ' (prediction late)' END"
                   + " || CASE WHEN t.plain_typo OR t.shifted_typo THEN ' (typo drawn ' || t.plain_typo || ', shifted ' || t.shifted_typo || ')' ELSE '' END",
               nameColumns: ["ready", "plain_typo", "shifted_typo"]),
        Source(track: "fixes", category: "fix", table: "fixes", starts: ["accepted_ns"], ends: ["applied_ns", "end_ns"],
               name: "'fix'", nameColumns: []),
    ] + extensionSources

    /// The timeline of `runID`, the first run when nil. Throws when the run is unknown or has
    /// no rows to draw (a summary report keeps none), naming the runs that have some.
    static func read(_ store: ReportStore, runID selected: Int64?, options: ExportOptions) throws -> Timeline {
        let db = store.database
        let runID: Int64
        if let selected {
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
        var timeline = Timeline(
            runID: runID,
            processName: "keysim run \(runID): \(run[0].textValue)\(policy), replication \(run[2].integerValue), trace \(run[3].integerValue)",
            tracePath: run[4].textValue, seed: run[5].integerValue)

        timeline.tracks += try executorTracks(db, runID: runID)
        let relations = try ReportInspector.relations(db)
        for source in sources {
            guard let relation = relations.first(where: { $0.name == source.table }),
                  let start = source.starts.first(where: relation.columns.contains),
                  let end = source.ends.first(where: relation.columns.contains),
                  source.nameColumns.allSatisfy(relation.columns.contains),
                  source.linkColumn.map(relation.columns.contains) ?? true else { continue }
            let slices = try intervalSlices(db, source: source, relation: relation, start: start, end: end, runID: runID, options: options)
            timeline.tracks.append(Track(name: source.track, kind: .async, slices: slices))
            if source.table == "requests" {
                timeline.tracks += try debounceTracks(db, runID: runID)
            }
            if source.table == "underlines" {
                timeline.tracks.append(Track(name: "underline verdicts", kind: .async, slices: try verdictInstants(db, runID: runID)))
            }
        }
        timeline.tracks.append(Track(name: "budget violations", kind: .async, slices: try violationInstants(db, runID: runID)))
        timeline.tracks.append(Track(name: "extension memory events", kind: .async, slices: try memoryInstants(db, runID: runID)))
        guard timeline.hasSlices else {
            // A summary report keeps no item rows: say which runs a timeline can be drawn for.
            let drawable = try db.relationExists("task_rows")
                ? try db.query("SELECT DISTINCT run_id FROM task_rows ORDER BY run_id LIMIT 10").map { String($0[0].integerValue) } : []
            let hint = drawable.isEmpty ? "no run of this report has one; write it again with --detail default or full"
                : "runs with one: \(drawable.joined(separator: ", "))"
            throw ReportError(file: store.path, message: "run \(runID) has no timeline rows to draw (its report keeps them only at some detail levels); \(hint)")
        }
        timeline.counters += try queueCounters(db, runID: runID)
        timeline.counters += try requestsInFlightCounter(db, runID: runID)
        timeline.counters += try memoryCounter(db, runID: runID)
        try timeline.attachFlows(db)
        return timeline
    }

    // MARK: - Tracks

    /// A track per executor thread (and core); cancelled tasks (never run) are left out.
    private static func executorTracks(_ db: Database, runID: Int64) throws -> [Track] {
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
            let taskID = row.int64(at: 4)
            var args = [Arg(name: "task_id", value: .integer(taskID)), Arg(name: "tag", value: .integer(row.int64(at: 3))),
                        Arg(name: "release_ns", value: .integer(row.int64(at: 5))),
                        Arg(name: "wait_ns", value: .integer(row.int64(at: 6) - row.int64(at: 5)))]
            if !row.isNull(at: 8) { args.append(Arg(name: "deadline_ns", value: .integer(row.int64(at: 8)))) }
            if row.int64(at: 9) > 0 { args.append(Arg(name: "preemptions", value: .integer(row.int64(at: 9)))) }
            let slice = Slice(startNs: row.int64(at: 6), endNs: row.int64(at: 7), name: row.string(at: 2) ?? "task",
                              category: "task", args: args, link: .task(taskID))
            if byTrack.last?.key == track { byTrack[byTrack.count - 1].slices.append(slice) } else { byTrack.append((track, [slice])) }
        }
        // The main thread first: it is the one the key budget is about.
        return byTrack.sorted { (a, b) in
            a.key == "main thread" || b.key == "main thread" ? a.key == "main thread" && b.key != "main thread" : a.key < b.key
        }.map { Track(name: $0.key, kind: .thread, slices: $0.slices) }
    }

    private static func intervalSlices(_ db: Database, source: Source, relation: ReportRelation, start: String, end: String,
                                       runID: Int64, options: ExportOptions) throws -> [Slice] {
        let argColumns = ReportInspector.exportedColumns(relation, options).filter { $0 != "run_id" && $0 != start && $0 != end }
        let order = relation.primaryKey.isEmpty ? "rowid" : relation.primaryKey.map { "t." + ReportInspector.quoted($0) }.joined(separator: ", ")
        let columns = ([start, end].map { "t." + ReportInspector.quoted($0) } + ["(\(source.name))"]
                       + [source.linkColumn.map { "t." + ReportInspector.quoted($0) } ?? "NULL"]
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
            let args = argColumns.enumerated().map { Arg(name: $0.element, value: row.value(at: Int32($0.offset + 4))) }
            let id = row.int64(at: 3)
            let link: Link? = switch source.link {
            case .key: .key(id)
            case .request: .request(id)
            case .underline: .underline(id)
            case nil: nil
            }
            slices.append(Slice(startNs: startNs, endNs: max(startNs, endNs), name: row.string(at: 2) ?? source.category,
                                category: source.category, args: args, link: row.isNull(at: 3) ? nil : link))
        }
        return slices
    }

    /// The cloud's verdict on each underline: an instant where an answer confirmed a local
    /// underline or retracted it, or where the cloud's own finding was shown.
    private static func verdictInstants(_ db: Database, runID: Int64) throws -> [Slice] {
        let columns = try ReportInspector.relations(db).first { $0.name == "underlines" }?.columns ?? []
        guard ["underline_id", "origin", "confirmed_ns", "end_ns", "outcome"].allSatisfy(columns.contains) else { return [] }
        let rows = try db.query("""
            SELECT underline_id, origin, confirmed_ns, end_ns, outcome FROM underlines
            WHERE run_id = ? AND (confirmed_ns IS NOT NULL OR outcome = 'retracted') ORDER BY underline_id
            """, [.integer(runID)])
        return rows.map { row in
            let confirmed = row[2] != .null
            let time = confirmed ? row[2].integerValue : row[3].integerValue
            let name = row[1].textValue == "cloud" ? "found by the cloud" : confirmed ? "confirmed" : "retracted"
            return Slice(startNs: time, endNs: time, name: name, category: "verdict",
                         args: [Arg(name: "underline_id", value: row[0]), Arg(name: "outcome", value: row[4])],
                         isInstant: true, link: .verdict(row[0].integerValue))
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
            Slice(startNs: row[1].integerValue, endNs: row[1].integerValue, name: "key over budget", category: "violation",
                  args: [Arg(name: "key_index", value: row[0]), Arg(name: "latency_ns", value: row[2]),
                         Arg(name: "budget_ns", value: row[3]), Arg(name: "cause", value: row[4])],
                  isInstant: true)
        }
    }
}
