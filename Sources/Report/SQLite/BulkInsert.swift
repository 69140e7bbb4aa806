/// Inserts many rows into one table through multi-row statements: the hot path of report
/// writing.
///
/// SQLite spends a good part of a one-row `INSERT` starting and finishing the statement
/// (opening cursors, checking the transaction, halting, resetting). A statement of
/// `rowsPerStatement` rows pays that once for all of them, and its cursor stays on the
/// last page between rows, so rows appended in key order are also cheaper to place.
///
/// Values are bound straight into the statement as they are added, with no buffering. The
/// statement reads `SELECT * FROM (VALUES (…), (…), …) WHERE column1 IS NOT NULL`, so
/// `finish()` can write a partial last group by setting the first column of the unused rows
/// to `NULL`: **the first column must never be `NULL`** (keysim's tables put `run_id`
/// first).
///
///     var keys = try BulkInsert(db, table: "keys", columns: ["run_id", "key_index", "latency_ns"])
///     for key in observations {
///         try keys.add(runID); try keys.add(key.index); try keys.add(key.latency.nanoseconds)
///         try keys.endRow()
///     }
///     try keys.finish()
///
/// Values are added column by column in the order of `columns`; `endRow()` checks the count.
struct BulkInsert {
    /// The table written to.
    let table: String
    private let columnCount: Int32
    private let rowsPerStatement: Int32
    private let statement: Statement
    /// Rows bound in the current group.
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
        columnCount = Int32(columns.count)
        let rows = max(1, rowsPerStatement ?? min(64, Self.parametersPerStatementMax / columns.count))
        self.rowsPerStatement = Int32(rows)
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        statement = try database.prepare("""
            INSERT INTO \(table) (\(columns.joined(separator: ", ")))
            SELECT * FROM (VALUES \(Array(repeating: row, count: rows).joined(separator: ", "))) WHERE column1 IS NOT NULL
            """)
    }

    @inline(__always)
    private mutating func nextParameter() -> Int32 {
        precondition(column < columnCount, "row of \(table) has more than \(columnCount) values")
        column += 1
        return row * columnCount + column
    }

    /// Adds an integer to the current row.
    @inline(__always) mutating func add(_ value: Int64) throws(SQLiteError) { try statement.bind(value, at: nextParameter()) }
    /// Adds an integer to the current row.
    @inline(__always) mutating func add(_ value: Int) throws(SQLiteError) { try statement.bind(Int64(value), at: nextParameter()) }
    /// Adds a Boolean as 0 or 1 to the current row.
    @inline(__always) mutating func add(_ value: Bool) throws(SQLiteError) { try statement.bind(value ? 1 : 0, at: nextParameter()) }
    /// Adds a double to the current row.
    @inline(__always) mutating func add(_ value: Double) throws(SQLiteError) { try statement.bind(value, at: nextParameter()) }
    /// Adds text, or `NULL` for `nil`, to the current row.
    @inline(__always) mutating func add(_ value: String?) throws(SQLiteError) { try statement.bind(value, at: nextParameter()) }
    /// Adds one of a table of fixed strings to the current row, bound without a copy.
    @inline(__always) mutating func add(_ texts: StaticTexts, _ ordinal: Int) throws(SQLiteError) {
        try statement.bind(texts, ordinal, at: nextParameter())
    }
    /// Adds an integer, or `NULL` for `nil`, to the current row.
    @inline(__always) mutating func add(_ value: Int64?) throws(SQLiteError) {
        let index = nextParameter()
        if let value { try statement.bind(value, at: index) } else { try statement.bindNull(at: index) }
    }

    /// Ends the current row; writes the group when it is full.
    /// - Throws: `SQLiteError` from SQLite (a constraint, a full disk).
    @inline(__always) mutating func endRow() throws(SQLiteError) {
        precondition(column == columnCount, "row of \(table) has \(column) values, expected \(columnCount)")
        column = 0
        row += 1
        if row == rowsPerStatement {
            row = 0
            try statement.step()
            statement.reset()
        }
    }

    /// Writes the rows of a partial last group. Call once after the last row; the inserter
    /// can then be used again.
    mutating func finish() throws(SQLiteError) {
        precondition(column == 0, "unfinished row of \(table)")
        guard row > 0 else { return }
        // Rows past the last one still hold the previous group's values: a NULL first
        // column makes the statement skip them, and NULL elsewhere drops any reference to
        // bytes bound without a copy.
        for unused in row..<rowsPerStatement {
            for column in 1...columnCount { try statement.bindNull(at: unused * columnCount + column) }
        }
        row = 0
        try statement.step()
        statement.reset()
    }
}
