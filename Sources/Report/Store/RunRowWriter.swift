import Scenarios
import Sim

/// Prepared statements for the rows of one run, reused across runs: the hot path of report
/// writing (a long trace gives millions of rows).
struct RunRowWriter {
    let database: Database
    let run: Statement
    var threadRows: BulkInsert
    var keyRows: BulkInsert
    var underlineRows: BulkInsert
    var requestRows: BulkInsert
    let fix: Statement
    var taskRows: BulkInsert
    let executor: Statement
    var touchRows: BulkInsert
    var wordRows: BulkInsert
    var histogramRows: BulkInsert
    let budget: Statement
    let violation: Statement
    let dictation: Statement
    let session: Statement
    let extensionRows: ExtensionRowWriter

    init(_ database: Database) throws {
        self.database = database
        func insert(_ table: String, _ columns: [String]) throws -> Statement {
            try database.prepare("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))")
        }
        run = try insert("runs", ["batch_id", "scenario_name", "policy", "seed", "replication", "trace_index", "trace_path",
                                  "scenario_hash", "traces_hash", "keysim_version", "sim_end_ns", "events", "edits", "requests",
                                  "words", "characters", "checks_of_vanished_words", "acceptances_without_chip",
                                  "acceptances_without_fix", "error_words_finished", "wall_seconds"])
        threadRows = try BulkInsert(database, table: "threads", columns: ["run_id", "thread", "busy_ns"])
        // The two tables with a row per key or task go through multi-row inserts.
        // Compact rows behind the views `keys`, `suggestions` and `tasks` (ReportSchema+Compact).
        keyRows = try BulkInsert(database, table: "key_rows", columns: Self.keyRowColumns)
        underlineRows = try BulkInsert(database, table: "underlines", columns: Self.underlineColumns)
        requestRows = try BulkInsert(database, table: "requests", columns: Self.requestColumns)
        fix = try insert("fixes", ["run_id", "underline_id", "word_ordinal", "accepted_ns", "applied", "corrupted", "strategy"])
        taskRows = try BulkInsert(database, table: "task_rows",
                                  columns: ["run_id", "seq", "executor_code", "id_after_seq", "kind_code", "tag", "release_ns",
                                            "wait_ns", "run_ns", "deadline_after_release_ns", "core", "preemptions", "cancelled"])
        executor = try insert("task_executors", ["run_id", "code", "name"])
        touchRows = try BulkInsert(database, table: "touches", columns: Self.touchColumns)
        wordRows = try BulkInsert(database, table: "words", columns: Self.wordColumns)
        histogramRows = try BulkInsert(database, table: "latency_histograms", columns: ["run_id", "metric_code", "buckets"])
        budget = try insert("budgets", ["run_id", "metric", "limit_ns", "allowed_share", "count", "over"])
        dictation = try insert("dictations", ["run_id", "dictation_id", "session_id", "tap_ns", "cold_start", "cold_start_cost_ns",
                                              "recording_start_ns", "capture_start_ns", "speech_start_ns", "speech_end_ns",
                                              "clipped_ns", "stop_tap_ns", "clip_length_ns", "speech_lost_to_cap_ns", "engine",
                                              "model_load_wait_ns", "engine_wait_ns", "transcription_ns", "text_inserted_ns",
                                              "tap_to_recording_ns", "stop_to_text_ns"])
        session = try insert("dictation_sessions", ["run_id", "session_id", "start_ns", "mic_first_on_ns", "end_ns", "end_reason",
                                                    "mic_on_ns", "dictations", "dictated_ns", "engine", "model_load_ns",
                                                    "peak_memory_mb", "suspensions", "mic_on_per_dictated"])
        extensionRows = try ExtensionRowWriter(database)
        violation = try insert("budget_violations", ["run_id", "budget", "item_index", "latency_ns", "budget_ns", "cause"])
    }

    /// Writes one run's rows, as many as `detail` keeps, and returns its run id. Its derived
    /// rows are computed here when not given (`RunDerivedRows`, which needs `detail` too).
    mutating func write(_ result: RunResult, batchID: Int64, batch: BatchInfo, detail: ReportDetail = .full,
                        derived: RunDerivedRows? = nil) throws -> Int64 {
        let scenario = batch.scenario
        let summary = result.summary
        let counters = summary.counters
        try run.execute([
            .integer(batchID), .text(scenario.name), scenario.policy.map(SQLValue.text) ?? .null,
            .integer(Int64(bitPattern: scenario.seed)), .integer(Int64(result.item.replication)),
            .integer(Int64(result.item.traceIndex)), .text(result.tracePath), .text(batch.scenarioHash),
            .text(batch.tracesHash), .text(KeysimVersion.current), .integer(summary.endTime.nanoseconds),
            .integer(Int64(summary.eventsProcessed)), .integer(Int64(summary.edits)), .integer(Int64(summary.requests)),
            .integer(Int64(summary.words)), .integer(Int64(summary.characters)), .integer(Int64(counters.checksOfVanishedWords)),
            .integer(Int64(counters.acceptancesWithoutChip)), .integer(Int64(counters.acceptancesWithoutFix)),
            .integer(Int64(counters.errorWordsFinished)), .real(result.wallSeconds),
        ])
        let runID = database.lastInsertRowID
        let observations = result.observations
        let keepsItems = detail.keepsItems
        let keepsTasks = detail.keepsTasks(replication: result.item.replication, traceIndex: result.item.traceIndex)
        try threadRows.begin(rows: summary.threadBusy.count)
        for busy in summary.threadBusy {
            try threadRows.add(runID)
            try threadRows.add(busy.name)
            try threadRows.add(busy.busy.nanoseconds)
            try threadRows.endRow()
        }
        try threadRows.finish()
        if keepsItems { try writeKeyRows(keys: observations.keys, suggestions: observations.suggestions, runID: runID) }
        if keepsItems {
            try writeUnderlines(observations.underlines, runID: runID)
            try writeRequests(observations.requests, runID: runID)
        }
        for f in observations.fixes where keepsItems {
            try fix.execute([.integer(runID), .integer(Int64(f.underlineID)), .integer(Int64(f.wordOrdinal)),
                             .integer(f.accepted.nanoseconds), .integer(f.applied ? 1 : 0), .integer(f.corrupted ? 1 : 0),
                             .text(f.strategy.rawValue)])
        }
        if keepsTasks && !observations.tasks.isEmpty {
            for (code, thread) in scenario.keyboard.threads.enumerated() {
                try executor.execute([.integer(runID), .integer(Int64(code)), .text(thread.name)])
            }
        }
        try taskRows.begin(rows: keepsTasks ? observations.tasks.count : 0)
        for (seq, t) in observations.tasks.enumerated() where keepsTasks {
            try taskRows.add(runID)
            try taskRows.add(seq)
            try taskRows.add(t.thread)
            try taskRows.add(Int64(t.id) - Int64(seq))
            try taskRows.add(Int(t.kind))
            try taskRows.add(t.tag)
            try taskRows.add(t.release.nanoseconds)
            try taskRows.add((t.start - t.release).nanoseconds)
            try taskRows.add((t.finish - t.start).nanoseconds)
            try taskRows.add(t.deadline.map { ($0 - t.release).nanoseconds })
            try taskRows.add(t.core)
            try taskRows.add(Int(t.preemptions))
            try taskRows.add(t.cancelled)
            try taskRows.endRow()
        }
        try taskRows.finish()
        for d in observations.dictations where keepsItems {
            try dictation.execute([
                .integer(runID), .integer(Int64(d.id)), .integer(Int64(d.session)), .integer(d.tap.nanoseconds),
                .integer(d.coldStart ? 1 : 0), nullable(d.coldStartCost?.nanoseconds), .integer(d.recordingStart.nanoseconds),
                .integer(d.captureStart.nanoseconds), .integer(d.speechStart.nanoseconds), .integer(d.speechEnd.nanoseconds),
                .integer(d.clipped.nanoseconds), .integer(d.stopTap.nanoseconds), .integer(d.clipLength.nanoseconds),
                .integer(d.speechLostToCap.nanoseconds), .text(d.engine.rawValue), .integer(d.modelLoadWait.nanoseconds),
                .integer(d.engineWait.nanoseconds), .integer((d.transcriptionEnd - d.transcriptionStart).nanoseconds),
                .integer(d.textInserted.nanoseconds), .integer(d.tapToRecording.nanoseconds), .integer(d.stopToText.nanoseconds),
            ])
        }
        for e in observations.dictationSessions where keepsItems {
            try session.execute([
                .integer(runID), .integer(Int64(e.id)), .integer(e.start.nanoseconds), .integer(e.micFirstOn.nanoseconds),
                .integer(e.end.nanoseconds), .text(e.endReason.rawValue), .integer(e.micOn.nanoseconds), .integer(Int64(e.dictations)),
                .integer(e.dictated.nanoseconds), .text(e.engine.rawValue), .integer(e.modelLoad.nanoseconds),
                .real(e.peakMemoryMegabytes), .integer(Int64(e.suspensions)), e.micOnPerDictated.map(SQLValue.real) ?? .null,
            ])
        }
        if keepsItems { try writeTouches(observations.touches, runID: runID) }
        if keepsItems { try writeWords(result.summary.typingQuality, runID: runID) }
        try extensionRows.write(observations.extensionRecords, runID: runID, events: keepsItems)
        let derived = derived ?? RunDerivedRows(result, budgets: scenario.keyboard.budgets,
                                                sortedLatencies: BatchSummary.Builder.sortedLatencies(of: result),
                                                keepsItems: keepsItems)
        for v in derived.violations {
            try violation.execute([.integer(runID), .text(v.metric.rawValue), .integer(Int64(v.item)), .integer(v.latency.nanoseconds),
                                   .integer(v.limit.nanoseconds), .text(v.cause)])
        }
        for b in derived.budgets {
            try budget.execute([.integer(runID), .text(b.budget.metric.rawValue), .integer(b.budget.limit.nanoseconds),
                                .real(b.budget.allowedShare), .integer(Int64(b.count)), .integer(Int64(b.over))])
        }
        try histogramRows.begin(rows: derived.histograms.count)
        for (code, buckets) in derived.histograms.enumerated() {
            try histogramRows.add(runID)
            try histogramRows.add(code)
            try histogramRows.add(buckets)
            try histogramRows.endRow()
        }
        try histogramRows.finish()
        return runID
    }

    /// The code of `edit` in `edit_kinds` (`ReportSchema.lookupRows`): its index in `allCases`.
    @inline(__always) static func code(_ edit: EditKind) -> Int { EditKind.allCases.firstIndex(of: edit)! }
    /// The code of `outcome` in `suggestion_outcomes`: its index in `allCases`.
    @inline(__always) static func code(_ outcome: SuggestionOutcome) -> Int { SuggestionOutcome.allCases.firstIndex(of: outcome)! }

    private func nullable(_ value: Int64?) -> SQLValue { value.map(SQLValue.integer) ?? .null }

}
