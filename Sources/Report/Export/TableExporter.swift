import Foundation
import Scenarios

/// Exports every table and view of a report as it stands, discovering them from
/// `sqlite_master`: tables added later (by other parts of keysim) appear without changes
/// here. Typed-text columns are left out unless `ExportOptions.includeText`.
public enum TableExporter {
    /// Writes one CSV file per table and view into `folder` (created if missing):
    /// `runs.csv`, `keys.csv`, … with a header row; `NULL` is an empty field.
    /// - Returns: the files written, in order.
    @discardableResult
    public static func csv(_ store: ReportStore, options: ExportOptions, folder: String) throws -> [String] {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw ReportError(file: folder, message: "not a folder; CSV export writes one file per table into a folder") }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            } catch {
                throw ReportError(file: folder, message: "cannot create the folder (does its parent exist?)")
            }
        }
        var written: [String] = []
        for relation in try ReportInspector.relations(store.database) where ReportInspector.isExported(relation, options) {
            let path = (folder as NSString).appendingPathComponent("\(relation.name).csv")
            let output = try ReportOutput.file(path)
            let columns = ReportInspector.exportedColumns(relation, options)
            try output.write(columns.map(csvField).joined(separator: ",") + "\r\n")
            let statement = try ReportInspector.select(store.database, relation, options)
            try statement.forEachRow { row in
                var line = ""
                for index in 0..<Int32(columns.count) {
                    if index > 0 { line += "," }
                    line += csvValue(row.value(at: index))
                }
                try output.write(line + "\r\n")
            }
            try output.finish()
            written.append(path)
        }
        return written
    }

    /// Writes the report as one JSON document: `{"keysim": "report", …, "tables": {name:
    /// [row objects]}, "views": {…}}`.
    public static func json(_ store: ReportStore, options: ExportOptions, to output: ReportOutput) throws {
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

    /// A field as CSV writes it (RFC 4180): quoted when it holds a comma, quote, line break
    /// or surrounding space. A text a spreadsheet would run as a formula (it starts with
    /// `=`, `+`, `-`, `@`, a tab or a carriage return, and is not a number) gets a leading
    /// `'` and quotes, so that it opens as the text it is.
    static func csvField(_ text: String) -> String {
        var text = text
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first), Double(text) == nil {
            text = "'" + text
        }
        let needsQuotes = text.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || text.first == " " || text.last == " " || text.first == "'"
        return needsQuotes ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    static func csvValue(_ value: SQLValue) -> String {
        switch value {
        case .null: return ""
        case .integer(let integer): return String(integer)
        case .real(let real): return real.isFinite ? JSONWriter.number(real) : String(real)
        case .text(let text): return csvField(text)
        case .blob: return JSONWriter.value(value).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
    }
}
