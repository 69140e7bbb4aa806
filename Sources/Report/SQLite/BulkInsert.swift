/// Inserts many rows into one table through multi-row statements: the hot path of report
/// writing.
///
/// SQLite spends a good part of a one-row `INSERT` starting and finishing the statement
/// (opening cursors, checking the transaction, halting, resetting). A statement
/// `INSERT INTO t (…) VALUES (…), (…), …` of `rowsPerStatement` rows pays that once for all
/// of them, and its cursor stays on the last page between rows, so rows appended in key
/// order are also cheaper to place.
///
/// The caller announces how many rows it is about to add (`begin(rows:)`); values are bound
/// straight into the statement as they are added, with no buffering. Whole groups go
/// through the full statement, and the last few rows through a statement of exactly that
/// many rows, prepared the first time that count comes up and kept.
///
///     var keys = try BulkInsert(db, table: "keys", columns: ["run_id", "key_index", "latency_ns"])
///     try keys.begin(rows: observations.count)
///     for key in observations {
///         try keys.add(runID); try keys.add(key.index); try keys.add(key.latency.nanoseconds)
///         try keys.endRow()
///     }
///     try keys.finish()
///
/// Values are added column by column in the order of `columns`; `endRow()` checks the
/// count, and `finish()` that every announced row came.
struct BulkInsert {
    /// The table written to.
    let table: String
    private let database: Database
    private let columns: [String]
    private let columnCount: Int32
    private let rowsPerStatement: Int32
    /// The statement of `rowsPerStatement` rows.
    private let full: Statement
    /// Statements of fewer rows, by row count.
    private var partial: [Int32: Statement] = [:]
    /// The statement being bound, and how many rows it takes.
    private var current: Statement
    private var currentRows: Int32
    /// Rows announced and not yet ended.
    private var rowsLeft = 0
    /// Rows bound in the current statement.
    private var row: Int32 = 0
    /// The next column of the current row.
    private var column: Int32 = 0

    /// The most parameters one statement gets: far below SQLite's limit (32766 since 3.32),
    /// and enough that statement overhead no longer shows.
    static let parametersPerStatementMax = 1024

    /// Prepares the statement for `columns` of `table`.
    /// - Parameter rowsPerStatement: rows per statement; by default as many as fit in
    ///   `parametersPerStatementMax` parameters, at most 64.
    init(_ database: Database, table: String, columns: [String], rowsPerStatement: Int? = nil) throws(SQLiteError) {
        precondition(!columns.isEmpty && columns.count <= Self.parametersPerStatementMax, "1...\(Self.parametersPerStatementMax) columns")
        self.table = table
        self.database = database
        self.columns = columns
        columnCount = Int32(columns.count)
        let rows = max(1, rowsPerStatement ?? min(64, Self.parametersPerStatementMax / columns.count))
        self.rowsPerStatement = Int32(rows)
        full = try Self.prepare(database, table, columns, rows: rows)
        current = full
        currentRows = Int32(rows)
    }

    private static func prepare(_ database: Database, _ table: String, _ columns: [String], rows: Int) throws(SQLiteError) -> Statement {
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        return try database.prepare("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                                    + Array(repeating: row, count: rows).joined(separator: ", "))
    }

    /// Announces the next `rows` rows. Whatever a write that failed part way left bound is
    /// dropped.
    mutating func begin(rows: Int) throws(SQLiteError) {
        precondition(rows >= 0, "a count of rows")
        row = 0
        column = 0
        rowsLeft = rows
        try pickStatement()
    }

    /// Points `current` at the statement for the rows left.
    private mutating func pickStatement() throws(SQLiteError) {
        guard rowsLeft > 0 else { return }
        if rowsLeft >= Int(rowsPerStatement) {
            current = full
            currentRows = rowsPerStatement
            return
        }
        let count = Int32(rowsLeft)
        if let known = partial[count] {
            current = known
        } else {
            current = try Self.prepare(database, table, columns, rows: rowsLeft)
            partial[count] = current
        }
        currentRows = count
    }

    @inline(__always)
    private mutating func nextParameter() -> Int32 {
        precondition(rowsLeft > 0, "more rows of \(table) than announced")
        precondition(column < columnCount, "row of \(table) has more than \(columnCount) values")
        column += 1
        return row * columnCount + column
    }

    /// Adds an integer to the current row.
    @inline(__always) mutating func add(_ value: Int64) throws(SQLiteError) { try current.bind(value, at: nextParameter()) }
    /// Adds an integer to the current row.
    @inline(__always) mutating func add(_ value: Int) throws(SQLiteError) { try current.bind(Int64(value), at: nextParameter()) }
    /// Adds a Boolean as 0 or 1 to the current row.
    @inline(__always) mutating func add(_ value: Bool) throws(SQLiteError) { try current.bind(value ? 1 : 0, at: nextParameter()) }
    /// Adds a double to the current row.
    @inline(__always) mutating func add(_ value: Double) throws(SQLiteError) { try current.bind(value, at: nextParameter()) }
    /// Adds text, or `NULL` for `nil`, to the current row.
    @inline(__always) mutating func add(_ value: String?) throws(SQLiteError) { try current.bind(value, at: nextParameter()) }
    /// Adds one of a table of fixed strings to the current row, bound without a copy.
    @inline(__always) mutating func add(_ texts: StaticTexts, _ ordinal: Int) throws(SQLiteError) {
        try current.bind(texts, ordinal, at: nextParameter())
    }
    /// Adds an integer, or `NULL` for `nil`, to the current row.
    @inline(__always) mutating func add(_ value: Int64?) throws(SQLiteError) {
        let index = nextParameter()
        if let value { try current.bind(value, at: index) } else { try current.bindNull(at: index) }
    }

    /// Ends the current row; writes the statement's rows when it is full.
    /// - Throws: `SQLiteError` from SQLite (a constraint, a full disk).
    @inline(__always) mutating func endRow() throws(SQLiteError) {
        precondition(column == columnCount, "row of \(table) has \(column) values, expected \(columnCount)")
        column = 0
        row += 1
        rowsLeft -= 1
        guard row == currentRows else { return }
        row = 0
        let statement = current
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

    /// Checks that every announced row was added (and so written). The inserter can then
    /// be used again.
    mutating func finish() throws(SQLiteError) {
        precondition(rowsLeft == 0 && row == 0 && column == 0, "\(rowsLeft) announced row(s) of \(table) never came")
    }
}
