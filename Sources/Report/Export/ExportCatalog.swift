/// What the CSV and JSON exports write of a report — its user-facing tables and its views —
/// and how each is described to a reader (`index.csv`, the JSON export's `index`): what one
/// row is, what it holds and the units of its columns, from the declarations
/// (`ReportSchema.tables`, `ReportSchema.views`).
enum ExportCatalog {
    /// What a reader is told of one exported table or view.
    struct Entry {
        /// The relation's name (`keys`); its CSV file is `keys.csv`.
        var name: String
        /// "table" or "view".
        var kind: String
        /// What one row is; empty for a table keysim does not declare.
        var rowPer: String
        /// At which detail levels runs write its rows ("every detail level"); empty for views.
        var writtenAt: String
        /// What it holds, in plain text.
        var about: String
        /// The columns exported that have a unit, with it (`latency_ns`, `ns`), in order.
        var units: [(column: String, unit: String)]
        /// Rows written.
        var rows: Int
    }

    /// The relations of `relations` the exports write under `options`: every view and every
    /// user-facing table (`ReportTable.isUserFacing`) — tables keysim does not declare
    /// included, so that what a later keysim adds is exported — that hold selected rows.
    static func exported(_ relations: [ReportRelation], _ options: ExportOptions) -> [ReportRelation] {
        relations.filter { relation in
            (relation.isView || ReportSchema.table(named: relation.name)?.isUserFacing ?? true)
                && ReportInspector.isExported(relation, options)
        }
    }

    /// The entry of `relation`, whose `columns` were exported in `rows` rows.
    static func entry(_ relation: ReportRelation, columns: [String], rows: Int) -> Entry {
        if !relation.isView, let table = ReportSchema.table(named: relation.name) {
            let units = columns.compactMap { name in
                table.columns.first { $0.name == name }?.unit.map { (column: name, unit: $0) }
            }
            return Entry(name: relation.name, kind: "table", rowPer: table.rowPer, writtenAt: plain(table.retention.markdown),
                         about: table.note.map(plain) ?? "", units: units, rows: rows)
        }
        let units = columns.compactMap { name in unit(impliedBy: name).map { (column: name, unit: $0) } }
        if let view = ReportSchema.view(named: relation.name) {
            return Entry(name: relation.name, kind: "view", rowPer: view.rowPer, writtenAt: "", about: plain(view.what), units: units, rows: rows)
        }
        return Entry(name: relation.name, kind: relation.isView ? "view" : "table", rowPer: "", writtenAt: "",
                     about: "not declared by this keysim (written by a later one, or another tool)", units: units, rows: rows)
    }

    /// The unit a view's column name implies: the report's suffixes (`_ns`, `_ms`…), shares
    /// (0 to 1) and rates per 100 words.
    static func unit(impliedBy name: String) -> String? {
        if let unit = ReportColumn.unit(impliedBy: name) { return unit }
        if name.hasPrefix("share_") || name.hasSuffix("_share") { return "share (0 to 1)" }
        if name.hasSuffix("_per_100_words") { return "per 100 words" }
        return nil
    }

    /// `text` without Markdown's code marks and links: `[Typing quality](#typing-quality)` → `Typing quality`.
    static func plain(_ text: String) -> String {
        var result = ""
        var rest = Substring(text.replacingOccurrences(of: "`", with: ""))
        while let open = rest.firstIndex(of: "["), let close = rest[open...].range(of: "]("),
              let end = rest[close.upperBound...].firstIndex(of: ")") {
            result += rest[..<open] + rest[rest.index(after: open)..<close.lowerBound]
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }
}
