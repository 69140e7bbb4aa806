import CSQLite

/// An error reported by SQLite, with everything needed to say what failed and where.
///
/// Callers match errors by family (`isBusy`, `isFull`, `isNotADatabase`, …) rather than by
/// raw code, and print `description` for people:
///
///     out/report.sqlite: SQLite error 1 (SQLITE_ERROR): near "SELEC": syntax error
///         in: SELEC 1
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The primary result code (the low 8 bits of `extendedResultCode`), such as 5 for
    /// `SQLITE_BUSY`.
    public let resultCode: Int32
    /// The extended result code, such as 261 for `SQLITE_BUSY_RECOVERY`; equal to
    /// `resultCode` when SQLite gave no extended detail.
    public let extendedResultCode: Int32
    /// SQLite's message (`sqlite3_errmsg`), or keysim's own when the misuse was caught before
    /// SQLite was called.
    public let message: String
    /// The SQL being prepared or run, when there was one.
    public let sql: String?
    /// The database file, `":memory:"` for an in-memory database.
    public let path: String?

    /// Creates an error; the primary code is derived from the extended one.
    public init(extendedResultCode: Int32, message: String, sql: String? = nil, path: String? = nil) {
        self.resultCode = extendedResultCode & 0xFF
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// Whether another connection holds a lock this one needed, even after the busy timeout
    /// (`SQLITE_BUSY`).
    public var isBusy: Bool { resultCode == SQLITE_BUSY }
    /// Whether a table lock inside this connection's shared cache conflicted
    /// (`SQLITE_LOCKED`).
    public var isLocked: Bool { resultCode == SQLITE_LOCKED }
    /// Whether the disk or the database is full (`SQLITE_FULL`).
    public var isFull: Bool { resultCode == SQLITE_FULL }
    /// Whether the file is not a SQLite database, or is encrypted (`SQLITE_NOTADB`).
    public var isNotADatabase: Bool { resultCode == SQLITE_NOTADB }
    /// Whether the database file is damaged (`SQLITE_CORRUPT`).
    public var isCorrupt: Bool { resultCode == SQLITE_CORRUPT }
    /// Whether the file could not be opened (`SQLITE_CANTOPEN`).
    public var isCannotOpen: Bool { resultCode == SQLITE_CANTOPEN }
    /// Whether a write was attempted on a read-only connection or file (`SQLITE_READONLY`).
    public var isReadOnly: Bool { resultCode == SQLITE_READONLY }
    /// Whether a constraint (UNIQUE, NOT NULL, CHECK, FOREIGN KEY, …) failed
    /// (`SQLITE_CONSTRAINT`).
    public var isConstraintViolation: Bool { resultCode == SQLITE_CONSTRAINT }
    /// Whether an operating-system I/O error occurred (`SQLITE_IOERR`).
    public var isIOError: Bool { resultCode == SQLITE_IOERR }
    /// Whether the API was used in a way SQLite rejects (`SQLITE_MISUSE`, `SQLITE_RANGE`).
    public var isMisuse: Bool { resultCode == SQLITE_MISUSE || resultCode == SQLITE_RANGE }

    /// The symbolic name of the primary code, such as `SQLITE_BUSY`.
    public var codeName: String { Self.name(ofResultCode: resultCode) }

    /// A compiler-like, one- or two-line report: file, code, message and SQL.
    public var description: String {
        var text = ""
        if let path, !path.isEmpty { text += "\(path): " }
        text += "SQLite error \(resultCode) (\(codeName)"
        if extendedResultCode != resultCode { text += ", extended \(extendedResultCode)" }
        text += "): \(message)"
        if let sql, !sql.isEmpty {
            // Long scripts would drown the message; the start identifies the statement.
            let sqlShownMax = 500
            let trimmed = sql.count > sqlShownMax ? String(sql.prefix(sqlShownMax)) + "…" : sql
            text += "\n    in: \(trimmed)"
        }
        return text
    }

    /// The name of a primary result code; `SQLITE_UNKNOWN(n)` for codes SQLite may add later.
    static func name(ofResultCode code: Int32) -> String {
        switch code {
        case SQLITE_OK: return "SQLITE_OK"
        case SQLITE_ERROR: return "SQLITE_ERROR"
        case SQLITE_INTERNAL: return "SQLITE_INTERNAL"
        case SQLITE_PERM: return "SQLITE_PERM"
        case SQLITE_ABORT: return "SQLITE_ABORT"
        case SQLITE_BUSY: return "SQLITE_BUSY"
        case SQLITE_LOCKED: return "SQLITE_LOCKED"
        case SQLITE_NOMEM: return "SQLITE_NOMEM"
        case SQLITE_READONLY: return "SQLITE_READONLY"
        case SQLITE_INTERRUPT: return "SQLITE_INTERRUPT"
        case SQLITE_IOERR: return "SQLITE_IOERR"
        case SQLITE_CORRUPT: return "SQLITE_CORRUPT"
        case SQLITE_NOTFOUND: return "SQLITE_NOTFOUND"
        case SQLITE_FULL: return "SQLITE_FULL"
        case SQLITE_CANTOPEN: return "SQLITE_CANTOPEN"
        case SQLITE_PROTOCOL: return "SQLITE_PROTOCOL"
        case SQLITE_EMPTY: return "SQLITE_EMPTY"
        case SQLITE_SCHEMA: return "SQLITE_SCHEMA"
        case SQLITE_TOOBIG: return "SQLITE_TOOBIG"
        case SQLITE_CONSTRAINT: return "SQLITE_CONSTRAINT"
        case SQLITE_MISMATCH: return "SQLITE_MISMATCH"
        case SQLITE_MISUSE: return "SQLITE_MISUSE"
        case SQLITE_NOLFS: return "SQLITE_NOLFS"
        case SQLITE_AUTH: return "SQLITE_AUTH"
        case SQLITE_FORMAT: return "SQLITE_FORMAT"
        case SQLITE_RANGE: return "SQLITE_RANGE"
        case SQLITE_NOTADB: return "SQLITE_NOTADB"
        case SQLITE_NOTICE: return "SQLITE_NOTICE"
        case SQLITE_WARNING: return "SQLITE_WARNING"
        case SQLITE_ROW: return "SQLITE_ROW"
        case SQLITE_DONE: return "SQLITE_DONE"
        default: return "SQLITE_UNKNOWN(\(code))"
        }
    }
}
