import Foundation

/// A table or view of a report, as an exporter sees it.
public struct ReportRelation: Sendable, Equatable {
    /// Its name.
    public var name: String
    /// Whether it is a view rather than a table.
    public var isView: Bool
    /// Its columns, in order.
    public var columns: [String]
    /// The primary-key columns in key order (empty for views and rowid tables without one).
    public var primaryKey: [String]

    /// Whether rows belong to one run (the relation has a `run_id` column).
    public var isPerRun: Bool { columns.contains("run_id") }
    /// Whether rows belong to one batch (a `batch_id` column and no `run_id`).
    public var isPerBatch: Bool { !isPerRun && columns.contains("batch_id") }
}

extension ReportStore {
    /// Removes a report file with its `-wal` and `-shm` companions: for a report a failed
    /// command created and must not leave behind. Close every connection to it first.
    static func removeFiles(of path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// A private name beside `path` (`.NAME.keysim-new-PID-N`) for a new report that no
    /// other process may see before it is whole: it is made there, then `publish`ed.
    static func privatePath(besides path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = ".\(url.lastPathComponent).keysim-new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Puts the closed, whole report at `privatePath` in place at `path` with `link(2)`,
    /// which fails when `path` exists: `.published`, `.exists` when another process made
    /// `path` first, `.unsupported` on a file system without hard links. The private name
    /// stays; the caller removes it.
    static func publish(_ privatePath: String, at path: String) throws(ReportError) -> Publication {
        guard link(privatePath, path) != 0 else { return .published }
        let code = errno
        if code == EEXIST { return .exists }
        if code == EPERM || code == ENOTSUP || code == EOPNOTSUPP || code == EXDEV || code == EMLINK { return .unsupported }
        throw ReportError(file: path, message: "cannot create the report (\(String(cString: strerror(code))))")
    }

    /// What `publish` did.
    enum Publication { case published, exists, unsupported }

    /// Whether `other` names the report at `path` or one of its `-wal` and `-shm` files:
    /// the same device and inode when both exist (hard and symbolic links included), the
    /// same resolved path otherwise.
    public static func isPart(of path: String, _ other: String) -> Bool {
        ["", "-wal", "-shm"].contains { sameFile(path + $0, other) }
    }

    /// Whether two paths name one file.
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        if stat(a, &first) == 0, stat(b, &second) == 0 { return first.st_dev == second.st_dev && first.st_ino == second.st_ino }
        func resolved(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        return resolved(a) == resolved(b)
    }
}

/// What an export includes.
public struct ExportOptions: Sendable, Equatable {
    /// Only this run (and its batch's rows), when set; the run a timeline draws.
    public var runID: Int64?
    /// The batches, comparison, sweep or run selected (`keysim report --batch` …); nil for the
    /// whole report, or for `runID` alone.
    public var selection: ReportSelection?
    /// Whether columns holding typed text are included (they are left out by default).
    public var includeText: Bool

    /// Creates options.
    public init(runID: Int64? = nil, includeText: Bool = false) {
        self.runID = runID
        self.includeText = includeText
    }
}

/// Reading a report without knowing its tables in advance: exporters, merge and tests list
/// the tables from `sqlite_master`, so tables other parts of keysim add appear without
/// changes here.
public enum ReportInspector {
    /// The names of the report's tables (not views, not SQLite's own), sorted.
    public static func tableNames(_ database: Database) throws(SQLiteError) -> [String] {
        try database.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            .map(\.[0].textValue)
    }

    /// Every table, then every view, each group sorted by name.
    public static func relations(_ database: Database) throws(SQLiteError) -> [ReportRelation] {
        let rows = try database.query("""
            SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'
            ORDER BY type = 'view', name
            """)
        var relations: [ReportRelation] = []
        for row in rows {
            let name = row[0].textValue
            let info = try database.query("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", [.text(name)])
            let keyed = info.filter { $0[1].integerValue > 0 }.sorted { $0[1].integerValue < $1[1].integerValue }
            relations.append(ReportRelation(name: name, isView: row[1].textValue == "view", columns: info.map(\.[0].textValue),
                                            primaryKey: keyed.map(\.[0].textValue)))
        }
        return relations
    }

    /// The relation called `name`, if the report has it.
    public static func relation(_ database: Database, named name: String) throws(SQLiteError) -> ReportRelation? {
        try relations(database).first { $0.name == name }
    }

    /// Whether a column holds text a user typed. By convention such columns are named
    /// `text` or end in `_text`; exporters leave them out unless asked (`--include-text`),
    /// because keystrokes are the most sensitive data a phone has.
    public static func isTypedText(_ column: String) -> Bool {
        column == "text" || column.hasSuffix("_text")
    }

    /// The columns of `relation` an export shows.
    public static func exportedColumns(_ relation: ReportRelation, _ options: ExportOptions) -> [String] {
        options.includeText ? relation.columns : relation.columns.filter { !isTypedText($0) }
    }

    /// The typed-text columns an export leaves out, as `table.column`.
    public static func omittedTextColumns(_ relations: [ReportRelation], _ options: ExportOptions) -> [String] {
        guard !options.includeText else { return [] }
        return relations.flatMap { relation in relation.columns.filter(isTypedText).map { "\(relation.name).\($0)" } }
    }

    /// Whether `relation` has rows to export under `options`: with a run selected, only
    /// relations keyed by run or batch do; with a selection, those keyed by what it selects
    /// (runs, batches, comparisons, sweeps, jobs, and for `--policy` the per-policy views).
    public static func isExported(_ relation: ReportRelation, _ options: ExportOptions) -> Bool {
        if let selection = options.selection { return selectionCondition(relation, selection) != nil }
        return options.runID == nil || relation.isPerRun || relation.isPerBatch
    }

    /// The SQL condition that keeps the rows of `relation` that `selection` selects, by the
    /// first key column it has — `run_id`, `comparison_id`, `sweep_id`, `batch_id`, `job_id`
    /// (a sweep's points by their sweep, a job's batches by batch) — or `policy` for
    /// `--policy`; nil when it has none of them, or the selection none of what it is keyed
    /// by (a one-batch export holds no comparison): nothing of it is exported.
    static func selectionCondition(_ relation: ReportRelation, _ selection: ReportSelection) -> String? {
        let columns = Set(relation.columns)
        if columns.contains("run_id") { return selection.runCondition("run_id") }
        func among(_ column: String, _ ids: [Int64]) -> String? { ids.isEmpty ? nil : "\(column) IN (\(ReportSelection.list(ids)))" }
        if columns.contains("comparison_id") { return among("comparison_id", selection.comparisonIDs) }
        if columns.contains("sweep_id") { return among("sweep_id", selection.sweepIDs) }
        if columns.contains("batch_id") { return selection.batchCondition("batch_id") }
        if columns.contains("job_id") { return among("job_id", selection.jobIDs) }
        if columns.contains("policy"), let policy = selection.policy { return "policy = \(literal(policy))" }
        return nil
    }

    /// A statement that reads the exported columns of `relation` in a stable order (its
    /// primary key, its rowid, or its first columns for a view), limited to the selected
    /// run or that run's batch.
    public static func select(_ database: Database, _ relation: ReportRelation, _ options: ExportOptions) throws -> Statement {
        let columns = exportedColumns(relation, options).map(quoted).joined(separator: ", ")
        var sql = "SELECT \(columns.isEmpty ? "NULL" : columns) FROM \(quoted(relation.name))"
        if let selection = options.selection {
            sql += " WHERE " + (selectionCondition(relation, selection) ?? "0")
        } else if let runID = options.runID {
            if relation.isPerRun {
                sql += " WHERE run_id = \(runID)"
            } else if relation.isPerBatch {
                sql += " WHERE batch_id = (SELECT batch_id FROM runs WHERE run_id = \(runID))"
            }
        }
        if !relation.primaryKey.isEmpty {
            sql += " ORDER BY " + relation.primaryKey.map(quoted).joined(separator: ", ")
        } else if !relation.isView {
            sql += " ORDER BY rowid"
        } else if !relation.columns.isEmpty {
            sql += " ORDER BY " + (1...min(3, relation.columns.count)).map(String.init).joined(separator: ", ")
        }
        return try database.prepare(sql)
    }

    /// The rows of every table together.
    public static func rowCount(_ database: Database) throws(SQLiteError) -> Int {
        var total = 0
        for table in try tableNames(database) {
            total += Int(try database.query("SELECT COUNT(*) FROM \(quoted(table))").first?.first?.integerValue ?? 0)
        }
        return total
    }

    /// Checks that run `runID` exists.
    public static func checkRun(_ database: Database, _ runID: Int64, path: String) throws {
        let found = try database.query("SELECT COUNT(*) FROM runs WHERE run_id = ?", [.integer(runID)])
        guard found.first?.first?.integerValue == 1 else {
            let range = try database.query("SELECT MIN(run_id), MAX(run_id) FROM runs")[0]
            let known = range[0] == .null ? "the report has no runs" : "runs are \(range[0].integerValue)…\(range[1].integerValue)"
            throw ReportError(file: path, message: "no run \(runID); \(known)")
        }
    }

    /// `text` as an SQL string literal.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// `name` as a quoted SQL identifier.
    public static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
