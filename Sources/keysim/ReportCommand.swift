import Foundation
import Report
import Scenarios

/// `keysim report`: export a report in one of the formats of `ExporterRegistry.standard`,
/// whose names, help, completions and usage errors are the registry's.
struct ReportCommand: ParsableCommand {
    static let registry = ExporterRegistry.standard
    /// The export formats, in the order help lists them: the one list `--format` is checked
    /// against and the shells complete.
    static var formats: [String] { registry.names }

    var path = ""
    var format = ReportCommand.registry.defaultExporter.name
    var runID: Int?
    var out: String?
    var includeText = false

    static var configuration: CommandConfiguration<Self> {
        let folderFormats = registry.exporters.filter { $0.layout == .folder }.map(\.name).joined(separator: ", ")
        let runFormats = registry.exporters.filter { $0.scope == .run }.map(\.name).joined(separator: ", ")
        return CommandConfiguration(
            name: "report",
            abstract: "Export a report: \(registry.titles).",
            usage: "report <db> [--format \(registry.usageAlternatives)] [--run ID] [--out PATH] [--include-text]",
            arguments: [.one("<db>", \.path, help: "A keysim report file, such as keysim-report.sqlite.", .file)],
            options: [
                .option("format", \.format, value: "FORMAT", help: registry.optionHelp,
                        .choice(formats) { text, _ in "unknown --format '\(text)'; use one of \(formats.joined(separator: ", "))" }),
                .option("run", \.runID, value: "ID", help: "Only this run (runs.run_id); \(runFormats): the run to draw (default: the first).",
                        .integer(in: 1...Int(Int64.max))),
                .option("out", \.out, value: "PATH", help: "Write to this file (a folder for \(folderFormats)) instead of standard output.", .file),
                .flag("include-text", \.includeText, help: "Include typed text (columns named text or *_text); left out by default."),
            ],
            discussion: TextTable.wrapped(registry.summaries + " The report file is opened read-only. Text a user typed is never exported unless"
                                          + " --include-text is given.", width: 88)
        )
    }

    /// The exporter `--format` names (checked against the registry while parsing).
    private var exporter: any Exporter { Self.registry.exporter(named: format)! }

    mutating func validate() throws {
        if let folderExporter = exporter as? any FolderExporter, out == nil {
            throw Self.usage("--format \(format) writes \(folderExporter.folderContents): give --out FOLDER")
        }
        if let out, ReportStore.isPart(of: path, out) {
            throw Self.usage("--out \(out) is the report itself; write the export to another file")
        }
    }

    func run() throws -> Int32 {
        let runID = runID.map(Int64.init)
        let options = ExportOptions(runID: runID, includeText: includeText)
        let store = try JobReport(path: path, busyTimeoutMs: JobReport.busyTimeoutMs(environment: ProcessInfo.processInfo.environment)).open()
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
