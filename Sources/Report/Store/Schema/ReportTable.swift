import Scenarios

/// One table of a report as data: what its `CREATE TABLE`, its row inserter and its section
/// of `docs/report-schema.md` are made from. Each table is declared once, as a
/// `ReportTableDeclaration` in `ReportTables` (`ReportTables+….swift`); nothing else lists its
/// columns.
public struct ReportTable: Sendable {
    /// The table's name.
    public let name: String
    /// What one row is, as the docs' "one row per …" says it.
    public let rowPer: String
    /// Its columns, in table order.
    public let columns: [ReportColumn]
    /// The primary-key columns in key order; empty for a table keyed by its rowid alone.
    public let primaryKey: [String]
    /// Whether the table is stored `WITHOUT ROWID` (keyed rows, clustered by their key).
    public let withoutRowID: Bool
    /// Its indexes beyond the primary key.
    public let indexes: [ReportIndex]
    /// At which detail levels a run writes rows into it.
    public let retention: RowRetention
    /// What the table is to the report: measured rows, a lookup of codes, derived figures.
    public let role: Role
    /// The views that read it as the tables it replaced (`key_rows` is read as `keys` and
    /// `suggestions`); empty for a table read as itself.
    public let readThrough: [String]
    /// More about the table, for the docs; nil for none.
    public let note: String?
    /// The declaration it came from, so that a column handle is only ever bound to its
    /// own table's inserter.
    let declaration: ObjectIdentifier

    /// What a table holds.
    public enum Role: Sendable {
        /// Rows measured or written by a command: digested, exported, merged.
        case data
        /// Names of small integer codes, filled once per file: not digested.
        case lookup
        /// Figures derived from other rows (a run's latency histograms): not digested.
        case derived
    }

    /// The column called `name`.
    /// - Precondition: the table has it.
    public func column(named name: String) -> ReportColumn {
        guard let column = columns.first(where: { $0.name == name }) else { preconditionFailure("\(self.name) has no column \(name)") }
        return column
    }
}

/// One column of a report table.
public struct ReportColumn: Sendable {
    /// Its name, units last (`latency_ns`).
    public let name: String
    /// SQLite's type for it.
    public let type: SQLType
    /// Whether it may hold `NULL`.
    public let isNullable: Bool
    /// Whether it is the table's rowid, assigned by SQLite when a row is inserted
    /// (`INTEGER PRIMARY KEY`, never bound by a writer).
    public let isAssignedRowID: Bool
    /// The unit of its values ("ns", "MB"), or nil for counts, codes, flags and names.
    public let unit: String?
    /// The table and column it refers to (`runs(run_id)`), or nil.
    public let references: String?
    /// What its values mean, for the docs; empty when the name says it all.
    public let doc: String

    /// The storage types a report uses.
    public enum SQLType: String, Sendable {
        /// 64-bit integers (and Booleans as 0 or 1).
        case integer = "INTEGER"
        /// Doubles.
        case real = "REAL"
        /// UTF-8 text.
        case text = "TEXT"
    }

    /// The unit a column name ends in by the report's convention (`*_ns`, `*_mb`…), nil
    /// when it ends in none.
    static func unit(impliedBy name: String) -> String? {
        let units = [("_ns", "ns"), ("_ms", "ms"), ("_mb", "MB"), ("_bytes", "bytes"), ("_pt", "pt"), ("_seconds", "s")]
        return units.first { name.hasSuffix($0.0) }?.1
    }
}

/// An index of a report table beyond its primary key.
public struct ReportIndex: Sendable {
    /// The index's name (`runs_by_batch`).
    public let name: String
    /// The indexed columns, in order.
    public let columns: [String]
    /// Whether two rows may not share the indexed values.
    public let isUnique: Bool
    /// What reads it, for the docs.
    public let doc: String
}

/// At which detail levels (`--detail`) a run writes rows into a table.
public enum RowRetention: Sendable, Equatable {
    /// At every level: per-run figures, histograms, jobs and their analysis.
    case always
    /// At `default` and `full`: the rows of each key, request, underline…
    case items
    /// At `full`, and at `default` for the runs that keep a timeline (replication 0 of each
    /// of a batch's first `ReportDetail.timelineTraces` traces).
    case timeline

    /// Whether the run of `replication` of trace `traceIndex` keeps these rows at `detail`.
    @inline(__always)
    public func keeps(_ detail: ReportDetail, replication: Int, traceIndex: Int) -> Bool {
        switch self {
        case .always: true
        case .items: detail.keepsItems
        case .timeline: detail.keepsTasks(replication: replication, traceIndex: traceIndex)
        }
    }
}
