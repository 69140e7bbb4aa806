import Foundation
import Report
import Scenarios

/// `keysim report`: export a report file as Markdown, CSV, JSON, HTML or a Chrome or Perfetto trace.
struct ReportCommand: ParsableCommand {
    /// The export formats, in the order help lists them: the one list `--format` is checked
    /// against and the shells complete.
    static let formats = ["md", "csv", "json", "html", "chrome-trace", "perfetto"]

    var path = ""
    var format = "md"
    var runID: Int?
    var out: String?
    var includeText = false

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "report",
            abstract: "Export a report: Markdown, CSV, JSON, a self-contained HTML page, or a Chrome or Perfetto trace of one run.",
            usage: "report <db> [--format md|csv|json|html|chrome-trace|perfetto] [--run ID] [--out PATH] [--include-text]",
            arguments: [.one("<db>", \.path, help: "A keysim report file, such as keysim-report.sqlite.", .file)],
            options: [
                .option("format", \.format, value: "FORMAT", help: "md (default), csv, json, html, chrome-trace or perfetto.",
                        .choice(formats) { text, _ in "unknown --format '\(text)'; use one of \(formats.joined(separator: ", "))" }),
                .option("run", \.runID, value: "ID", help: "Only this run (runs.run_id); chrome-trace, perfetto: the run to draw (default: the first).",
                        .integer(in: 1...Int(Int64.max))),
                .option("out", \.out, value: "PATH", help: "Write to this file (a folder for csv) instead of standard output.", .file),
                .flag("include-text", \.includeText, help: "Include typed text (columns named text or *_text); left out by default."),
            ],
            discussion: """
            md is a summary to paste into a pull request; csv writes one file per table and view
            into the --out folder; json holds every table and view; html is one page with no
            scripts and no network access, with latency CDFs and histograms against their budgets,
            the comparisons and the sweep charts; chrome-trace is one replication's timeline as
            Chrome Trace Event JSON (open it in Perfetto UI, ui.perfetto.dev, or chrome://tracing);
            perfetto is the same timeline as a native Perfetto trace (.pftrace, binary protobuf).
            The report file is opened read-only. Text a user typed is never exported unless
            --include-text is given.
            """
        )
    }

    mutating func validate() throws {
        if format == "csv" && out == nil {
            throw Self.usage("--format csv writes one file per table: give --out FOLDER")
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

        if format == "csv" {
            let files = try TableExporter.csv(store, options: options, folder: out!)
            printError("keysim report: wrote \(files.count) CSV file(s) to \(out!)")
            return 0
        }
        // A file appears only once complete: a failure half-way leaves no file behind.
        let output = try out.map(ReportOutput.file) ?? .standardOutput()
        switch format {
        case "json": try TableExporter.json(store, options: options, to: output)
        case "html": try HTMLExporter.write(store, options: options, to: output)
        case "chrome-trace": try ChromeTraceExporter.write(store, options: options, to: output)
        case "perfetto": try PerfettoExporter.export(store: store, runID: runID, to: output)
        default: try MarkdownExporter.write(try ReportDigest(store, options: options), to: output)
        }
        return 0
    }
}
