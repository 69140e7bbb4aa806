import Foundation
import Sim

/// One self-contained HTML page that leads with what differs between the batches — time to
/// the cloud's verdict, verdict coverage and cost per batch with 95 % intervals, and cost
/// against delay (`HTMLExporter+Decision`) — then the digest's tables, latency CDFs beside
/// their tails on a log scale and histograms (small multiples past two batches) against
/// their budget lines (`+Latency`), and the comparisons' differences and the sweeps'
/// trade-offs with their intervals (`+Comparison`). No scripts, no
/// stylesheets or fonts to fetch, and a Content-Security-Policy that forbids any network
/// access: it reads the same offline, in a mail attachment, and with scripts disabled.
public struct HTMLExporter: StreamExporter {
    public let name = "html"
    public let title = "a self-contained HTML page"
    public let fileExtension = "html"
    public let scope = ExportScope.report
    public let summary = "is one page with no scripts and no network access that leads with what differs between the batches, "
        + "then latency distributions and tails against their budgets, the comparisons and the sweep charts"
    public let documentation = "one self-contained page. With two batches or more it opens with what differs between them: "
        + "the metrics whose batch means differ beyond their 95% intervals, the summary table, time to verdict, verdict "
        + "coverage and cost per batch as dots with 95% intervals, and cost against delay with error bars (each metric drawn "
        + "when the report has it). Then the tables, each latency's CDF beside its tail (share above, log scale) and "
        + "histograms (small multiples on one scale past two batches, every batch shown) against the budget lines, each "
        + "comparison's differences as a share of A with intervals, and each sweep's trade-off chart with its Pareto front "
        + "and error bars. Inline SVG and CSS, no scripts, and a Content-Security-Policy that forbids any network access"

    /// The HTML exporter.
    public init() {}

    /// Writes the page of the report (or of `--run`'s run) to `output`.
    public func write(_ source: ExportSource, to output: ReportOutput) throws {
        try Self.write(source.store, options: source.options, to: output)
    }

    /// A latency column drawn as CDF and histogram, with its budget when it has one.
    struct LatencySeries {
        var title: String
        var table: String
        var column: String
        /// SQL returning the budget in ns for `?` = a batch id, or nil for none.
        var budgetSQL: String?
        /// The histograms drawn from when the report keeps no rows of `table`.
        var metric: LatencyMetric?
        /// Which rows count (SQL over `t`), as in the metric's histogram.
        var condition: String = "1"
    }

    /// The latencies keysim knows; any other per-run table with a `latency_ns` column is
    /// drawn too, with its budget from `budget_violations` rows that name the table.
    static let knownSeries = [
        LatencySeries(title: "Key latency, touch to inserted", table: "keys", column: "latency_ns",
                      budgetSQL: "SELECT MAX(b.limit_ns) FROM budgets b JOIN runs r USING (run_id) WHERE r.batch_id = ? AND b.metric = 'key'",
                      metric: .key),
        LatencySeries(title: "Suggestion latency, touch to shown", table: "suggestions", column: "latency_ns",
                      budgetSQL: "SELECT MAX(b.limit_ns) FROM budgets b JOIN runs r USING (run_id) WHERE r.batch_id = ? AND b.metric = 'suggestion'",
                      metric: .suggestion, condition: "t.outcome = 'shown'"),
        LatencySeries(title: "Cloud request round trip", table: "requests", column: "round_trip_ns", budgetSQL: nil,
                      metric: .requestRoundTrip),
    ]

    /// Points of a CDF polyline.
    static let cdfPoints = 400
    /// Bins of a histogram.
    static let histogramBins = 40

    /// Writes the page for `store` to `output`.
    public static func write(_ store: ReportStore, options: ExportOptions, to output: ReportOutput) throws {
        if try FleetDayPageExporter.isFleetOnly(store) { return try FleetDayPageExporter().write(ExportSource(store, options: options), to: output) }
        let digest = try ReportDigest(store, options: options)
        var html = head()
        html += "<h1>keysim report</h1>\n"
        html += "<p class=\"meta\"><code>\(esc(digest.path))</code>: \(digest.batchCount) batch(es), \(digest.runCount) run(s); keysim \(esc(KeysimVersion.current)), report schema \(ReportSchema.version).</p>\n"
        if let run = digest.runDescription { html += "<p>\(esc(run.capitalizedFirst)).</p>\n" }
        if let selected = digest.selectionDescription { html += "<p>Selected: \(esc(selected)).</p>\n" }
        html += try decisionSection(store.database, options: options, summary: digest.summary)
        html += section("Batches", digest.batches)
        html += section("Key latency, touch to inserted (ms)", digest.keyLatency)
        html += section("Cloud requests", digest.requests)
        if !digest.cost.rows.isEmpty { html += section("Cloud cost: tokens, dollars, refusals (mean of the runs)", digest.cost) }
        if !digest.underlines.rows.isEmpty { html += section("Underlines", digest.underlines) }
        if !digest.typingQuality.rows.isEmpty { html += section("Typing quality", digest.typingQuality) }
        if !digest.touches.rows.isEmpty { html += section("Touch boundaries", digest.touches) }
        html += section(digest.runID == nil ? "Budget violations" : "Worst budget violations", digest.violations,
                        empty: "No item went over its budget.")
        if !digest.extensionLife.rows.isEmpty { html += section("Extension: kills, language files, device token", digest.extensionLife) }
        html += try latencyCharts(store.database, options: options)
        if !digest.comparisons.isEmpty {
            html += "<h2>Comparisons</h2>\n"
            for comparison in digest.comparisons { html += self.comparison(comparison) }
        }
        if !digest.sweeps.isEmpty {
            html += "<h2>Sweeps</h2>\n"
            for sweep in digest.sweeps { html += self.sweep(sweep) }
        }
        html += "</body>\n</html>\n"
        try output.write(html)
        try output.finish()
    }

    // MARK: - Page

    static func section(_ title: String, _ table: ReportDigest.Table, empty: String = "No rows.") -> String {
        "<h2>\(esc(title))</h2>\n" + (table.rows.isEmpty ? "<p>\(esc(empty))</p>\n" : htmlTable(table))
    }

    static func htmlTable(_ table: ReportDigest.Table, emphasise: ([String]) -> Bool = { _ in false }) -> String {
        var html = "<table>\n<thead><tr>"
        for (header, numeric) in zip(table.headers, table.numeric) { html += "<th\(numeric ? " class=\"num\"" : "")>\(esc(header))</th>" }
        html += "</tr></thead>\n<tbody>\n"
        for row in table.rows {
            html += emphasise(row) ? "<tr class=\"hl\">" : "<tr>"
            for (cell, numeric) in zip(row, table.numeric) { html += "<td\(numeric ? " class=\"num\"" : "")>\(esc(cell))</td>" }
            html += "</tr>\n"
        }
        html += "</tbody>\n</table>\n"
        if table.omittedRows > 0 { html += "<p class=\"note\">… and \(table.omittedRows) more row(s); query the report for all of them.</p>\n" }
        if let note = table.note { html += "<p class=\"note\">\(esc(note))</p>\n" }
        return html
    }

    /// The page's head and the start of its body: the style every keysim page shares.
    static func head(title: String = "keysim report") -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="keysim \(esc(KeysimVersion.current))">
        <title>\(esc(title))</title>
        <style>
        body { font: 14px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #1b1f23; margin: 24px auto; max-width: 1320px; padding: 0 16px; }
        h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 28px; border-bottom: 1px solid #d0d7de; } h3 { font-size: 15px; }
        table { border-collapse: collapse; margin: 8px 0; font-variant-numeric: tabular-nums; }
        th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; }
        th { background: #f6f8fa; } .num { text-align: right; } tr.hl td { background: #fff8c5; }
        .meta, .note { color: #57606a; } code { font-size: 13px; }
        .charts { display: flex; flex-wrap: wrap; gap: 12px; }
        svg { background: #fff; border: 1px solid #d0d7de; max-width: 100%; height: auto; }
        svg text { font: 11px -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; fill: #1b1f23; }
        svg .chart-title { font-size: 13px; font-weight: 600; } svg .tick { fill: #57606a; } svg .axis { fill: #24292f; }
        svg .grid { stroke: #eaeef2; } svg .frame { fill: none; stroke: #8c959f; }
        svg .budget { stroke: #cf222e; stroke-width: 1.5; stroke-dasharray: 5 3; } svg .budget-label { fill: #cf222e; }
        svg .reference { stroke: #24292f; stroke-width: 1; }
        svg .legend, svg .point-label { font-size: 10px; }
        </style>
        </head>
        <body>

        """
    }

    static func esc(_ text: String) -> String { HTMLEscaper.escape(text) }
}
