/// Inserts many rows into one table through multi-row `INSERT … VALUES (…), (…), …`
/// statements: the hot path of report writing.
///
/// SQLite spends a good part of a one-row `INSERT` starting and finishing the statement
/// (opening cursors, checking the transaction, halting, resetting). A statement of
/// `rowsPerStatement` rows pays that once for all of them, and its cursor stays on the
/// last page between rows, so rows appended in key order are also cheaper to place. Rows
/// are buffered until a statement is full; `finish()` writes the rest one row at a time.
///
///     let keys = try BulkInsert(db, table: "keys", columns: ["run_id", "key_index", "latency_ns"])
///     for key in observations {
///         keys.add(runID); keys.add(key.index); keys.add(key.latency.nanoseconds)
///         try keys.endRow()
///     }
///     try keys.finish()
///
/// Values are added column by column in the order of `columns`; `endRow()` checks the count.
final class BulkInsert {
    /// One buffered value.
    private enum Value {
        case integer(Int64)
        case real(Double)
        case text(String)
        case null
    }

    /// The table written to.
    let table: String
    private let columnCount: Int
    private let rowsPerStatement: Int
    private let manyRows: Statement
    private let oneRow: Statement
    private var pending: [Value] = []

    /// The most parameters one statement gets: far below SQLite's limit (32766 since 3.32),
    /// and enough that statement overhead no longer shows.
    static let parametersPerStatementMax = 1024

    /// Prepares the statements for `columns` of `table`.
    /// - Parameter rowsPerStatement: rows per multi-row statement; by default as many as fit
    ///   in `parametersPerStatementMax` parameters, at most 64.
    init(_ database: Database, table: String, columns: [String], rowsPerStatement: Int? = nil) throws(SQLiteError) {
        precondition(!columns.isEmpty && columns.count <= Self.parametersPerStatementMax, "1...\(Self.parametersPerStatementMax) columns")
        self.table = table
        columnCount = columns.count
        self.rowsPerStatement = max(1, rowsPerStatement ?? min(64, Self.parametersPerStatementMax / columns.count))
        let head = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        manyRows = try database.prepare(head + Array(repeating: row, count: self.rowsPerStatement).joined(separator: ", "))
        oneRow = try database.prepare(head + row)
        pending.reserveCapacity(columnCount * self.rowsPerStatement)
    }

    /// Adds an integer to the current row.
    @inline(__always) func add(_ value: Int64) { pending.append(.integer(value)) }
    /// Adds an integer to the current row.
    @inline(__always) func add(_ value: Int) { pending.append(.integer(Int64(value))) }
    /// Adds a Boolean as 0 or 1 to the current row.
    @inline(__always) func add(_ value: Bool) { pending.append(.integer(value ? 1 : 0)) }
    /// Adds a double to the current row.
    @inline(__always) func add(_ value: Double) { pending.append(.real(value)) }
    /// Adds text, or `NULL` for `nil`, to the current row.
    @inline(__always) func add(_ value: String?) { pending.append(value.map(Value.text) ?? .null) }
    /// Adds an integer, or `NULL` for `nil`, to the current row.
    @inline(__always) func add(_ value: Int64?) { pending.append(value.map(Value.integer) ?? .null) }

    /// Ends the current row; writes a full statement's worth of rows.
    /// - Throws: `SQLiteError` from SQLite (a constraint, a full disk).
    @inline(__always) func endRow() throws(SQLiteError) {
        precondition(pending.count % columnCount == 0, "row of \(table) has \(pending.count % columnCount) values, expected \(columnCount)")
        if pending.count == columnCount * rowsPerStatement {
            try run(manyRows, values: pending[...])
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// Writes the rows still buffered. Call once after the last row; the inserter can then
    /// be used again.
    func finish() throws(SQLiteError) {
        precondition(pending.count % columnCount == 0, "unfinished row of \(table)")
        var start = 0
        while start < pending.count {
            try run(oneRow, values: pending[start..<(start + columnCount)])
            start += columnCount
        }
        pending.removeAll(keepingCapacity: true)
    }

    private func run(_ statement: Statement, values: ArraySlice<Value>) throws(SQLiteError) {
        var index: Int32 = 1
        for value in values {
            switch value {
            case .integer(let integer): try statement.bind(integer, at: index)
            case .real(let real): try statement.bind(real, at: index)
            case .text(let text): try statement.bind(text, at: index)
            case .null: try statement.bindNull(at: index)
            }
            index += 1
        }
        try statement.step()
        statement.reset()
    }
}
