/// The SQL a table declaration makes: its `CREATE TABLE` and `CREATE INDEX` statements and
/// the `INSERT` its row inserter runs.
extension ReportTable {
    /// `CREATE TABLE IF NOT EXISTS …;` with every column, key and `WITHOUT ROWID`, then a
    /// `CREATE INDEX IF NOT EXISTS …;` per index: one statement a line group, each ending
    /// in `;`.
    var createSQL: String {
        let singleKey = primaryKey.count == 1 ? primaryKey[0] : nil
        var lines = columns.map { column in
            var line = "    " + column.name + String(repeating: " ", count: max(1, 16 - column.name.count)) + column.type.rawValue
            if !column.isNullable && !column.isAssignedRowID { line += " NOT NULL" }
            if column.name == singleKey { line += " PRIMARY KEY" }
            if let references = column.references { line += " REFERENCES " + references }
            return line
        }
        if primaryKey.count > 1 { lines.append("    PRIMARY KEY (" + primaryKey.joined(separator: ", ") + ")") }
        var sql = "CREATE TABLE IF NOT EXISTS \(name) (\n" + lines.joined(separator: ",\n") + "\n)"
        if withoutRowID { sql += " WITHOUT ROWID" }
        sql += ";\n"
        for index in indexes {
            sql += "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(index.name) ON \(name)(\(index.columns.joined(separator: ", ")));\n"
        }
        return sql
    }

    /// The columns a writer binds, in table order: all but a rowid SQLite assigns.
    var insertedColumns: [ReportColumn] { columns.filter { !$0.isAssignedRowID } }

    /// `INSERT INTO name (columns…) VALUES (?, …), …` for `rows` rows of `insertedColumns`
    /// (`INSERT OR REPLACE` when `replacing`).
    func insertSQL(rows: Int, replacing: Bool = false) -> String {
        let names = insertedColumns.map(\.name)
        let row = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        return "INSERT \(replacing ? "OR REPLACE " : "")INTO \(name) (\(names.joined(separator: ", "))) VALUES " + Array(repeating: row, count: rows).joined(separator: ", ")
    }
}
