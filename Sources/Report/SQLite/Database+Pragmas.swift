import CSQLite

/// What an application keeps in a database file's header, and what the schema holds.
extension Database {
    /// The schema version an application stores in the file (`PRAGMA user_version`), 0 in a
    /// new database.
    public func userVersion() throws(SQLiteError) -> Int {
        Int(try integerPragma("user_version"))
    }

    /// Stores the application's schema version in the file (`PRAGMA user_version`).
    /// - Precondition: `version` fits in 32 bits, as SQLite stores it.
    public func setUserVersion(_ version: Int) throws(SQLiteError) {
        precondition(version >= Int(Int32.min) && version <= Int(Int32.max), "user_version \(version) does not fit in 32 bits")
        // PRAGMA values cannot be bound; an integer formatted by Swift is safe to inline.
        try execute("PRAGMA user_version = \(version)")
    }

    /// The 32-bit number that identifies which application a file belongs to
    /// (`PRAGMA application_id`), 0 when none was set.
    public func applicationID() throws(SQLiteError) -> Int32 {
        Int32(truncatingIfNeeded: try integerPragma("application_id"))
    }

    /// Marks the file as belonging to an application (`PRAGMA application_id`), so that tools
    /// (and `file(1)`) can recognise it.
    public func setApplicationID(_ id: Int32) throws(SQLiteError) {
        try execute("PRAGMA application_id = \(id)")
    }

    /// Whether a table (not a view) of this name exists in the main schema. Names compare
    /// case-insensitively, as SQL identifiers do.
    public func tableExists(_ name: String) throws(SQLiteError) -> Bool {
        let rows = try query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE LIMIT 1",
                             [.text(name)])
        return !rows.isEmpty
    }

    /// Whether a table or a view of this name exists in the main schema (a report's `keys`,
    /// `suggestions` and `tasks` are views over compact tables).
    public func relationExists(_ name: String) throws(SQLiteError) -> Bool {
        let rows = try query("SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE LIMIT 1",
                             [.text(name)])
        return !rows.isEmpty
    }

    func integerPragma(_ name: String) throws(SQLiteError) -> Int64 {
        let statement = try prepare("PRAGMA \(name)")
        guard try statement.step() else {
            throw SQLiteError(extendedResultCode: SQLITE_ERROR, message: "PRAGMA \(name) returned no row",
                              sql: "PRAGMA \(name)", path: path)
        }
        return statement.int64(at: 0)
    }
}
