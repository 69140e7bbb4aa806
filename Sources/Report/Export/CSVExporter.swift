import Foundation

/// `--format csv`: one CSV file per user-facing table and view of the report as it stands
/// (`runs.csv`, `keys.csv`, …; `ExportCatalog`), and `index.csv`, which says what each file
/// holds, what one of its rows is, when runs write it and the units of its columns. Tables
/// are discovered from `sqlite_master`, so tables added later appear without changes here;
/// RFC 4180 with a header row, `NULL` as an empty field (`CSVEscaper`). Typed-text columns
/// are left out unless `ExportOptions.includeText`; a selection keeps only its rows. The
/// folder is put in place whole (`FolderExporter`, `ExportFolder`).
public struct CSVExporter: FolderExporter {
    public let name = "csv"
    public let title = "CSV"
    public let fileExtension = "csv"
    public let scope = ExportScope.report
    public let folderContents = "one file per table"
    public let summary = "writes one file per table and view into the --out folder, with index.csv saying what each holds"
    public let documentation = "one file per user-facing table and view (`runs.csv`, `keys.csv`, …; not the compact `key_rows` and "
        + "`task_rows`, read through `keys`, `suggestions` and `tasks`, nor lookups of codes), and `index.csv`: a row per file with "
        + "`file`, `kind`, `one_row_per`, `written_at`, `rows`, `units` (`column=unit; …`) and `about`. RFC 4180, a header row, "
        + "`NULL` as an empty field"

    /// The header of `index.csv`.
    static let indexHeader = ["file", "kind", "one_row_per", "written_at", "rows", "units", "about"]

    /// The CSV exporter.
    public init() {}

    /// Writes one file per exported table and view into `folder`, in name order, then
    /// `index.csv`.
    public func write(_ source: ExportSource, into folder: String) throws -> [String] {
        let (store, options) = (source.store, source.options)
        var written: [String] = []
        var index: [ExportCatalog.Entry] = []
        for relation in ExportCatalog.exported(try ReportInspector.relations(store.database), options) {
            let path = (folder as NSString).appendingPathComponent("\(relation.name).csv")
            let output = try ReportOutput.file(path)
            let columns = ReportInspector.exportedColumns(relation, options)
            try output.write(Self.line(columns))
            var rows = 0
            let statement = try ReportInspector.select(store.database, relation, options)
            try statement.forEachRow { row in
                var line = ""
                for index in 0..<Int32(columns.count) {
                    if index > 0 { line += "," }
                    line += CSVEscaper.value(row.value(at: index))
                }
                try output.write(line + "\r\n")
                rows += 1
            }
            try output.finish()
            written.append(path)
            index.append(ExportCatalog.entry(relation, columns: columns, rows: rows))
        }
        let path = (folder as NSString).appendingPathComponent("index.csv")
        let output = try ReportOutput.file(path)
        try output.write(Self.line(Self.indexHeader))
        for entry in index {
            try output.write(Self.line([entry.name + ".csv", entry.kind, entry.rowPer, entry.writtenAt, String(entry.rows),
                                        entry.units.map { "\($0.column)=\($0.unit)" }.joined(separator: "; "), entry.about]))
        }
        try output.finish()
        return written + [path]
    }

    /// One CSV line of text fields.
    private static func line(_ fields: [String]) -> String { fields.map(CSVEscaper.field).joined(separator: ",") + "\r\n" }
}
