/// Inserts rows into one declared table (`ReportTable`) through multi-row statements: the
/// hot path of report writing. A writer binds each value to the column it names, through
/// that column's handle (`TableColumn`), in any order.
///
/// SQLite spends a good part of a one-row `INSERT` starting and finishing the statement
/// (opening cursors, checking the transaction, halting, resetting). A statement
/// `INSERT INTO t (…) VALUES (…), (…), …` of `rowsPerStatement` rows pays that once for all
/// of them, and its cursor stays on the last page between rows, so rows appended in key
/// order are also cheaper to place.
///
/// The caller announces how many rows it is about to add (`begin(rows:)`); values are bound
/// straight into the statement as they are set, with no buffering. Whole groups go through
/// the full statement, and the last few rows through a statement of exactly that many
/// rows, prepared the first time that count comes up and kept.
///
///     let t = ReportTables.threads
///     var threads = try BulkInsert(db, t.table)
///     try threads.begin(rows: busy.count)
///     for thread in busy {
///         try threads.set(t.runID, runID)
///         try threads.set(t.thread, thread.name)
///         try threads.set(t.busyNs, thread.busy.nanoseconds)
///         try threads.endRow()
///     }
///     try threads.finish()
///
/// `endRow()` checks that the row bound as many values as the table has columns; debug builds
/// (and so the tests) check each column: one left out or bound twice traps, naming it.
/// `finish()` checks that every announced row came.
struct BulkInsert {
    /// The table written to.
    let table: ReportTable
    private let database: Database
    private let replacing: Bool
    private let declaration: ObjectIdentifier
    private let columnCount: Int32
    /// Every column's bit set: what `bound` holds once a row is complete.
    private let allBound: UInt64
    private let rowsPerStatement: Int32
    /// The statement of `rowsPerStatement` rows, prepared when a group first fills it.
    private var full: Statement?
    /// Statements of fewer rows, by row count.
    private var partial: [Int32: Statement] = [:]
    /// The statement being bound, and how many rows it takes.
    private var current: Statement?
    private var currentRows: Int32 = 0
    /// Rows announced and not yet ended.
    private var rowsLeft = 0
    /// Rows bound in the current statement.
    private var row: Int32 = 0
    /// The statement parameter of the current row's first column (parameters count from 1).
    private var rowBase: Int32 = 1
    /// Values bound in the current row.
    private var boundCount: Int32 = 0
    /// The columns of the current row bound so far, one bit each (debug builds: which
    /// column is missing or bound twice).
    private var bound: UInt64 = 0

    /// The most parameters one statement gets: far below SQLite's limit (32766 since 3.32),
    /// and enough that statement overhead no longer shows.
    static let parametersPerStatementMax = 1024

    /// Prepares to insert into `table`.
    /// - Parameters:
    ///   - replacing: whether a row replaces the one with its key (`INSERT OR REPLACE`)
    ///     instead of failing.
    ///   - rowsPerStatement: rows per statement; by default as many as fit in
    ///     `parametersPerStatementMax` parameters, at most 64.
    init(_ database: Database, _ table: ReportTable, replacing: Bool = false, rowsPerStatement: Int? = nil) {
        let count = table.insertedColumns.count
        precondition(count > 0 && count <= 64, "1...64 columns")
        self.table = table
        self.database = database
        self.replacing = replacing
        declaration = table.declaration
        columnCount = Int32(count)
        allBound = count == 64 ? .max : (1 << UInt64(count)) - 1
        self.rowsPerStatement = Int32(max(1, rowsPerStatement ?? min(64, Self.parametersPerStatementMax / count)))
    }

    /// Announces the next `rows` rows. Whatever a write that failed part way left bound is
    /// dropped.
    mutating func begin(rows: Int) throws(SQLiteError) {
        precondition(rows >= 0, "a count of rows")
        row = 0
        rowBase = 1
        boundCount = 0
        bound = 0
        rowsLeft = rows
        try pickStatement()
    }

    /// Inserts one row: `fill` sets its columns.
    mutating func insertRow(_ fill: (inout BulkInsert) throws -> Void) throws {
        try begin(rows: 1)
        try fill(&self)
        try endRow()
        try finish()
    }

    /// Points `current` at the statement for the rows left.
    private mutating func pickStatement() throws(SQLiteError) {
        guard rowsLeft > 0 else { return }
        let count = min(Int32(clamping: rowsLeft), rowsPerStatement)
        if count == rowsPerStatement, let full {
            current = full
        } else if let known = partial[count] {
            current = known
        } else {
            let statement = try database.prepare(table.insertSQL(rows: Int(count), replacing: replacing))
            if count == rowsPerStatement { full = statement } else { partial[count] = statement }
            current = statement
        }
        currentRows = count
    }

    /// The statement parameter of `slot` in the current row. Debug builds check that the
    /// row has not bound it yet; every build counts it, for `endRow`.
    @inline(__always)
    private mutating func parameter(_ slot: Int32, of table: ObjectIdentifier) -> Int32 {
        precondition(rowsLeft > 0, "more rows of \(self.table.name) than announced")
        #if DEBUG
        precondition(table == declaration, "a column of another table bound to \(self.table.name)")
        let bit: UInt64 = 1 << UInt64(slot)
        if bound & bit != 0 { boundTwice(slot) }
        bound |= bit
        #endif
        boundCount += 1
        return rowBase + slot
    }

    @inline(never)
    private func boundTwice(_ slot: Int32) -> Never {
        preconditionFailure("\(table.name).\(table.insertedColumns[Int(slot)].name) bound twice in one row")
    }

    /// Sets an integer column.
    @inline(__always) mutating func set(_ column: TableColumn<Int64>, _ value: Int64) throws(SQLiteError) {
        try current!.bind(value, at: parameter(column.slot, of: column.table))
    }
    /// Sets an integer column.
    @inline(__always) mutating func set(_ column: TableColumn<Int64>, _ value: Int) throws(SQLiteError) {
        try current!.bind(Int64(value), at: parameter(column.slot, of: column.table))
    }
    /// Sets a nullable integer column (`NULL` for nil).
    @inline(__always) mutating func set(_ column: TableColumn<Int64?>, _ value: Int64?) throws(SQLiteError) {
        let index = parameter(column.slot, of: column.table)
        if let value { try current!.bind(value, at: index) } else { try current!.bindNull(at: index) }
    }
    /// Sets a nullable integer column (`NULL` for nil).
    @inline(__always) mutating func set(_ column: TableColumn<Int64?>, _ value: Int?) throws(SQLiteError) {
        try set(column, value.map(Int64.init))
    }
    /// Sets a Boolean column: 0 or 1.
    @inline(__always) mutating func set(_ column: TableColumn<Bool>, _ value: Bool) throws(SQLiteError) {
        try current!.bind(value, at: parameter(column.slot, of: column.table))
    }
    /// Sets a nullable Boolean column: 0, 1 or `NULL`.
    @inline(__always) mutating func set(_ column: TableColumn<Bool?>, _ value: Bool?) throws(SQLiteError) {
        let index = parameter(column.slot, of: column.table)
        if let value { try current!.bind(value, at: index) } else { try current!.bindNull(at: index) }
    }
    /// Sets a real column.
    @inline(__always) mutating func set(_ column: TableColumn<Double>, _ value: Double) throws(SQLiteError) {
        try current!.bind(value, at: parameter(column.slot, of: column.table))
    }
    /// Sets a nullable real column (`NULL` for nil).
    @inline(__always) mutating func set(_ column: TableColumn<Double?>, _ value: Double?) throws(SQLiteError) {
        let index = parameter(column.slot, of: column.table)
        if let value { try current!.bind(value, at: index) } else { try current!.bindNull(at: index) }
    }
    /// Sets a text column.
    @inline(__always) mutating func set(_ column: TableColumn<String>, _ value: String) throws(SQLiteError) {
        try current!.bind(value, at: parameter(column.slot, of: column.table))
    }
    /// Sets a nullable text column (`NULL` for nil).
    @inline(__always) mutating func set(_ column: TableColumn<String?>, _ value: String?) throws(SQLiteError) {
        try current!.bind(value, at: parameter(column.slot, of: column.table))
    }
    /// Sets a text column to one of a table of fixed strings, bound without a copy.
    @inline(__always) mutating func set(_ column: TableColumn<String>, _ texts: StaticTexts, _ ordinal: Int) throws(SQLiteError) {
        try current!.bind(texts, ordinal, at: parameter(column.slot, of: column.table))
    }

    /// Ends the current row; writes the statement's rows when it is full.
    /// - Throws: `SQLiteError` from SQLite (a constraint, a full disk).
    @inline(__always) mutating func endRow() throws(SQLiteError) {
        #if DEBUG
        if bound != allBound { missing() }
        bound = 0
        #endif
        precondition(boundCount == columnCount, "row of \(table.name) has \(boundCount) values, expected \(columnCount)")
        boundCount = 0
        row += 1
        rowBase += columnCount
        rowsLeft -= 1
        guard row == currentRows else { return }
        row = 0
        rowBase = 1
        let statement = current!
        do {
            try statement.step()
        } catch {
            rowsLeft = 0
            statement.reset()
            throw error
        }
        statement.reset()
        try pickStatement()
    }

    @inline(never)
    private func missing() -> Never {
        preconditionFailure("row of \(table.name) without \(Self.unbound(bound, of: table).joined(separator: ", "))")
    }

    /// The columns of `table` a row has not bound, given the bits of those it has.
    static func unbound(_ bound: UInt64, of table: ReportTable) -> [String] {
        table.insertedColumns.enumerated().filter { bound & (1 << UInt64($0.offset)) == 0 }.map(\.element.name)
    }

    /// The columns of the current row bound so far (debug builds, for tests).
    var boundColumns: [String] {
        table.insertedColumns.enumerated().filter { bound & (1 << UInt64($0.offset)) != 0 }.map(\.element.name)
    }

    /// Checks that every announced row was added (and so written). The inserter can then
    /// be used again.
    mutating func finish() throws(SQLiteError) {
        precondition(rowsLeft == 0 && row == 0 && boundCount == 0, "\(rowsLeft) announced row(s) of \(table.name) never came")
    }
}
