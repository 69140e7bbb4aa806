import CSQLite

/// One compiled SQL statement, reusable with new bindings.
///
/// A `Statement` is a resource: it is finalized when released, and it keeps its `Database`
/// open for as long as it lives. Like its database, it is used by one thread at a time.
///
/// The typed binders and column readers call SQLite directly and allocate nothing on the
/// Swift side, so a prepared `INSERT` re-run inside one transaction is limited by SQLite
/// itself:
///
///     let insert = try db.prepare("INSERT INTO latency(replication, key_ns) VALUES (?, ?)")
///     try db.transaction {
///         for sample in samples {
///             try insert.bind(sample.replication, at: 1)
///             try insert.bind(sample.keyLatencyNanos, at: 2)
///             try insert.step()
///             insert.reset()
///         }
///     }
///
/// Parameter and column indices follow SQLite: parameters count from 1, columns from 0.
public final class Statement {
    /// The database this statement belongs to; held strongly so the connection outlives it.
    public let database: Database
    /// The `sqlite3_stmt *` handle.
    let handle: OpaquePointer

    init(database: Database, handle: OpaquePointer) {
        self.database = database
        self.handle = handle
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The SQL text the statement was prepared from.
    public var sql: String { String(cString: sqlite3_sql(handle)) }

    /// The number of parameters (`?`, `?NNN`, `:name`, `@name`, `$name`); the largest index.
    public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    /// The 1-based index of the named parameter `name` (including its `:`, `@` or `$`), or
    /// `nil` if the statement has none of that name.
    public func parameterIndex(_ name: String) -> Int32? {
        let index = sqlite3_bind_parameter_index(handle, name)
        return index == 0 ? nil : index
    }

    /// Whether the statement only reads (a `SELECT`, or a `PRAGMA` that changes nothing).
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    // MARK: - Binding

    /// Binds `values` to parameters 1, 2, … in order.
    /// - Throws: `SQLiteError` (`isMisuse`) if the number of values differs from
    ///   `parameterCount`, or if a value cannot be bound.
    public func bind(_ values: [SQLValue]) throws(SQLiteError) {
        guard values.count == Int(parameterCount) else {
            throw SQLiteError(extendedResultCode: SQLITE_RANGE,
                              message: "statement has \(parameterCount) parameters but \(values.count) values were given",
                              sql: sql, path: database.path)
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one `SQLValue` to the 1-based parameter `index`.
    public func bind(_ value: SQLValue, at index: Int32) throws(SQLiteError) {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try bind(integer, at: index)
        case .real(let real): try bind(real, at: index)
        case .text(let text): try bind(text, at: index)
        case .blob(let bytes): try bind(bytes, at: index)
        }
    }

    /// Binds an integer to the 1-based parameter `index`.
    @inline(__always)
    public func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value), binding: index)
    }

    /// Binds an integer to the 1-based parameter `index`.
    @inline(__always)
    public func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, Int64(value)), binding: index)
    }

    /// Binds a Boolean as 0 or 1 to the 1-based parameter `index`.
    @inline(__always)
    public func bind(_ value: Bool, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value ? 1 : 0), binding: index)
    }

    /// Binds a double to the 1-based parameter `index`.
    @inline(__always)
    public func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_double(handle, index, value), binding: index)
    }

    /// Binds text, or `NULL` for `nil`, to the 1-based parameter `index`.
    ///
    /// SQLite copies the bytes (`SQLITE_TRANSIENT`), so the string need not outlive the call.
    /// Native Swift strings are read in place, without a temporary copy.
    public func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        let code: Int32
        if let fastCode = value.utf8.withContiguousStorageIfAvailable({ bindTextBytes(UnsafeRawBufferPointer($0), at: index) }) {
            code = fastCode
        } else {
            var contiguous = value
            code = contiguous.withUTF8 { bindTextBytes(UnsafeRawBufferPointer($0), at: index) }
        }
        try check(code, binding: index)
    }

    /// Binds UTF-8 bytes as text to the 1-based parameter `index`, without making a `String`.
    ///
    /// The bytes are copied; they are not validated, so pass only valid UTF-8.
    public func bindText(_ utf8: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        try check(bindTextBytes(utf8, at: index), binding: index)
    }

    /// Binds one of `texts` to the 1-based parameter `index` without copying it: the table
    /// owns the bytes and outlives the statement's use of them.
    @inline(__always)
    public func bind(_ texts: StaticTexts, _ ordinal: Int, at index: Int32) throws(SQLiteError) {
        let (base, length) = texts.bytes(ordinal)
        try check(sqlite3_bind_text(handle, index, base, length, keysim_sqlite_static()), binding: index)
    }

    /// Binds bytes as a blob to the 1-based parameter `index`. An empty array binds an empty
    /// blob, not `NULL`.
    public func bind(_ bytes: [UInt8], at index: Int32) throws(SQLiteError) {
        let code = bytes.withUnsafeBytes { bindBlobBytes($0, at: index) }
        try check(code, binding: index)
    }

    /// Binds raw bytes as a blob to the 1-based parameter `index`. The bytes are copied.
    public func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        try check(bindBlobBytes(bytes, at: index), binding: index)
    }

    /// Binds `NULL` to the 1-based parameter `index`.
    @inline(__always)
    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index), binding: index)
    }

    /// Sets every parameter back to `NULL`.
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    private func bindTextBytes(_ utf8: UnsafeRawBufferPointer, at index: Int32) -> Int32 {
        // A null pointer would bind NULL, and an empty buffer may have no address: bind a
        // static empty string instead so that "" stays "".
        guard let base = utf8.baseAddress, utf8.count > 0 else {
            return sqlite3_bind_text(handle, index, "", 0, keysim_sqlite_transient())
        }
        return sqlite3_bind_text64(handle, index, base.assumingMemoryBound(to: CChar.self), UInt64(utf8.count),
                                   keysim_sqlite_transient(), UInt8(SQLITE_UTF8))
    }

    private func bindBlobBytes(_ bytes: UnsafeRawBufferPointer, at index: Int32) -> Int32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            return sqlite3_bind_zeroblob(handle, index, 0)
        }
        return sqlite3_bind_blob64(handle, index, base, UInt64(bytes.count), keysim_sqlite_transient())
    }

    @inline(__always)
    private func check(_ code: Int32, binding index: Int32) throws(SQLiteError) {
        if code != SQLITE_OK { throw bindFailure(code, index: index) }
    }

    @inline(never)
    private func bindFailure(_ code: Int32, index: Int32) -> SQLiteError {
        if code == SQLITE_RANGE {
            return SQLiteError(extendedResultCode: code,
                               message: "parameter index \(index) is outside 1...\(parameterCount)",
                               sql: sql, path: database.path)
        }
        return database.error(code, sql: sql)
    }

    // MARK: - Running

    /// Runs the statement to its next row.
    ///
    /// After an error the statement is reset (bindings kept), so it can be run again.
    /// - Returns: `true` when a row is available to the column readers, `false` when the
    ///   statement has finished.
    /// - Throws: `SQLiteError` with this statement's SQL.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw stepFailure(code)
    }

    @inline(never)
    private func stepFailure(_ code: Int32) -> SQLiteError {
        let failure = database.error(code, sql: sql)
        sqlite3_reset(handle)
        return failure
    }

    /// Makes the statement ready to run again from the start; bindings are kept.
    public func reset() {
        // reset repeats the last step's error, which step() has already thrown.
        sqlite3_reset(handle)
    }

    /// Runs the statement to completion with its current bindings, discarding any rows, and
    /// resets it.
    public func execute() throws(SQLiteError) {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Binds `values`, runs the statement to completion (discarding any rows), and resets it.
    public func execute(_ values: [SQLValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        try bind(values)
        try execute()
    }

    /// Runs the statement with its current bindings and returns every row; resets it after.
    public func rows() throws(SQLiteError) -> [[SQLValue]] {
        defer { sqlite3_reset(handle) }
        var result: [[SQLValue]] = []
        let count = columnCount
        while try step() {
            var row: [SQLValue] = []
            row.reserveCapacity(Int(count))
            for column in 0..<count { row.append(value(at: column)) }
            result.append(row)
        }
        return result
    }

    /// Binds `values`, runs the statement and returns every row; resets it after.
    public func rows(_ values: [SQLValue]) throws(SQLiteError) -> [[SQLValue]] {
        sqlite3_reset(handle)
        try bind(values)
        return try rows()
    }

    /// Runs the statement with its current bindings and calls `body` for each row, which
    /// reads the columns it needs through the typed readers; resets it after.
    ///
    /// This is the allocation-free way to read large results.
    public func forEachRow(_ body: (Statement) throws -> Void) throws {
        defer { sqlite3_reset(handle) }
        while try step() { try body(self) }
    }

    // MARK: - Reading columns

    /// The number of columns in a result row (0 for statements that return none).
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The name of column `index` (its `AS` alias if it has one).
    public func columnName(at index: Int32) -> String {
        checkColumn(index)
        guard let name = sqlite3_column_name(handle, index) else { return "" }
        return String(cString: name)
    }

    /// The names of all columns, in order.
    public var columnNames: [String] { (0..<columnCount).map { columnName(at: $0) } }

    /// Column `index` of the current row as an integer; 0 for `NULL`, SQLite's conversion
    /// for other types.
    @inline(__always)
    public func int64(at index: Int32) -> Int64 {
        checkColumn(index)
        return sqlite3_column_int64(handle, index)
    }

    /// Column `index` of the current row as a double; 0.0 for `NULL`.
    @inline(__always)
    public func double(at index: Int32) -> Double {
        checkColumn(index)
        return sqlite3_column_double(handle, index)
    }

    /// Column `index` of the current row as text, or `nil` for `NULL`. Numbers are converted
    /// to their text form; invalid UTF-8 is repaired with U+FFFD.
    public func string(at index: Int32) -> String? {
        checkColumn(index)
        if sqlite3_column_type(handle, index) == SQLITE_NULL { return nil }
        // The pointer must be fetched before the length, as SQLite converts on the first call.
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Column `index` of the current row as bytes, or `nil` for `NULL`.
    public func blob(at index: Int32) -> [UInt8]? {
        checkColumn(index)
        if sqlite3_column_type(handle, index) == SQLITE_NULL { return nil }
        guard let bytes = sqlite3_column_blob(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// Whether column `index` of the current row is `NULL`.
    @inline(__always)
    public func isNull(at index: Int32) -> Bool {
        checkColumn(index)
        return sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` of the current row in its stored type.
    public func value(at index: Int32) -> SQLValue {
        checkColumn(index)
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: return .text(string(at: index) ?? "")
        case SQLITE_BLOB: return .blob(blob(at: index) ?? [])
        default: return .null
        }
    }

    @inline(__always)
    private func checkColumn(_ index: Int32) {
        precondition(index >= 0 && index < sqlite3_column_count(handle),
                     "column index \(index) is outside 0..<\(sqlite3_column_count(handle))")
    }
}
