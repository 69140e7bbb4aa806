import Foundation

/// `--format csv`: one CSV file per table and view of the report as it stands (`runs.csv`,
/// `keys.csv`, …), discovered from `sqlite_master`, so tables added later appear without
/// changes here; RFC 4180 with a header row, `NULL` as an empty field (`CSVEscaper`).
/// Typed-text columns are left out unless `ExportOptions.includeText`. The folder is put in
/// place whole (`FolderExporter`, `ExportFolder`).
public struct CSVExporter: FolderExporter {
    public let name = "csv"
    public let title = "CSV"
    public let fileExtension = "csv"
    public let scope = ExportScope.report
    public let folderContents = "one file per table"
    public let summary = "writes one file per table and view into the --out folder"
    public let documentation = "one file per table and view (`runs.csv`, `keys.csv`, …), RFC 4180, a header row, `NULL` as an empty field"

    /// The CSV exporter.
    public init() {}

    /// Writes one file per exported table and view into `folder`, in name order.
    public func write(_ source: ExportSource, into folder: String) throws -> [String] {
        let (store, options) = (source.store, source.options)
        var written: [String] = []
        for relation in try ReportInspector.relations(store.database) where ReportInspector.isExported(relation, options) {
            let path = (folder as NSString).appendingPathComponent("\(relation.name).csv")
            let output = try ReportOutput.file(path)
            let columns = ReportInspector.exportedColumns(relation, options)
            try output.write(columns.map(CSVEscaper.field).joined(separator: ",") + "\r\n")
            let statement = try ReportInspector.select(store.database, relation, options)
            try statement.forEachRow { row in
                var line = ""
                for index in 0..<Int32(columns.count) {
                    if index > 0 { line += "," }
                    line += CSVEscaper.value(row.value(at: index))
                }
                try output.write(line + "\r\n")
            }
            try output.finish()
            written.append(path)
        }
        return written
    }
}
