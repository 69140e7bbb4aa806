import Scenarios

/// The figures a human-readable report shows — batches, latency and request summaries,
/// budget violations, comparisons and sweeps — read once from the report's views and shared
/// by the Markdown and HTML exporters.
public struct ReportDigest: Sendable {
    /// A table of text cells with a header; numbers already formatted.
    public struct Table: Sendable, Equatable {
        /// Column headers.
        public var headers: [String]
        /// Whether each column holds numbers (right-aligned).
        public var numeric: [Bool]
        /// Rows of cells.
        public var rows: [[String]]
        /// Rows left out to keep the table short.
        public var omittedRows: Int = 0
        /// A sentence the exporters print under the table (where some rows come from).
        public var note: String?
    }

    /// The report file.
    public var path: String
    /// Batches and runs in the report (or in the selected run's batch).
    public var batchCount: Int
    /// Runs in the report.
    public var runCount: Int
    /// The selected run, if any.
    public var runID: Int64?
    /// One line describing the selected run.
    public var runDescription: String?
    /// What `keysim report` selected (`--batch`, `--policy`, `--comparison`, `--sweep`), as
    /// one line; nil for the whole report or one run.
    public var selectionDescription: String?
    /// The batches.
    public var batches: Table
    /// Key latency per batch (or for the run).
    public var keyLatency: Table
    /// Cloud requests per batch (or for the run).
    public var requests: Table
    /// Budget violations per batch and budget (or the run's worst).
    public var violations: Table
    /// Kills, language files and device-token rejections (no rows when none happened).
    public var extensionLife: Table
    /// Stored comparisons.
    public var comparisons: [Comparison]
    /// Stored sweeps.
    public var sweeps: [Sweep]
    /// Suggestion-bar quality per batch (or for the run); no rows when nothing measured it.
    public var typingQuality = Table(headers: [], numeric: [], rows: [])
    /// Underlines by origin and outcome, precision and recall, per batch (or for `--run`).
    public var underlines = Table(headers: [], numeric: [], rows: [])
    /// Touch-boundary figures per batch (or for the run); no rows when no touch was decided.
    public var touches = Table(headers: [], numeric: [], rows: [])
    /// One row per batch (or the run) with what differs between policies: key latency's p99,
    /// requests per 100 words, and the verdict and cost metrics the report has
    /// (`summaryTable`); the compact Markdown's one table.
    public var summary = Table(headers: [], numeric: [], rows: [])
    /// The cloud's tokens, dollars and refusals per batch (or for the run); no rows when no
    /// request was sent.
    public var cost = Table(headers: [], numeric: [], rows: [])

    /// The most rows a digest table shows.
    public static let rowsMax = 100

    /// Reads the digest of the report, or of one run.
    public init(_ store: ReportStore, options: ExportOptions) throws {
        let db = store.database
        path = store.path
        runID = options.runID
        if let runID = options.runID { try ReportInspector.checkRun(db, runID, path: store.path) }
        let views = try db.query("SELECT COUNT(*) FROM sqlite_master WHERE type = 'view' AND name IN ('key_latency_per_batch', 'requests_per_batch')")
        guard views.first?.first == .integer(2) else {
            throw ReportError(file: store.path, message: "the report lacks the summary views of this keysim (written by an earlier build); write it again with this keysim")
        }
        let scope = Scope(options)
        selectionDescription = options.selection?.runID == nil ? options.selection?.summary : nil
        runCount = Int(try db.query("SELECT COUNT(*) FROM runs r WHERE \(options.selection == nil ? "1 = 1" : scope.runs())")[0][0].integerValue)
        batchCount = Int(try db.query("SELECT COUNT(*) FROM batches b WHERE \(options.selection == nil ? "1 = 1" : scope.batches("b.batch_id"))")[0][0].integerValue)
        let hasJobs = try db.tableExists("job_batches")
        let label = hasJobs ? "COALESCE((SELECT label FROM job_batches j WHERE j.batch_id = b.batch_id), b.policy, '')" : "COALESCE(b.policy, '')"
        let batchFilter = " WHERE " + scope.batches("b.batch_id")
        batches = try Self.table(db, headers: ["batch", "command", "scenario", "policy / point", "seed", "runs", "scenario hash", "created"],
                                 numeric: [true, false, false, false, true, true, false, false], sql: """
            SELECT b.batch_id, b.command, b.scenario_name, \(label), b.seed,
                   (SELECT COUNT(*) FROM runs r WHERE r.batch_id = b.batch_id), substr(b.scenario_hash, 1, 12), b.created_at
            FROM batches b\(batchFilter) ORDER BY b.batch_id
            """)
        typingQuality = try Self.typingQualityTable(db, scope: scope, label: label)
        underlines = try Self.underlineTable(db, scope: scope, label: label)
        touches = try Self.touchTable(db, scope: scope, label: label)
        cost = try Self.costTable(db, scope: scope, label: label)
        extensionLife = try Self.extensionTable(db, scope: scope)
        if let runID = options.runID {
            let run = try db.query("""
                SELECT r.scenario_name, COALESCE(r.policy, ''), r.replication, r.trace_index, r.trace_path, r.seed, r.batch_id
                FROM runs r WHERE r.run_id = ?
                """, [.integer(runID)])[0]
            let policy = run[1].textValue.isEmpty ? "" : ", policy \(run[1].textValue)"
            runDescription = "run \(runID): scenario \(run[0].textValue)\(policy), replication \(run[2].integerValue), trace \(run[3].integerValue) (\(run[4].textValue)), seed \(run[5].integerValue), batch \(run[6].integerValue)"
            keyLatency = try Self.table(db, headers: ["run", "keys", "mean", "p50", "p95", "p99", "max", "over budget"],
                                        numeric: Array(repeating: true, count: 8), sql: """
                SELECT run_id, count, mean_ms, p50_ms, p95_ms, p99_ms, max_ms, share_over_budget
                FROM key_latency_per_run WHERE run_id = \(runID)
                """, formats: [.integer, .integer, .ms, .ms, .ms, .ms, .ms, .percent])
            if keyLatency.rows.isEmpty, let row = try Self.keyLatencyRowFromHistograms(db, runID: runID) {
                keyLatency.rows = [row]
                keyLatency.note = Self.histogramNote
            }
            requests = try Self.table(db, headers: ["run", "requests", "per 100 words", "characters sent", "round trip mean (ms)", "max (ms)"],
                                      numeric: Array(repeating: true, count: 6), sql: """
                SELECT run_id, requests, requests_per_100_words, characters_sent, mean_round_trip_ms, max_round_trip_ms
                FROM requests_per_run WHERE run_id = \(runID)
                """, formats: [.integer, .integer, .fixed1, .integer, .ms0, .ms0])
            violations = try Self.table(db, headers: ["budget", "item", "latency (ms)", "budget (ms)", "cause"],
                                        numeric: [false, true, true, true, false], sql: """
                SELECT budget, item_index, latency_ns / 1e6, budget_ns / 1e6, cause FROM budget_violations
                WHERE run_id = \(runID) ORDER BY latency_ns DESC, budget, item_index
                """, formats: [.text, .integer, .ms, .ms0, .text], limit: 20)
            if let row = try Self.requestRowsFromRuns(db, label: label, scope: scope)[String(runID)] {
                requests.rows = [row]
                requests.note = Self.perRunNote
            }
            if violations.rows.isEmpty {
                violations.rows = try Self.violationRowsFromBudgets(db, label: label, scope: scope)
                if !violations.rows.isEmpty { violations.note = Self.perRunNote }
            }
            comparisons = []
            sweeps = []
            summary = try Self.summaryTable(db, scope: scope, label: label, keyLatency: keyLatency, requests: requests)
            return
        }
        runDescription = nil
        keyLatency = try Self.table(db, headers: ["batch", "scenario", "policy / point", "keys", "mean", "p50", "p95", "p99", "max", "budget", "over budget"],
                                    numeric: [true, false, false] + Array(repeating: true, count: 8), sql: """
            SELECT batch_id, scenario_name, label, count, mean_ms, p50_ms, p95_ms, p99_ms, max_ms, budget_ms, share_over_budget
            FROM key_latency_per_batch WHERE \(scope.batches("batch_id")) ORDER BY batch_id
            """, formats: [.integer, .text, .text, .integer, .ms, .ms, .ms, .ms, .ms, .ms0, .percent])
        let fromHistograms = try Self.keyLatencyRowsFromHistograms(db, label: label, scope: scope, skipping: Set(keyLatency.rows.map { $0[0] }))
        if !fromHistograms.isEmpty {
            keyLatency.rows = (keyLatency.rows + fromHistograms).sorted { Int($0[0]) ?? 0 < Int($1[0]) ?? 0 }
            keyLatency.note = Self.histogramNote
        }
        requests = try Self.table(db, headers: ["batch", "scenario", "policy / point", "runs", "requests", "per 100 words (pooled)", "characters sent", "round trip mean (ms)", "p95 (ms)", "max (ms)"],
                                  numeric: [true, false, false] + Array(repeating: true, count: 7), sql: """
            SELECT batch_id, scenario_name, label, runs, requests, requests_per_100_words, characters_sent, mean_round_trip_ms,
                   p95_round_trip_ms, max_round_trip_ms
            FROM requests_per_batch WHERE \(scope.batches("batch_id")) ORDER BY batch_id
            """, formats: [.integer, .text, .text, .integer, .integer, .fixed1, .integer, .ms0, .ms0, .ms0])
        let requestsFromRuns = try Self.requestRowsFromRuns(db, label: label, scope: scope)
        if !requestsFromRuns.isEmpty {
            requests.rows = requests.rows.map { requestsFromRuns[$0[0]] ?? $0 }
            requests.note = Self.perRunNote
        }
        violations = try Self.table(db, headers: ["batch", "policy / point", "budget", "violations", "worst (ms)", "budget (ms)"],
                                    numeric: [true, false, false, true, true, true], sql: """
            SELECT r.batch_id, \(label.replacingOccurrences(of: "b.", with: "bb.")), v.budget, COUNT(*), MAX(v.latency_ns) / 1e6, MAX(v.budget_ns) / 1e6
            FROM budget_violations v JOIN runs r USING (run_id) JOIN batches bb ON bb.batch_id = r.batch_id
            WHERE \(scope.runs()) GROUP BY r.batch_id, v.budget ORDER BY r.batch_id, v.budget
            """, formats: [.integer, .text, .text, .integer, .ms, .ms0])
        let violationsFromBudgets = try Self.violationRowsFromBudgets(db, label: label, scope: scope)
        if !violationsFromBudgets.isEmpty {
            violations.rows = (violations.rows + violationsFromBudgets).sorted { Int($0[0]) ?? 0 < Int($1[0]) ?? 0 }
            violations.note = Self.perRunNote
        }
        comparisons = try Comparison.load(db)
        sweeps = try Sweep.load(db)
        summary = try Self.summaryTable(db, scope: scope, label: label, keyLatency: keyLatency, requests: requests)
        if let selection = options.selection {
            comparisons = comparisons.filter { selection.comparisonIDs.contains($0.id) }
            sweeps = sweeps.filter { selection.sweepIDs.contains($0.id) }
        }
    }

    /// How a column's values are shown.
    enum Format {
        case text, integer, ms, ms0, fixed1, percent
        /// Dollars to six decimals: a cloud's cost per 1,000 words is a fraction of a cent.
        case usd
        /// A share as a percentage with two decimals, for rates of a few percent.
        case percent2
    }

    static func table(_ db: Database, headers: [String], numeric: [Bool], sql: String,
                              formats: [Format]? = nil, limit: Int = rowsMax) throws -> Table {
        let rows = try db.query(sql)
        let shown = rows.prefix(limit).map { row in
            row.enumerated().map { index, value in format(value, formats?[index] ?? (numeric[index] ? .integer : .text)) }
        }
        return Table(headers: headers, numeric: numeric, rows: shown, omittedRows: max(0, rows.count - limit))
    }

    static func format(_ value: SQLValue, _ format: Format) -> String {
        if value == .null { return "–" }
        switch format {
        case .text:
            if case .text(let text) = value { return text.isEmpty ? "–" : text }
            if case .real(let number) = value { return NumberText.shortest(number) }
            return value.description
        case .integer: return value.doubleValue.map { TextTable.fixed($0, 0) } ?? value.textValue
        case .ms: return value.doubleValue.map { TextTable.fixed($0, 2) } ?? "–"
        case .ms0: return value.doubleValue.map { TextTable.fixed($0, 0) } ?? "–"
        case .fixed1: return value.doubleValue.map { TextTable.fixed($0, 1) } ?? "–"
        case .percent: return value.doubleValue.map { TextTable.percent($0) } ?? "–"
        case .percent2: return value.doubleValue.map { TextTable.fixed($0 * 100, 2) + "%" } ?? "–"
        case .usd: return value.doubleValue.map { TextTable.fixed($0, 6) } ?? "–"
        }
    }
}
