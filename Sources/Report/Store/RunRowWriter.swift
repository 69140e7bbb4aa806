import Scenarios
import Sim

/// Prepared statements for the rows of one run, reused across runs: the hot path of report
/// writing (a long trace gives millions of rows).
struct RunRowWriter {
    let database: Database
    let run: Statement
    let thread: Statement
    var keyRows: BulkInsert
    var suggestionRows: BulkInsert
    let underline: Statement
    let request: Statement
    let fix: Statement
    var taskRows: BulkInsert
    var touchRows: BulkInsert
    var wordRows: BulkInsert
    let budget: Statement
    let violation: Statement
    let dictation: Statement
    let session: Statement
    /// Labels bound millions of times, held once: edit kinds, suggestion outcomes, work
    /// kinds by code (index 0 and unknown codes are bound as text the slow way).
    let editLabels = StaticTexts(EditKind.allCases.map(\.rawValue))
    let outcomeLabels = StaticTexts(SuggestionOutcome.allCases.map(\.rawValue))
    let workLabels = StaticTexts(["kind-0"] + KeyboardWork.allCases.map(\.rawValue))
    /// Thread names of the scenario written last; kept while statements may still hold them.
    var threadLabels = StaticTexts([])
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
        thread = try insert("threads", ["run_id", "thread", "busy_ns"])
        // The three tables with a row per key or task go through multi-row inserts.
        keyRows = try BulkInsert(database, table: "keys", columns: ["run_id", "key_index", "edit", "touch_ns", "start_ns",
                                                                    "inserted_ns", "latency_ns", "queued_ahead"])
        suggestionRows = try BulkInsert(database, table: "suggestions", columns: ["run_id", "key_index", "text_version", "touch_ns",
                                                                                  "end_ns", "latency_ns", "outcome", "too_late",
                                                                                  "waited_ns", "ran_ns"])
        underline = try insert("underlines", ["run_id", "underline_id", "word_ordinal", "word_length", "origin", "true_error",
                                              "word_finished_ns", "shown_ns", "confirmed_ns", "end_ns", "outcome", "flicker",
                                              "time_to_underline_ns", "time_to_confirmation_ns"])
        request = try insert("requests", ["run_id", "request_id", "trigger", "sent_ns", "text_version", "characters", "words",
                                          "attempts", "timeouts", "offline_failures", "network_ns", "service_ns", "end_ns",
                                          "round_trip_ns", "outcome", "stale", "lost_words"])
        fix = try insert("fixes", ["run_id", "underline_id", "word_ordinal", "accepted_ns", "applied", "corrupted", "strategy"])
        taskRows = try BulkInsert(database, table: "tasks", columns: ["run_id", "seq", "executor", "task_id", "kind", "tag",
                                                                      "release_ns", "start_ns", "finish_ns", "deadline_ns", "core",
                                                                      "preemptions", "cancelled"])
        touchRows = try BulkInsert(database, table: "touches", columns: Self.touchColumns)
        wordRows = try BulkInsert(database, table: "words", columns: Self.wordColumns)
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

    mutating func write(_ result: RunResult, batchID: Int64, batch: BatchInfo) throws -> Int64 {
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
        let threadNames = scenario.keyboard.threads.map(\.name)
        if threadLabels.strings != threadNames { threadLabels = StaticTexts(threadNames) }
        for busy in summary.threadBusy {
            try thread.execute([.integer(runID), .text(busy.name), .integer(busy.busy.nanoseconds)])
        }
        for k in observations.keys {
            try keyRows.add(runID)
            try keyRows.add(k.index)
            try keyRows.add(editLabels, EditKind.allCases.firstIndex(of: k.edit)!)
            try keyRows.add(k.touch.nanoseconds)
            try keyRows.add(k.start.nanoseconds)
            try keyRows.add(k.inserted.nanoseconds)
            try keyRows.add(k.latency.nanoseconds)
            try keyRows.add(k.ahead.queuedAhead)
            try keyRows.endRow()
        }
        try keyRows.finish()
        for s in observations.suggestions {
            try suggestionRows.add(runID)
            try suggestionRows.add(s.keyIndex)
            try suggestionRows.add(s.textVersion)
            try suggestionRows.add(s.touch.nanoseconds)
            try suggestionRows.add(s.end.nanoseconds)
            try suggestionRows.add(s.latency.nanoseconds)
            try suggestionRows.add(outcomeLabels, SuggestionOutcome.allCases.firstIndex(of: s.outcome)!)
            try suggestionRows.add(s.tooLate)
            try suggestionRows.add(s.waited.nanoseconds)
            try suggestionRows.add(s.ran.nanoseconds)
            try suggestionRows.endRow()
        }
        try suggestionRows.finish()
        for u in observations.underlines {
            try underline.execute([
                .integer(runID), .integer(Int64(u.id)), .integer(Int64(u.wordOrdinal)), .integer(Int64(u.wordLength)),
                .text(u.origin.rawValue), .integer(u.trueError ? 1 : 0), .integer(u.wordFinished.nanoseconds),
                nullable(u.shown?.nanoseconds), nullable(u.confirmed?.nanoseconds), .integer(u.end.nanoseconds),
                .text(u.outcome.rawValue), .integer(u.flicker ? 1 : 0), nullable(u.timeToUnderline?.nanoseconds),
                nullable(u.timeToConfirmation?.nanoseconds),
            ])
        }
        for r in observations.requests {
            try request.execute([
                .integer(runID), .integer(Int64(r.id)), .text(r.trigger.rawValue), .integer(r.sent.nanoseconds),
                .integer(Int64(r.textVersion)), .integer(Int64(r.characters)), .integer(Int64(r.words)), .integer(Int64(r.attempts)),
                .integer(Int64(r.timeouts)), .integer(Int64(r.offlineFailures)), .integer(r.networkRoundTrip.nanoseconds),
                .integer(r.service.nanoseconds), .integer(r.end.nanoseconds), .integer(r.roundTrip.nanoseconds),
                .text(r.outcome.rawValue), .integer(r.stale ? 1 : 0), .integer(Int64(r.lostWords)),
            ])
        }
        for f in observations.fixes {
            try fix.execute([.integer(runID), .integer(Int64(f.underlineID)), .integer(Int64(f.wordOrdinal)),
                             .integer(f.accepted.nanoseconds), .integer(f.applied ? 1 : 0), .integer(f.corrupted ? 1 : 0),
                             .text(f.strategy.rawValue)])
        }
        for (seq, t) in observations.tasks.enumerated() {
            try taskRows.add(runID)
            try taskRows.add(seq)
            try taskRows.add(threadLabels, t.thread)
            try taskRows.add(Int64(t.id))
            if Int(t.kind) < workLabels.count {
                try taskRows.add(workLabels, Int(t.kind))
            } else {
                try taskRows.add("kind-\(t.kind)")
            }
            try taskRows.add(t.tag)
            try taskRows.add(t.release.nanoseconds)
            try taskRows.add(t.start.nanoseconds)
            try taskRows.add(t.finish.nanoseconds)
            try taskRows.add(t.deadline?.nanoseconds)
            try taskRows.add(t.core)
            try taskRows.add(Int(t.preemptions))
            try taskRows.add(t.cancelled)
            try taskRows.endRow()
        }
        try taskRows.finish()
        for d in observations.dictations {
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
        for e in observations.dictationSessions {
            try session.execute([
                .integer(runID), .integer(Int64(e.id)), .integer(e.start.nanoseconds), .integer(e.micFirstOn.nanoseconds),
                .integer(e.end.nanoseconds), .text(e.endReason.rawValue), .integer(e.micOn.nanoseconds), .integer(Int64(e.dictations)),
                .integer(e.dictated.nanoseconds), .text(e.engine.rawValue), .integer(e.modelLoad.nanoseconds),
                .real(e.peakMemoryMegabytes), .integer(Int64(e.suspensions)), e.micOnPerDictated.map(SQLValue.real) ?? .null,
            ])
        }
        try writeTouches(observations.touches, runID: runID)
        var causes = ViolationCauses(observations)
        for b in scenario.keyboard.budgets {
            let samples = MetricSamples.samples(b.metric, in: observations)
            var over = 0
            for sample in samples where sample.latency > b.limit {
                over += 1
                try violation.execute([.integer(runID), .text(b.metric.rawValue), .integer(Int64(sample.item)),
                                       .integer(sample.latency.nanoseconds), .integer(b.limit.nanoseconds),
                                       .text(causes.cause(b.metric, item: sample.item))])
            }
            try budget.execute([.integer(runID), .text(b.metric.rawValue), .integer(b.limit.nanoseconds), .real(b.allowedShare),
                                .integer(Int64(samples.count)), .integer(Int64(over))])
        }
        try writeWords(result.summary.typingQuality, runID: runID)
        try extensionRows.write(observations.extensionRecords, runID: runID)
        return runID
    }

    private func nullable(_ value: Int64?) -> SQLValue { value.map(SQLValue.integer) ?? .null }

}
