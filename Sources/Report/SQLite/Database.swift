import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection to one SQLite database file (or to `":memory:"`).
///
/// A `Database` is a resource: it owns the connection and closes it when the last reference
/// (including the references held by its statements) goes away. It is deliberately not
/// `Sendable`: the connection is opened in SQLite's multi-thread mode (`NOMUTEX`), which
/// skips SQLite's per-call locking and is only safe when one thread uses the connection at a
/// time. Use one `Database` per thread; several connections to the same file coordinate
/// through SQLite's file locks and the busy timeout.
///
///     let db = try Database(path: "out/report.sqlite")
///     try db.enableWAL()
///     try db.execute("CREATE TABLE IF NOT EXISTS t(a INTEGER, b TEXT)")
///     let insert = try db.prepare("INSERT INTO t VALUES (?, ?)")
///     try db.transaction {
///         for i in 0..<1_000 {
///             try insert.bind(Int64(i), at: 1)
///             try insert.bind("row \(i)", at: 2)
///             try insert.step()
///             insert.reset()
///         }
///     }
public final class Database {
    /// The path given at opening; `":memory:"` for an in-memory database.
    public let path: String
    /// Whether the connection was opened read-only.
    public let isReadOnly: Bool
    /// How long a statement waits for another connection's lock, in milliseconds.
    public let busyTimeoutMs: Int
    /// The `sqlite3 *` handle. Only this module's SQLite files touch it.
    let handle: OpaquePointer

    /// The longest busy timeout accepted, one hour: a writer that waits longer than that for
    /// a lock is stuck, and an error says so better than a hang.
    public static let busyTimeoutMsMax = 3_600_000

    /// Opens (and, unless `readOnly`, creates) the database at `path`.
    ///
    /// Opening does not read the file: a file that is not a SQLite database is reported by
    /// the first statement that touches it (`SQLiteError.isNotADatabase`).
    /// - Parameters:
    ///   - path: a file path, or `":memory:"` for a private in-memory database.
    ///   - readOnly: open without write access and without creating the file.
    ///   - busyTimeoutMs: how long a statement waits for another connection's lock before
    ///     failing with `SQLITE_BUSY`; 0 fails at once. At most `busyTimeoutMsMax`.
    ///   - create: whether a missing file is created (ignored when `readOnly`).
    /// - Throws: `SQLiteError` if the file cannot be opened (`isCannotOpen`).
    ///   - immutable: open read-only as a file nobody changes (SQLite's `immutable=1`): no
    ///     locks and no `-shm` file, so that a report in a folder the user cannot write can
    ///     be read. Only for a file with no `-wal` beside it.
    public init(path: String, readOnly: Bool = false, busyTimeoutMs: Int = 5000, create: Bool = true,
                immutable: Bool = false) throws(SQLiteError) {
        precondition(busyTimeoutMs >= 0 && busyTimeoutMs <= Self.busyTimeoutMsMax,
                     "busy timeout \(busyTimeoutMs) ms is outside 0...\(Self.busyTimeoutMsMax)")
        _ = Self.configureOnce
        var flags = SQLITE_OPEN_NOMUTEX
        flags |= readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
        var opened: OpaquePointer?
        var name = path
        if immutable {
            flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = "file:\(Self.uriPath(path))?immutable=1"
        }
        let rc = sqlite3_open_v2(name, &opened, flags, nil)
        guard rc == SQLITE_OK, let opened else {
            // On failure SQLite usually still allocates a handle that carries the message and
            // must be closed; on out-of-memory it returns none.
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            let extendedCode = opened.map { sqlite3_extended_errcode($0) } ?? rc
            sqlite3_close_v2(opened)
            throw SQLiteError(extendedResultCode: extendedCode, message: message, path: path)
        }
        self.handle = opened
        self.path = path
        self.isReadOnly = readOnly || immutable
        self.busyTimeoutMs = busyTimeoutMs
        sqlite3_extended_result_codes(opened, 1)
        sqlite3_busy_timeout(opened, Int32(busyTimeoutMs))
    }

    /// `path` as the path of a `file:` URI: absolute, with every byte that is not plain
    /// ASCII or is one of `%?#` percent-encoded.
    static func uriPath(_ path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: 4096)
            if getcwd(&buffer, buffer.count) != nil {
                let directory = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
                absolute = String(decoding: directory, as: UTF8.self) + "/" + path
            }
        }
        var text = ""
        for byte in absolute.utf8 {
            if byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "%") && byte != UInt8(ascii: "?") && byte != UInt8(ascii: "#") {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = Array("0123456789ABCDEF".utf8)
                text += "%" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return text
    }

    /// Process-wide SQLite settings, applied before the first connection opens: memory
    /// statistics off (keysim never reads them, and they cost a global lock per allocation).
    private static let configureOnce: Void = {
        _ = keysim_sqlite_disable_memory_statistics()
    }()

    deinit {
        // close_v2 defers the real close until every statement is finalized; statements hold
        // a strong reference to their database, so by now there are none.
        sqlite3_close_v2(handle)
    }

    // MARK: - Running SQL

    /// Runs a script of zero or more `;`-separated statements, discarding any rows.
    ///
    /// Statements run one after the other; the first failure stops the script and is thrown
    /// with the text of the statement that failed (from it to the end of the script when it
    /// failed to compile). Earlier statements stay applied unless the script runs inside
    /// `transaction(_:)`.
    /// - Throws: `SQLiteError` carrying the failing statement's SQL.
    public func execute(_ sql: String) throws(SQLiteError) {
        let scriptCount = sql.utf8.count
        guard scriptCount <= Int(Int32.max) else {
            throw SQLiteError(extendedResultCode: SQLITE_TOOBIG, message: "SQL script is longer than 2 GiB", path: path)
        }
        let failure: SQLiteError? = sql.withCString { script in
            let scriptEnd = script + scriptCount
            var cursor = script
            while cursor < scriptEnd {
                var statement: OpaquePointer?
                var next: UnsafePointer<CChar>?
                let rc = sqlite3_prepare_v2(handle, cursor, Int32(scriptEnd - cursor), &statement, &next)
                if rc != SQLITE_OK {
                    // The failing statement's end is unknown: report the script from it on.
                    return error(rc, sql: String(String(cString: cursor).drop(while: \.isWhitespace)))
                }
                // Whitespace and comments prepare to no statement.
                if let statement {
                    var stepCode: Int32
                    repeat { stepCode = sqlite3_step(statement) } while stepCode == SQLITE_ROW
                    let failure = stepCode == SQLITE_DONE ? nil : error(stepCode, sql: String(cString: sqlite3_sql(statement)))
                    sqlite3_finalize(statement)
                    if let failure { return failure }
                }
                // An embedded NUL ends the script for SQLite; stop where it stopped.
                guard let next, next > cursor else { break }
                cursor = next
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Compiles one SQL statement for repeated use.
    ///
    /// Preparing is the expensive part of running SQL; keep the `Statement` and re-run it
    /// with new bindings (`bind`, `step`, `reset`) on hot paths.
    /// - Throws: `SQLiteError` for a syntax error, an unknown table or column, or SQL holding
    ///   more than one statement (use `execute(_:)` for scripts).
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        let textCount = sql.utf8.count
        guard textCount <= Int(Int32.max) else {
            throw SQLiteError(extendedResultCode: SQLITE_TOOBIG, message: "SQL is longer than 2 GiB", path: path)
        }
        let outcome: Result<OpaquePointer, SQLiteError> = sql.withCString { text in
            var statement: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(handle, text, Int32(textCount), 0, &statement, &tail)
            guard rc == SQLITE_OK else { return .failure(error(rc, sql: sql)) }
            guard let statement else {
                return .failure(SQLiteError(extendedResultCode: SQLITE_MISUSE,
                                            message: "no SQL statement to prepare (empty or only comments)",
                                            sql: sql, path: path))
            }
            // Anything after the first statement other than whitespace and comments would be
            // silently ignored by SQLite; refuse it so that a script is never half-run.
            if let tail, tail < text + textCount {
                var extra: OpaquePointer?
                let extraCode = sqlite3_prepare_v2(handle, tail, Int32(text + textCount - tail), &extra, nil)
                let hasExtra = extra != nil
                sqlite3_finalize(extra)
                if extraCode != SQLITE_OK || hasExtra {
                    sqlite3_finalize(statement)
                    return .failure(SQLiteError(
                        extendedResultCode: SQLITE_MISUSE,
                        message: "prepare expects exactly one statement; use execute(_:) for a script",
                        sql: sql, path: path))
                }
            }
            return .success(statement)
        }
        switch outcome {
        case .success(let statement): return Statement(database: self, handle: statement)
        case .failure(let failure): throw failure
        }
    }

    /// Prepares `sql`, binds `values` to its `?` parameters and returns every row.
    ///
    /// For large results, prefer `prepare(_:)` and `Statement.forEachRow(_:)`, which read
    /// typed columns without building `SQLValue` arrays.
    /// - Throws: `SQLiteError` from preparing, binding or stepping.
    public func query(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> [[SQLValue]] {
        try prepare(sql).rows(values)
    }

    /// Runs `body` inside `BEGIN IMMEDIATE` … `COMMIT`, and rolls back if anything throws.
    ///
    /// `IMMEDIATE` takes the write lock at the start, so a conflict with another writer shows
    /// up (after the busy timeout) before any work is done, never halfway through. If `body`
    /// or `COMMIT` throws, the transaction is rolled back and the error rethrown unchanged,
    /// so nothing of it is left in the database. Transactions do not nest: calling this
    /// inside another transaction throws SQLite's "cannot start a transaction within a
    /// transaction" error and leaves the outer one untouched.
    /// - Returns: what `body` returned.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        let result: T
        do {
            result = try body()
        } catch {
            rollbackIfActive()
            throw error
        }
        do {
            try execute("COMMIT")
        } catch {
            rollbackIfActive()
            throw error
        }
        return result
    }

    /// Rolls back the open transaction, if SQLite has not already done so on an error.
    private func rollbackIfActive() {
        guard isInTransaction else { return }
        // A failed rollback leaves nothing better to do than report the original error.
        _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }

    // MARK: - Connection state

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Whether this is an in-memory or temporary database, which has no file of its own.
    public var isInMemory: Bool {
        guard let name = sqlite3_db_filename(handle, "main") else { return true }
        return name.pointee == 0
    }

    /// The rowid of the most recent successful `INSERT` on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows changed by the most recent `INSERT`, `UPDATE` or `DELETE`.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The number of rows changed since the connection was opened.
    public var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }

    // MARK: - Errors

    /// An error for result code `code`, with the connection's current message.
    func error(_ code: Int32, sql: String?) -> SQLiteError {
        // sqlite3_errmsg describes the most recent failed call on this connection, which is
        // the one that returned `code`; the connection is used by one thread at a time.
        SQLiteError(extendedResultCode: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql, path: path)
    }
}
