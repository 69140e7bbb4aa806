import Foundation
import Report
import Scenarios

/// `keysim report`: export a report in one of the formats of `ExporterRegistry.standard`,
/// whose names, help and usage errors are the registry's.
enum ReportCommand {
    static let registry = ExporterRegistry.standard
    static var formats: [String] { registry.names }

    static let spec = CommandSpec(
        name: "report",
        abstract: "Export a report: \(registry.titles).",
        usage: "report <db> [--format \(registry.usageAlternatives)] [--run ID] [--out PATH] [--include-text]",
        arguments: [("<db>", "A keysim report file, such as keysim-report.sqlite.")],
        options: [
            OptionSpec(name: "format", value: "FORMAT", help: registry.optionHelp),
            OptionSpec(name: "run", value: "ID", help: "Only this run (runs.run_id); chrome-trace: the run to draw (default: the first)."),
            OptionSpec(name: "out", value: "PATH", help: "Write to this file (a folder for \(registry.exporters.filter { $0.layout == .folder }.map(\.name).joined(separator: ", "))) instead of standard output."),
            OptionSpec(name: "include-text", value: nil, help: "Include typed text (columns named text or *_text); left out by default."),
        ],
        discussion: TextTable.wrapped(registry.summaries + " The report file is opened read-only. Text a user typed is never exported unless"
                                      + " --include-text is given.", width: 88)
    )

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let path = try arguments.positionals(exactly: 1, "<db>")[0]
        let format = arguments.value("format") ?? registry.defaultExporter.name
        guard let exporter = registry.exporter(named: format) else {
            throw UsageError(command: "report", message: "unknown --format '\(format)'; use one of \(formats.joined(separator: ", "))")
        }
        let runID = try arguments.integer("run", in: 1...Int(Int64.max)).map(Int64.init)
        let out = arguments.value("out")
        if let folderExporter = exporter as? any FolderExporter, out == nil {
            throw UsageError(command: "report", message: "--format \(format) writes \(folderExporter.folderContents): give --out FOLDER")
        }
        if let out, ReportStore.isPart(of: path, out) {
            throw UsageError(command: "report", message: "--out \(out) is the report itself; write the export to another file")
        }
        let options = ExportOptions(runID: runID, includeText: arguments.flag("include-text"))
        let store = try ReportStore(path: path, readOnly: true, busyTimeoutMs: JobOptions.busyTimeoutMs)
        if let runID { try ReportInspector.checkRun(store.database, runID, path: path) }
        // A file or folder appears only once complete: a failure half-way leaves the old one as it was.
        let destination: ExportDestination = out.map { exporter.layout == .folder ? .folder($0) : .file($0) } ?? .standardOutput
        let files = try exporter.export(ExportSource(store, options: options), to: destination)
        if exporter.layout == .folder {
            printError("keysim report: wrote \(files.count) \(exporter.fileExtension.uppercased()) file(s) to \(out!)")
        }
        return 0
    }
}
