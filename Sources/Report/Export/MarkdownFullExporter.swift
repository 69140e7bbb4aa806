/// `--format md-full`: every table of the Markdown summary open, one section each —
/// batches, key latency and cloud requests per batch, budget violations, comparisons and
/// sweeps; typing quality, touch boundaries and the extension's life when the report has
/// them. For a document rather than a pull request's comment (`md` folds all but one table).
public struct MarkdownFullExporter: StreamExporter {
    public let name = "md-full"
    public let title = "Markdown with every table open"
    public let fileExtension = "md"
    public let scope = ExportScope.report
    public let summary = "has every table of md open, one section each"
    public let documentation = "every table open, a section each: batches, key latency and cloud requests per batch, budget "
        + "violations, comparisons, sweeps (a table a sweep); typing quality, touch boundaries and the extension's kills, language "
        + "files and token when the report has them"

    /// The full Markdown exporter.
    public init() {}

    /// Writes every table of the report (or of the selection) to `output`.
    public func write(_ source: ExportSource, to output: ReportOutput) throws {
        try output.write(MarkdownExporter.render(ReportDigest(source.store, options: source.options)))
        try output.finish()
    }
}
