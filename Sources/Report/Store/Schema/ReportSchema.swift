/// The SQLite schema of a keysim report, made from the table declarations
/// (`ReportTables`) and the views (`ReportSchema+Views`). Documented for users in
/// `docs/report-schema.md`, whose tables section is generated from the same declarations
/// (`ReportSchema.tablesMarkdown`); bump `version` whenever a change would make an older
/// keysim misread a newer file.
public enum ReportSchema {
    /// `PRAGMA user_version` of reports this build writes and reads.
    public static let version = 7
    /// `PRAGMA application_id` of keysim reports: "ksim" in ASCII.
    public static let applicationID: Int32 = 0x6B73_696D

    /// Every table of a report, in the order the docs list them and the schema creates them.
    public static var tables: [ReportTable] { declaredTables }

    /// The lookup tables, whose codes `createSQL` fills.
    static let lookups = [ReportTables.editKinds, ReportTables.suggestionOutcomes, ReportTables.workKinds, ReportTables.latencyMetrics]

    private static let declaredTables: [ReportTable] = ([
        ReportTables.batches, ReportTables.runs, ReportTables.threads,
        ReportTables.keyRows, ReportTables.taskExecutors, ReportTables.taskRows, ReportTables.debounceEvents,
        ReportTables.underlines, ReportTables.requests, ReportTables.fixes,
        ReportTables.dictations, ReportTables.dictationSessions,
        ReportTables.budgets, ReportTables.budgetViolations, ReportTables.latencyHistograms,
        ReportTables.words, ReportTables.touches,
        ReportTables.memoryEvents, ReportTables.kills, ReportTables.downloads, ReportTables.languageLoads,
        ReportTables.tokenRejections, ReportTables.extensionPerRun,
        ReportTables.jobs, ReportTables.jobBatches, ReportTables.jobRuns, ReportTables.metrics, ReportTables.runMetrics,
        ReportTables.comparisons, ReportTables.comparisonMetrics, ReportTables.sweeps, ReportTables.sweepPoints,
        ReportTables.fleetSummary, ReportTables.fleetMinutes, ReportTables.fleetHistograms,
    ] as [any ReportTableDeclaration]).map(\.table) + lookups.map(\.table)

    /// Creates every table, index and view, and fills the lookup tables (idempotent).
    static let createSQL = tables.map(\.createSQL).joined() + lookups.map(\.fillSQL).joined() + "\n" + viewsSQL

    /// Each compact table and the view that reads it as the table it replaces.
    public static var compatibilityViews: [(table: String, view: String)] {
        tables.flatMap { table in table.readThrough.filter { _ in table.role == .data }.map { (table.name, $0) } }
    }

    /// Tables that only name codes, or hold figures derived from other rows (each run's
    /// latency histograms are a function of its latencies at the full detail level); they
    /// say nothing the digested tables and views do not, so `ReportRowDigest` leaves them out.
    public static var lookupTables: Set<String> { Set(tables.filter { $0.role != .data }.map(\.name)) }

    /// Creates whatever of the schema `database` lacks. Writers call this inside their
    /// transaction, so a report made before a table existed (the job and analysis tables,
    /// `debounce_events`) gains it; the tables it had are left as they are.
    static func ensureAnalysisTables(_ database: Database) throws(SQLiteError) {
        let present = try database.query("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ("
                                          + tables.map { "'\($0.name)'" }.joined(separator: ", ") + ")")
        if present.first?.first != .integer(Int64(tables.count)) {
            try database.execute(createSQL)
        }
    }
}
