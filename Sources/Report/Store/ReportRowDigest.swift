import Sim

/// A fingerprint of everything a report measured: one SHA-256 per table over its rows,
/// wall-clock and build columns aside.
///
/// Two reports of the same scenario, traces and seed have equal digests however they were
/// produced (any `--jobs`, sharded and merged), and a change to the model that moves any
/// number changes the digest of the table it lands in. The golden-digest test of the bundled
/// scenarios compares these against `Tests/Golden/report-digests.txt`.
public struct ReportRowDigest: Sendable, Equatable {
    /// One table's fingerprint.
    public struct Table: Sendable, Equatable {
        /// The table's name.
        public var name: String
        /// How many rows it holds.
        public var rows: Int
        /// SHA-256, in hex, over its rows in a canonical order and encoding.
        public var digest: String
    }

    /// Columns that say when or with which build a report was written, not what was measured.
    public static let ignoredColumns: Set<String> = ["wall_seconds", "created_at", "keysim_version"]

    /// Every table of the report, sorted by name.
    public var tables: [Table]

    /// The relations digested, sorted by name: every table, except that a compact table is
    /// read through the view that gives back the table it replaced (`keys` for `key_rows`,
    /// `ReportSchema.compatibilityViews`) and lookup tables, which only name codes, are
    /// left out. The digests of a report therefore stay those of the schema-4 report with
    /// the same rows.
    static func digestedRelations(_ database: Database) throws(SQLiteError) -> [String] {
        let tables = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            .compactMap { row -> String? in if case .text(let name) = row.first { name } else { nil } }
        let present = Set(tables)
        var names = Set(tables).subtracting(ReportSchema.lookupTables)
        for (table, view) in ReportSchema.compatibilityViews where present.contains(table) {
            names.remove(table)
            names.insert(view)
        }
        return names.sorted()
    }

    /// Reads the digests of every table in `database`.
    ///
    /// Rows are ordered by all their digested columns, so insertion order and row ids of
    /// other tables play no part; values are encoded by storage class (an integer `1` and a
    /// real `1.0` differ). The `spec` column of `jobs` is digested without its
    /// `"keysim_version"` member.
    /// - Complexity: O(r log r) per table of r rows (SQLite's sort).
    /// - Throws: `SQLiteError` from reading.
    public init(database: Database) throws(SQLiteError) {
        let names = try Self.digestedRelations(database)
        tables = []
        for name in names {
            let columns = try database.query("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(name)])
                .compactMap { row -> String? in if case .text(let column) = row.first { column } else { nil } }
                .filter { !Self.ignoredColumns.contains($0) }
            guard !columns.isEmpty else { continue }
            let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            let rows = try database.query("SELECT \(list) FROM \"\(name)\" ORDER BY \(list)")
            var hash = SHA256()
            hash.update(Array(columns.joined(separator: ",").utf8))
            for row in rows {
                for (column, value) in zip(columns, row) {
                    hash.update(Self.canonical(value, column: column, table: name))
                }
                hash.update([0x0A])
            }
            tables.append(Table(name: name, rows: rows.count, digest: hash.finalizeHex()))
        }
    }

    /// The bytes a value contributes: a storage-class tag, the value, a separator.
    private static func canonical(_ value: SQLValue, column: String, table: String) -> [UInt8] {
        switch value {
        case .null: return Array("n;".utf8)
        case .integer(let integer): return Array("i\(integer);".utf8)
        case .real(let real): return Array("r\(real.bitPattern);".utf8)
        case .text(var text):
            if table == "jobs" && column == "spec" { text = Self.removingVersion(from: text) }
            return Array("t\(text.utf8.count):".utf8) + Array(text.utf8) + [0x3B]
        case .blob(let bytes): return Array("b\(bytes.count):".utf8) + bytes + [0x3B]
        }
    }

    /// `text` without its `"keysim_version":"…",` member.
    private static func removingVersion(from text: String) -> String {
        guard let start = text.range(of: "\"keysim_version\":\"") else { return text }
        guard let end = text[start.upperBound...].firstIndex(of: "\"") else { return text }
        var after = text.index(after: end)
        if after < text.endIndex && text[after] == "," { after = text.index(after: after) }
        return String(text[..<start.lowerBound]) + String(text[after...])
    }
}
