import Scenarios
import Sim

/// Writes the rows of one run into its declared tables (`ReportTables`), through inserters
/// prepared once and reused across runs: the hot path of report writing (a long trace gives
/// millions of rows). Each table is written at the detail levels its declaration keeps it.
struct RunRowWriter {
    let database: Database
    var runRows: BulkInsert
    var threadRows: BulkInsert
    var keyRows: BulkInsert
    var underlineRows: BulkInsert
    var requestRows: BulkInsert
    var fixRows: BulkInsert
    var taskRows: BulkInsert
    var executorRows: BulkInsert
    var touchRows: BulkInsert
    var wordRows: BulkInsert
    var histogramRows: BulkInsert
    var budgetRows: BulkInsert
    var violationRows: BulkInsert
    var dictationRows: BulkInsert
    var sessionRows: BulkInsert
    var extensionRows: ExtensionRowWriter

    /// Tables whose rows per run vary and are few go row by row: a statement of each count
    /// would cost more to prepare than it saves (`rowsPerStatement: 1`).
    init(_ database: Database) {
        self.database = database
        runRows = BulkInsert(database, ReportTables.runs.table)
        threadRows = BulkInsert(database, ReportTables.threads.table)
        keyRows = BulkInsert(database, ReportTables.keyRows.table)
        underlineRows = BulkInsert(database, ReportTables.underlines.table)
        requestRows = BulkInsert(database, ReportTables.requests.table)
        fixRows = BulkInsert(database, ReportTables.fixes.table, rowsPerStatement: 1)
        taskRows = BulkInsert(database, ReportTables.taskRows.table)
        executorRows = BulkInsert(database, ReportTables.taskExecutors.table)
        touchRows = BulkInsert(database, ReportTables.touches.table)
        wordRows = BulkInsert(database, ReportTables.words.table)
        histogramRows = BulkInsert(database, ReportTables.latencyHistograms.table)
        budgetRows = BulkInsert(database, ReportTables.budgets.table)
        violationRows = BulkInsert(database, ReportTables.budgetViolations.table, rowsPerStatement: 1)
        dictationRows = BulkInsert(database, ReportTables.dictations.table, rowsPerStatement: 1)
        sessionRows = BulkInsert(database, ReportTables.dictationSessions.table, rowsPerStatement: 1)
        extensionRows = ExtensionRowWriter(database)
    }

    /// Writes one run's rows, as many as `detail` keeps, and returns its run id. Its derived
    /// rows are computed here when not given (`RunDerivedRows`, which needs `detail` too).
    mutating func write(_ result: RunResult, batchID: Int64, batch: BatchInfo, detail: ReportDetail = .full,
                        derived: RunDerivedRows? = nil) throws -> Int64 {
        let scenario = batch.scenario
        let (replication, traceIndex) = (result.item.replication, result.item.traceIndex)
        func keeps(_ table: ReportTable) -> Bool { table.retention.keeps(detail, replication: replication, traceIndex: traceIndex) }
        let runID = try writeRun(result, batchID: batchID, batch: batch)
        let observations = result.observations
        let t = ReportTables.threads
        try threadRows.begin(rows: result.summary.threadBusy.count)
        for busy in result.summary.threadBusy {
            try threadRows.set(t.runID, runID)
            try threadRows.set(t.thread, busy.name)
            try threadRows.set(t.busyNs, busy.busy.nanoseconds)
            try threadRows.endRow()
        }
        try threadRows.finish()
        if keeps(keyRows.table) { try writeKeyRows(keys: observations.keys, suggestions: observations.suggestions, runID: runID) }
        if keeps(underlineRows.table) { try writeUnderlines(observations.underlines, runID: runID) }
        if keeps(requestRows.table) { try writeRequests(observations.requests, runID: runID) }
        if keeps(fixRows.table) { try writeFixes(observations.fixes, runID: runID) }
        if keeps(taskRows.table) { try writeTasks(observations.tasks, threads: scenario.keyboard.threads.map(\.name), runID: runID) }
        if keeps(dictationRows.table) { try writeDictations(observations.dictations, runID: runID) }
        if keeps(sessionRows.table) { try writeSessions(observations.dictationSessions, runID: runID) }
        if keeps(touchRows.table) { try writeTouches(observations.touches, runID: runID) }
        if keeps(wordRows.table) { try writeWords(result.summary.typingQuality, runID: runID) }
        try extensionRows.write(observations.extensionRecords, runID: runID, events: keeps(ReportTables.memoryEvents.table))
        let derived = derived ?? RunDerivedRows(result, budgets: scenario.keyboard.budgets,
                                                sortedLatencies: BatchSummary.Builder.sortedLatencies(of: result),
                                                keepsItems: keeps(violationRows.table))
        try writeDerived(derived, runID: runID)
        return runID
    }

    /// Writes the run's `runs` row and returns its id.
    private mutating func writeRun(_ result: RunResult, batchID: Int64, batch: BatchInfo) throws -> Int64 {
        let r = ReportTables.runs
        let scenario = batch.scenario
        let summary = result.summary
        let counters = summary.counters
        try runRows.insertRow { row in
            try row.set(r.batchID, batchID)
            try row.set(r.scenarioName, scenario.name)
            try row.set(r.policy, scenario.policy)
            try row.set(r.seed, Int64(bitPattern: scenario.seed))
            try row.set(r.replication, result.item.replication)
            try row.set(r.traceIndex, result.item.traceIndex)
            try row.set(r.tracePath, result.tracePath)
            try row.set(r.scenarioHash, batch.scenarioHash)
            try row.set(r.tracesHash, batch.tracesHash)
            try row.set(r.keysimVersion, KeysimVersion.current)
            try row.set(r.simEndNs, summary.endTime.nanoseconds)
            try row.set(r.events, summary.eventsProcessed)
            try row.set(r.edits, summary.edits)
            try row.set(r.requests, summary.requests)
            try row.set(r.words, summary.words)
            try row.set(r.characters, summary.characters)
            try row.set(r.checksOfVanishedWords, counters.checksOfVanishedWords)
            try row.set(r.acceptancesWithoutChip, counters.acceptancesWithoutChip)
            try row.set(r.acceptancesWithoutFix, counters.acceptancesWithoutFix)
            try row.set(r.errorWordsFinished, counters.errorWordsFinished)
            try row.set(r.wallSeconds, result.wallSeconds)
        }
        return database.lastInsertRowID
    }

    /// Writes the run's budget violations (when `derived` has them), budget counts and
    /// latency histograms.
    private mutating func writeDerived(_ derived: RunDerivedRows, runID: Int64) throws {
        let v = ReportTables.budgetViolations
        try violationRows.begin(rows: derived.violations.count)
        for violation in derived.violations {
            try violationRows.set(v.runID, runID)
            try violationRows.set(v.budget, violation.metric.rawValue)
            try violationRows.set(v.itemIndex, violation.item)
            try violationRows.set(v.latencyNs, violation.latency.nanoseconds)
            try violationRows.set(v.budgetNs, violation.limit.nanoseconds)
            try violationRows.set(v.cause, violation.cause)
            try violationRows.endRow()
        }
        try violationRows.finish()
        let b = ReportTables.budgets
        try budgetRows.begin(rows: derived.budgets.count)
        for count in derived.budgets {
            try budgetRows.set(b.runID, runID)
            try budgetRows.set(b.metric, count.budget.metric.rawValue)
            try budgetRows.set(b.limitNs, count.budget.limit.nanoseconds)
            try budgetRows.set(b.allowedShare, count.budget.allowedShare)
            try budgetRows.set(b.count, count.count)
            try budgetRows.set(b.over, count.over)
            try budgetRows.endRow()
        }
        try budgetRows.finish()
        let h = ReportTables.latencyHistograms
        try histogramRows.begin(rows: derived.histograms.count)
        for (code, buckets) in derived.histograms.enumerated() {
            try histogramRows.set(h.runID, runID)
            try histogramRows.set(h.metricCode, code)
            try histogramRows.set(h.buckets, buckets)
            try histogramRows.endRow()
        }
        try histogramRows.finish()
    }

    /// The code of `edit` in `edit_kinds` (`ReportTables.editKinds`): its index in `allCases`.
    @inline(__always) static func code(_ edit: EditKind) -> Int { EditKind.allCases.firstIndex(of: edit)! }
    /// The code of `outcome` in `suggestion_outcomes`: its index in `allCases`.
    @inline(__always) static func code(_ outcome: SuggestionOutcome) -> Int { SuggestionOutcome.allCases.firstIndex(of: outcome)! }
}
