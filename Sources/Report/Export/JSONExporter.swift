import Scenarios

/// `--format json`: the report's user-facing tables and views (`ExportCatalog`, the same as
/// CSV) as one JSON document, each as `{"columns": [...], "data": [[row], …]}` (pandas'
/// `split` orientation: `pd.DataFrame(**t)`), and an `index` that says what each holds and
/// its units. Written row by row as SQLite reads them, so memory holds one row and a 64 KiB
/// buffer, never the document. Typed-text columns are left out unless
/// `ExportOptions.includeText`; a selection keeps only its rows.
public struct JSONExporter: StreamExporter {
    public let name = "json"
    public let title = "JSON"
    public let fileExtension = "json"
    public let scope = ExportScope.report
    public let summary = "holds the tables and views CSV writes, a row an array"
    public var documentation: String {
        "`{\"keysim\": \"report\", \"schema_version\": \(ReportSchema.version), …, \"tables\": {name: {\"columns\": [...], "
            + "\"data\": [[row], …]}}, \"views\": {…}, \"index\": [{\"name\", \"kind\", \"one_row_per\", \"written_at\", \"rows\", "
            + "\"units\": {column: unit}, \"about\"}]}`: the tables and views CSV writes, each in pandas' `split` orientation "
            + "(`pd.DataFrame(**doc[\"views\"][\"keys\"])`), streamed row by row"
    }

    /// The JSON exporter.
    public init() {}

    /// Writes the document to `output`.
    public func write(_ source: ExportSource, to output: ReportOutput) throws {
        let (store, options) = (source.store, source.options)
        let relations = ExportCatalog.exported(try ReportInspector.relations(store.database), options)
        try output.write("{\n  \"keysim\": \"report\",\n  \"schema_version\": \(ReportSchema.version),\n")
        try output.write("  \"keysim_version\": \(JSONWriter.quoted(KeysimVersion.current)),\n")
        try output.write("  \"report\": \(JSONWriter.quoted(store.path)),\n")
        try output.write("  \"run_id\": \(options.runID.map(String.init) ?? "null"),\n")
        try output.write("  \"selection\": \(options.selection.map { JSONWriter.quoted($0.summary) } ?? "null"),\n")
        let omitted = ReportInspector.omittedTextColumns(relations, options)
        try output.write("  \"omitted_text_columns\": [\(omitted.map(JSONWriter.quoted).joined(separator: ", "))]")
        var index: [ExportCatalog.Entry] = []
        for (group, isView) in [("tables", false), ("views", true)] {
            try output.write(",\n  \(JSONWriter.quoted(group)): {")
            var firstRelation = true
            for relation in relations where relation.isView == isView {
                let columns = ReportInspector.exportedColumns(relation, options)
                try output.write((firstRelation ? "\n" : ",\n") + "    \(JSONWriter.quoted(relation.name)): {\"columns\": ["
                                 + columns.map(JSONWriter.quoted).joined(separator: ", ") + "], \"data\": [")
                firstRelation = false
                var rows = 0
                try ReportInspector.select(store.database, relation, options).forEachRow { row in
                    var line = rows == 0 ? "\n      [" : ",\n      ["
                    for index in 0..<Int32(columns.count) {
                        if index > 0 { line += ", " }
                        line += JSONWriter.value(row.value(at: index))
                    }
                    try output.write(line + "]")
                    rows += 1
                }
                try output.write(rows == 0 ? "]}" : "\n    ]}")
                index.append(ExportCatalog.entry(relation, columns: columns, rows: rows))
            }
            try output.write(firstRelation ? "}" : "\n  }")
        }
        try output.write(",\n  \"index\": [")
        for (position, entry) in index.enumerated() {
            let units = entry.units.map { JSONWriter.quoted($0.column) + ": " + JSONWriter.quoted($0.unit) }.joined(separator: ", ")
            try output.write((position == 0 ? "\n    " : ",\n    ") + "{\"name\": \(JSONWriter.quoted(entry.name)), \"kind\": \(JSONWriter.quoted(entry.kind)), "
                             + "\"one_row_per\": \(JSONWriter.quoted(entry.rowPer)), \"written_at\": \(JSONWriter.quoted(entry.writtenAt)), "
                             + "\"rows\": \(entry.rows), \"units\": {\(units)}, \"about\": \(JSONWriter.quoted(entry.about))}")
        }
        try output.write(index.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
        try output.finish()
    }
}
