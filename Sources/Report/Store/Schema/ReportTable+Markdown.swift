/// The tables section of `docs/report-schema.md`, made from the declarations: an overview,
/// then each table's key, detail levels, indexes and columns with their types and units.
/// `ReportDocsTests` fails when the file and the declarations disagree.
extension ReportSchema {
    /// The generated tables section (between its markers in `docs/report-schema.md`).
    public static var tablesMarkdown: String {
        var text = "| table | one row per | written at |\n| --- | --- | --- |\n"
        for table in tables {
            text += "| [`\(table.name)`](#\(table.name)) | \(table.rowPer) | \(table.retention.markdown) |\n"
        }
        for table in tables { text += "\n" + table.markdown }
        return text
    }
}

extension ReportTable {
    /// The table's heading, description and column table.
    var markdown: String {
        var text = "#### `\(name)`\n\nOne row per \(rowPer). "
        if primaryKey.isEmpty {
            text += "Keyed by its rowid"
        } else if primaryKey.count == 1, column(named: primaryKey[0]).isAssignedRowID {
            text += "Primary key `\(primaryKey[0])`, its rowid, assigned on insert"
        } else {
            text += "Primary key (" + primaryKey.map { "`\($0)`" }.joined(separator: ", ") + ")"
        }
        text += withoutRowID ? ", `WITHOUT ROWID`. " : ". "
        text += "Written at \(retention.markdown)."
        switch role {
        case .data: break
        case .lookup: text += " A lookup of codes: not digested."
        case .derived: text += " Derived from other rows: not digested."
        }
        if !readThrough.isEmpty {
            text += " Read through the view\(readThrough.count == 1 ? "" : "s") " + readThrough.map { "`\($0)`" }.joined(separator: ", ") + "."
        }
        if let note { text += " " + note }
        for index in indexes {
            text += " \(index.isUnique ? "Unique index" : "Index") `\(index.name)` on ("
                + index.columns.map { "`\($0)`" }.joined(separator: ", ") + "): \(index.doc)."
        }
        text += "\n\n| column | type | unit | meaning |\n| --- | --- | --- | --- |\n"
        for column in columns {
            var type = column.type.rawValue
            if column.isNullable { type += " or NULL" }
            var meaning = column.doc
            if let references = column.references { meaning = "→ `\(references)`" + (meaning.isEmpty ? "" : "; " + meaning) }
            text += "| `\(column.name)` | \(type) | \(column.unit ?? "") | \(meaning) |\n"
        }
        return text
    }
}

extension RowRetention {
    /// The detail levels, as the docs say them.
    var markdown: String {
        switch self {
        case .always: "every detail level"
        case .items: "`default` and `full`"
        case .timeline: "`full`; at `default`, for the runs that keep a timeline"
        }
    }
}
