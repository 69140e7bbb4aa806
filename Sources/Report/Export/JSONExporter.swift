import Scenarios
/// `--format json`: the report as one JSON document, `{"keysim": "report", …, "tables":
/// {name: [row objects]}, "views": {…}}`, every table and view discovered from
/// `sqlite_master`. Typed-text columns are left out unless `ExportOptions.includeText`.
public struct JSONExporter: StreamExporter {
    public let name = "json"
    public let title = "JSON"
    public let fileExtension = "json"
    public let scope = ExportScope.report
    public let summary = "holds every table and view"
    public var documentation: String {
        "`{\"keysim\": \"report\", \"schema_version\": \(ReportSchema.version), …, \"tables\": {name: [row objects]}, \"views\": {…}}`"
    }

    /// The JSON exporter.
    public init() {}

    /// Writes the document to `output`.
    public func write(_ source: ExportSource, to output: ReportOutput) throws {
        let (store, options) = (source.store, source.options)
        let relations = try ReportInspector.relations(store.database).filter { ReportInspector.isExported($0, options) }
        try output.write("{\n  \"keysim\": \"report\",\n  \"schema_version\": \(ReportSchema.version),\n")
        try output.write("  \"keysim_version\": \(JSONWriter.quoted(KeysimVersion.current)),\n")
        try output.write("  \"report\": \(JSONWriter.quoted(store.path)),\n")
        try output.write("  \"run_id\": \(options.runID.map(String.init) ?? "null"),\n")
        let omitted = ReportInspector.omittedTextColumns(relations, options)
        try output.write("  \"omitted_text_columns\": [\(omitted.map(JSONWriter.quoted).joined(separator: ", "))]")
        for (group, isView) in [("tables", false), ("views", true)] {
            try output.write(",\n  \(JSONWriter.quoted(group)): {")
            var firstRelation = true
            for relation in relations where relation.isView == isView {
                try output.write((firstRelation ? "\n" : ",\n") + "    \(JSONWriter.quoted(relation.name)): [")
                firstRelation = false
                let keys = ReportInspector.exportedColumns(relation, options).map { JSONWriter.quoted($0) + ": " }
                var firstRow = true
                try ReportInspector.select(store.database, relation, options).forEachRow { row in
                    var line = firstRow ? "\n      {" : ",\n      {"
                    firstRow = false
                    for (index, key) in keys.enumerated() {
                        if index > 0 { line += ", " }
                        line += key + JSONWriter.value(row.value(at: Int32(index)))
                    }
                    try output.write(line + "}")
                }
                try output.write(firstRow ? "]" : "\n    ]")
            }
            try output.write(firstRelation ? "}" : "\n  }")
        }
        try output.write("\n}\n")
        try output.finish()
    }
}
