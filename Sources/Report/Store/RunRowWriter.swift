import Scenarios
import Sim

/// Prepared statements for the rows of one run, reused across runs: the hot path of
/// report writing (a long trace gives millions of rows).
struct RunRowWriter {
    let database: Database
    let runStatement: Statement
    var keyRows: BulkInsert
    let requestStatement: Statement
    var taskRows: BulkInsert
    let violationStatement: Statement

    init(_ database: Database) throws {
        self.database = database
        runStatement = try database.prepare("""
            INSERT INTO runs (batch_id, scenario_name, policy, seed, replication, trace_index, trace_path, scenario_hash,
                              traces_hash, keysim_version, key_budget_ns, sim_end_ns, events, edits, requests, words,
                              characters, main_busy_ns, wall_seconds)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        keyRows = try BulkInsert(database, table: "keys",
                                 columns: ["run_id", "key_index", "edit", "touch_ns", "start_ns", "inserted_ns", "latency_ns"])
        requestStatement = try database.prepare("""
            INSERT INTO requests (run_id, request_id, trigger, sent_ns, text_version, characters, network_ns, service_ns,
                                  answered_ns, round_trip_ns, outcome)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        taskRows = try BulkInsert(database, table: "tasks",
                                  columns: ["run_id", "seq", "executor", "task_id", "kind", "tag", "release_ns", "start_ns",
                                            "finish_ns", "deadline_ns", "core", "preemptions", "cancelled"])
        violationStatement = try database.prepare(
            "INSERT INTO budget_violations (run_id, budget, item_index, latency_ns, budget_ns, cause) VALUES (?, ?, ?, ?, ?, ?)")
    }

    mutating func write(_ result: RunResult, batchID: Int64, batch: BatchInfo) throws -> Int64 {
        let scenario = batch.scenario
        let summary = result.summary
        let budget = scenario.keyboard.keyLatencyBudget
        try runStatement.execute([
            .integer(batchID), .text(scenario.name), scenario.policy.map(SQLValue.text) ?? .null,
            .integer(Int64(bitPattern: scenario.seed)), .integer(Int64(result.item.replication)),
            .integer(Int64(result.item.traceIndex)), .text(result.tracePath), .text(batch.scenarioHash),
            .text(batch.tracesHash), .text(KeysimVersion.current), .integer(budget.nanoseconds),
            .integer(summary.endTime.nanoseconds), .integer(Int64(summary.eventsProcessed)), .integer(Int64(summary.edits)),
            .integer(Int64(summary.requests)), .integer(Int64(summary.words)), .integer(Int64(summary.characters)),
            .integer(summary.mainThreadBusy.nanoseconds), .real(result.wallSeconds),
        ])
        let runID = database.lastInsertRowID
        for key in result.observations.keys {
            try keyRows.add(runID)
            try keyRows.add(key.index)
            try keyRows.add(key.edit.rawValue)
            try keyRows.add(key.touch.nanoseconds)
            try keyRows.add(key.start.nanoseconds)
            try keyRows.add(key.inserted.nanoseconds)
            try keyRows.add(key.latency.nanoseconds)
            try keyRows.endRow()
            if key.latency > budget {
                let cause = key.wait > .zero
                    ? "waited \(Self.ms(key.wait)) for the main thread"
                    : "key handler ran \(Self.ms(key.inserted - key.start))"
                try violationStatement.execute([.integer(runID), .text("key"), .integer(Int64(key.index)),
                                                .integer(key.latency.nanoseconds), .integer(budget.nanoseconds), .text(cause)])
            }
        }
        for request in result.observations.requests {
            try requestStatement.execute([
                .integer(runID), .integer(Int64(request.id)), .text(request.trigger.rawValue),
                .integer(request.sent.nanoseconds), .integer(Int64(request.textVersion)), .integer(Int64(request.characters)),
                .integer(request.networkRoundTrip.nanoseconds), .integer(request.service.nanoseconds),
                .integer(request.answered.nanoseconds), .integer(request.roundTrip.nanoseconds), .text(request.outcome.rawValue),
            ])
        }
        for (seq, task) in result.observations.tasks.enumerated() {
            let record = task.record
            try taskRows.add(runID)
            try taskRows.add(seq)
            try taskRows.add(task.executor)
            try taskRows.add(Int64(record.task.id))
            try taskRows.add(KeyboardTaskKind(rawValue: record.task.kind)?.name ?? "kind-\(record.task.kind)")
            try taskRows.add(record.task.tag)
            try taskRows.add(record.release.nanoseconds)
            try taskRows.add(record.start.nanoseconds)
            try taskRows.add(record.finish.nanoseconds)
            try taskRows.add(record.deadline?.nanoseconds)
            try taskRows.add(record.core)
            try taskRows.add(record.preemptions)
            try taskRows.add(record.cancelled)
            try taskRows.endRow()
        }
        // The rest of this run's buffered rows, so that each run's rows are complete when
        // `write` returns.
        try keyRows.finish()
        try taskRows.finish()
        return runID
    }

    static func ms(_ d: SimDuration) -> String {
        let value = (d.milliseconds * 100).rounded() / 100
        return "\(value) ms"
    }
}
