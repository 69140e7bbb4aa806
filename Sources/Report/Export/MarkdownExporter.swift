/// `--format md`: a Markdown summary of a report, short enough to paste into a pull
/// request: batches, key latency and cloud requests per batch, budget violations,
/// comparisons and sweeps. The default format.
public struct MarkdownExporter: StreamExporter {
    public let name = "md"
    public let title = "Markdown"
    public let fileExtension = "md"
    public let scope = ExportScope.report
    public let summary = "is a summary to paste into a pull request"
    public let documentation = "a summary to paste into a pull request: batches, key latency and cloud requests per batch, budget "
        + "violations, comparisons, sweeps; typing quality, touch boundaries and the extension's kills, language files and token "
        + "when the report has them"

    /// The Markdown exporter.
    public init() {}

    /// Writes the summary of the report (or of `--run`'s run) to `output`.
    public func write(_ source: ExportSource, to output: ReportOutput) throws {
        try Self.write(ReportDigest(source.store, options: source.options), to: output)
    }

    /// Writes the summary of `digest` to `output`.
    public static func write(_ digest: ReportDigest, to output: ReportOutput) throws {
        try output.write(render(digest))
        try output.finish()
    }

    /// The Markdown text of `digest`.
    public static func render(_ digest: ReportDigest) -> String {
        var text = "# keysim report\n\n"
        text += code(digest.path) + ": \(digest.batchCount) batch(es), \(digest.runCount) run(s); keysim \(KeysimVersion.current), report schema \(ReportSchema.version).\n"
        if let run = digest.runDescription { text += "\n" + escape(run).capitalizedFirst + ".\n" }
        text += section("Batches", digest.batches)
        text += section("Key latency, touch to inserted (ms)", digest.keyLatency)
        text += section("Cloud requests", digest.requests)
        if !digest.cost.rows.isEmpty { text += section("Cloud cost: tokens, dollars, refusals (mean of the runs)", digest.cost) }
        if !digest.underlines.rows.isEmpty { text += section("Underlines", digest.underlines) }
        if !digest.typingQuality.rows.isEmpty { text += section("Typing quality", digest.typingQuality) }
        if !digest.touches.rows.isEmpty { text += section("Touch boundaries", digest.touches) }
        text += section(digest.runID == nil ? "Budget violations" : "Worst budget violations", digest.violations,
                        empty: "No item went over its budget.")
        if !digest.extensionLife.rows.isEmpty { text += section("Extension: kills, language files, device token", digest.extensionLife) }
        if !digest.comparisons.isEmpty {
            text += "\n## Comparisons\n"
            for comparison in digest.comparisons { text += self.comparison(comparison) }
        }
        if !digest.sweeps.isEmpty {
            text += "\n## Sweeps\n"
            for sweep in digest.sweeps { text += self.sweep(sweep) }
        }
        return text
    }

    static func comparison(_ comparison: Comparison) -> String {
        var table = ReportDigest.Table(headers: ["metric", comparison.labelA + " (A)", comparison.labelB + " (B)", "difference (B − A)", "95% CI", "significant"],
                                       numeric: [false, true, true, true, true, false], rows: [])
        for row in comparison.rows {
            let d = row.decimals
            let interval = row.ciLow.flatMap { low in row.ciHigh.map { "[\(TextTable.fixed(low, d)), \(TextTable.fixed($0, d))]" } } ?? "–"
            table.rows.append([row.label, row.meanA.map { TextTable.fixed($0, d) } ?? "–", row.meanB.map { TextTable.fixed($0, d) } ?? "–",
                               row.difference.map { Comparison.signed($0, d) } ?? "–", interval,
                               row.pairs < 2 ? "–" : (row.significant ? "**yes**" : "no")])
        }
        return "\n### \(escape(comparison.labelA)) vs \(escape(comparison.labelB)) — \(escape(comparison.scenarioName)), \(comparison.pairs) pairs\n\n"
            + markdown(table)
    }

    static func sweep(_ sweep: Sweep) -> String {
        let cost = RunMetric.named(sweep.costMetric)?.label ?? sweep.costMetric
        let delay = RunMetric.named(sweep.delayMetric)?.label ?? sweep.delayMetric
        var table = ReportDigest.Table(headers: sweep.parameters + ["runs", cost, "± 95%", delay, "± 95%", "Pareto front"],
                                       numeric: sweep.parameters.map { _ in true } + [true, true, true, true, true, false], rows: [])
        for point in sweep.points {
            table.rows.append(point.values + ["\(point.runs)", point.cost.map { TextTable.fixed($0, sweep.costDecimals) } ?? "–",
                                              point.costHalfWidth.map { TextTable.fixed($0, sweep.costDecimals) } ?? "–",
                                              point.delay.map { TextTable.fixed($0, 1) } ?? "–",
                                              point.delayHalfWidth.map { TextTable.fixed($0, 1) } ?? "–", point.onFront ? "**yes**" : ""])
        }
        var text = "\n### \(escape(sweep.scenarioName)): \(sweep.parameters.map(escape).joined(separator: " × ")), \(sweep.points.count) points\n\n"
        text += markdown(table)
        if sweep.delayMetric == TradeOff.delay.name && TradeOff.delayIsStandIn {
            text += "\nDelay axis: \(escape(TradeOff.delayLabel)).\n"
        }
        return text
    }

    private static func section(_ title: String, _ table: ReportDigest.Table, empty: String = "No rows.") -> String {
        "\n## \(title)\n\n" + (table.rows.isEmpty ? empty + "\n" : markdown(table))
    }

    /// A GitHub-flavoured Markdown table.
    static func markdown(_ table: ReportDigest.Table) -> String {
        var text = "| " + table.headers.map(escape).joined(separator: " | ") + " |\n"
        text += "|" + table.numeric.map { $0 ? " ---: |" : " --- |" }.joined() + "\n"
        for row in table.rows { text += "| " + row.map(escape).joined(separator: " | ") + " |\n" }
        if table.omittedRows > 0 { text += "\n… and \(table.omittedRows) more row(s); query the report for all of them.\n" }
        if let note = table.note { text += "\n" + note + "\n" }
        return text
    }

    private static func escape(_ text: String) -> String { MarkdownEscaper.escape(text) }

    private static func code(_ text: String) -> String { MarkdownEscaper.code(text) }
}

extension String {
    /// The string with its first character upper-cased.
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
