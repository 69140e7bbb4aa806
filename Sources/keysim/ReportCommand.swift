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
    var batch: String?
    var policy: String?
    var comparison: Int?
    var sweep: Int?
    var out: String?
    var includeText = false

    static var configuration: CommandConfiguration<Self> {
        let folderFormats = registry.exporters.filter { $0.layout == .folder }.map(\.name).joined(separator: ", ")
        let runFormats = registry.exporters.filter { $0.scope == .run }.map(\.name).joined(separator: ", ")
        return CommandConfiguration(
            name: "report",
            abstract: "Export a report: \(registry.titles).",
            usage: "report <db> [--format \(registry.usageAlternatives)] [--batch ID|LABEL | --policy NAME | --comparison ID | --sweep ID | --run ID]"
                + " [--out PATH] [--include-text]",
            arguments: [.one("<db>", \.path, help: "A keysim report file, such as keysim-report.sqlite.", .file)],
            options: [
                .option("format", \.format, value: "FORMAT", help: registry.optionHelp,
                        .choice(formats) { text, _ in "unknown --format '\(text)'; use one of \(formats.joined(separator: ", "))" }),
                .option("batch", \.batch, value: "ID|LABEL",
                        help: "Only this batch (batches.batch_id, or its label: a policy, a file, a sweep point); \(runFormats): its first run.",
                        .string),
                .option("policy", \.policy, value: "NAME", help: "Only the batches that ran this policy; \(runFormats): the first one's first run.",
                        .string),
                .option("comparison", \.comparison, value: "ID", help: "Only this comparison (comparisons.comparison_id) and the batches it compared.",
                        .integer(in: 1...Int(Int64.max))),
                .option("sweep", \.sweep, value: "ID", help: "Only this sweep (sweeps.sweep_id) and the batches of its points.",
                        .integer(in: 1...Int(Int64.max))),
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

    /// What `--batch`, `--policy`, `--comparison`, `--sweep` or `--run` asks for, if any.
    private var selector: ReportSelection.Selector? {
        let given: [ReportSelection.Selector] = [batch.map { .batch($0) }, policy.map { .policy($0) },
                                                 comparison.map { .comparison(Int64($0)) }, sweep.map { .sweep(Int64($0)) },
                                                 runID.map { .run(Int64($0)) }].compactMap { $0 }
        return given.first
    }

    mutating func validate() throws {
        let selectors = [batch != nil, policy != nil, comparison != nil, sweep != nil, runID != nil].filter { $0 }.count
        if selectors > 1 {
            throw Self.usage("give at most one of --batch, --policy, --comparison, --sweep and --run")
        }
        if let folderExporter = exporter as? any FolderExporter, out == nil {
            throw Self.usage("--format \(format) writes \(folderExporter.folderContents): give --out FOLDER")
        }
        if let out, ReportStore.isPart(of: path, out) {
            throw Self.usage("--out \(out) is the report itself; write the export to another file")
        }
    }

    func run() throws -> Int32 {
        let store = try JobReport(path: path, busyTimeoutMs: JobReport.busyTimeoutMs(environment: ProcessInfo.processInfo.environment)).open()
        let selection = try selector.map { try ReportSelection.resolve($0, in: store) }
        var options = ExportOptions(selection: selection, includeText: includeText)
        if let selection {
            var picked = selection.summary
            if exporter.scope == .run, selection.runID == nil, let drawn = selection.timelineRunID {
                // A timeline draws one run: the first of what was selected.
                options.runID = drawn
                picked += "; drawing run \(drawn), its first"
            }
            printError("keysim report: \(picked)")
        }
        // A file or folder appears only once complete: a failure half-way leaves the old one as it was.
        let destination: ExportDestination = out.map { exporter.layout == .folder ? .folder($0) : .file($0) } ?? .standardOutput
        let files = try exporter.export(ExportSource(store, options: options), to: destination)
        if exporter.layout == .folder {
            printError("keysim report: wrote \(files.count) \(exporter.fileExtension.uppercased()) file(s) to \(out!)")
        }
        return 0
    }
}
