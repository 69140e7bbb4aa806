/// A column of one declared table, resolved once: a writer names the column it binds
/// (`rows.set(keys.touchNs, …)`), and the handle says where the value goes.
///
/// `Value` is the Swift type the column takes, and says its SQLite type: `Int64` and `Bool`
/// are `INTEGER NOT NULL`, `Double` `REAL NOT NULL`, `String` `TEXT NOT NULL`, an optional
/// the same type without `NOT NULL`, and `RowID` the table's `INTEGER PRIMARY KEY`, which
/// SQLite assigns. A value of another type does not compile.
struct TableColumn<Value: ColumnValue>: TableColumnHandle {
    /// The column's place in its table (from 0).
    let index: Int32
    /// Its place among the columns a writer binds (all but a rowid SQLite assigns), from 0;
    /// -1 for that rowid.
    let slot: Int32
    /// The declaration the column belongs to.
    let table: ObjectIdentifier
}

/// A column handle of any value type: what a primary key or an index lists.
protocol TableColumnHandle: Sendable {
    /// The column's place in its table (from 0).
    var index: Int32 { get }
}

/// A Swift type a report column can hold, and the SQLite type it is stored as.
protocol ColumnValue {
    /// The column's SQLite type.
    static var sqlType: ReportColumn.SQLType { get }
    /// Whether the column may hold `NULL`.
    static var isNullable: Bool { get }
    /// Whether SQLite assigns the value (the rowid), so that no writer binds it.
    static var isAssignedRowID: Bool { get }
}

extension ColumnValue {
    static var isNullable: Bool { false }
    static var isAssignedRowID: Bool { false }
}

extension Int64: ColumnValue {
    static var sqlType: ReportColumn.SQLType { .integer }
}

/// Stored as 0 or 1 in an `INTEGER` column.
extension Bool: ColumnValue {
    static var sqlType: ReportColumn.SQLType { .integer }
}

extension Double: ColumnValue {
    static var sqlType: ReportColumn.SQLType { .real }
}

extension String: ColumnValue {
    static var sqlType: ReportColumn.SQLType { .text }
}

extension Optional: ColumnValue where Wrapped: ColumnValue {
    static var sqlType: ReportColumn.SQLType { Wrapped.sqlType }
    static var isNullable: Bool { true }
}

/// A table's `INTEGER PRIMARY KEY`, assigned by SQLite on insert (read it back with
/// `Database.lastInsertRowID`).
enum RowID: ColumnValue {
    static var sqlType: ReportColumn.SQLType { .integer }
    static var isAssignedRowID: Bool { true }
}

/// Collects a table's columns in order while its declaration assigns their handles, then
/// makes the `ReportTable`.
///
///     var t = ReportTableBuilder(Self.self, "threads", rowPer: "(run, thread)")
///     runID = t.runID()
///     thread = t.column("thread")
///     busyNs = t.column("busy_ns", "time the thread spent running tasks")
///     table = t.table(primaryKey: [runID, thread], withoutRowID: true)
struct ReportTableBuilder {
    private let name: String
    private let rowPer: String
    private let declaration: ObjectIdentifier
    private var columns: [ReportColumn] = []

    /// Starts the table `name` of `declaration`, whose rows are each one `rowPer`.
    init<Declaration>(_ declaration: Declaration.Type, _ name: String, rowPer: String) {
        self.name = name
        self.rowPer = rowPer
        self.declaration = ObjectIdentifier(declaration)
    }

    /// Adds the next column. Its unit is the one its name ends in (`_ns`, `_mb`…) unless
    /// `unit` says otherwise.
    /// - Parameters:
    ///   - doc: what its values mean, when the name does not say it all.
    ///   - references: the table and column it refers to (`runs(run_id)`).
    mutating func column<Value: ColumnValue>(_ name: String, _ doc: String = "", unit: String? = nil,
                                            references: String? = nil) -> TableColumn<Value> {
        precondition(!columns.contains { $0.name == name }, "\(self.name).\(name) declared twice")
        precondition(columns.count < 64, "\(self.name): at most 64 columns (a row's bound columns are one bit mask)")
        columns.append(ReportColumn(name: name, type: Value.sqlType, isNullable: Value.isNullable,
                                    isAssignedRowID: Value.isAssignedRowID, unit: unit ?? ReportColumn.unit(impliedBy: name),
                                    references: references, doc: doc))
        let slot = Value.isAssignedRowID ? -1 : Int32(columns.count { !$0.isAssignedRowID } - 1)
        return TableColumn(index: Int32(columns.count - 1), slot: slot, table: declaration)
    }

    /// Adds `run_id`, the run a row belongs to (`runs(run_id)`).
    mutating func runID() -> TableColumn<Int64> { column("run_id", references: "runs(run_id)") }

    /// The table.
    /// - Parameters:
    ///   - primaryKey: its key columns in order; empty for a table keyed by its rowid.
    ///   - indexes: its indexes beyond the key: name, columns, unique, what reads it.
    ///   - retention: the detail levels at which runs write into it.
    ///   - readThrough: the views that read it as the tables it replaced.
    func table(primaryKey: [any TableColumnHandle], withoutRowID: Bool = false,
               indexes: [(name: String, columns: [any TableColumnHandle], unique: Bool, doc: String)] = [],
               retention: RowRetention = .always, role: ReportTable.Role = .data, readThrough: [String] = [],
               note: String? = nil) -> ReportTable {
        let rowIDs = columns.filter(\.isAssignedRowID)
        precondition(rowIDs.isEmpty || (primaryKey.count == 1 && columns[Int(primaryKey[0].index)].isAssignedRowID),
                     "\(name): a RowID column is the table's whole primary key")
        precondition(!withoutRowID || !primaryKey.isEmpty, "\(name): a WITHOUT ROWID table needs a primary key")
        return ReportTable(
            name: name, rowPer: rowPer, columns: columns, primaryKey: primaryKey.map { columns[Int($0.index)].name },
            withoutRowID: withoutRowID,
            indexes: indexes.map { ReportIndex(name: $0.name, columns: $0.columns.map { columns[Int($0.index)].name },
                                               isUnique: $0.unique, doc: $0.doc) },
            retention: retention, role: role, readThrough: readThrough, note: note, declaration: declaration)
    }
}
