/// `--format md`: a compact Markdown summary of a report for a pull request's comment: one
/// table with a row per batch (what differs between policies), and every other table folded
/// in a `<details>` block — batches, key latency, cloud requests, underlines, budget
/// violations, each comparison and each sweep — which GitHub shows closed. The default
/// format; `md-full` (`MarkdownFullExporter`) writes every table open.
public struct MarkdownExporter: StreamExporter {
    public let name = "md"
    public let title = "Markdown"
    public let fileExtension = "md"
    public let scope = ExportScope.report
    public let summary = "is a compact summary to paste into a pull request: one table, the rest folded"
    public let documentation = "a compact summary for a pull request's comment: one table with a row per batch (key latency's p99 "
        + "and share over budget, requests per 100 words, time to verdict, verdict coverage and cost when the report has them), "
        + "every other table of `md-full` folded in a `<details>` block, a comparison's and a sweep's each in one; never longer than "
        + "a GitHub comment (65,536 characters): blocks past it are named for `md-full`"

    /// The Markdown exporter.
    public init() {}

    /// Writes the compact summary of the report (or of the selection) to `output`.
    public func write(_ source: ExportSource, to output: ReportOutput) throws {
        try output.write(Self.renderCompact(ReportDigest(source.store, options: source.options)))
        try output.finish()
    }

    /// The most characters a GitHub comment holds; the compact form stays under it.
    public static let commentCharactersMax = 65_536

    /// The compact Markdown of `digest`: the heading, the summary table, the rest folded —
    /// as many folded blocks as fit in a pull request's comment (`commentCharactersMax`),
    /// the others named in a last line that points to `md-full`.
    public static func renderCompact(_ digest: ReportDigest) -> String {
        var text = heading(digest)
        text += "\n" + (digest.summary.rows.isEmpty ? "No runs.\n" : markdown(digest.summary))
        // A block's title stands inside `<summary>`, HTML that Markdown leaves as it is: it is
        // escaped as HTML, not Markdown (a backslash there would show).
        func html(_ text: String) -> String { HTMLEscaper.escape(text) }
        var blocks: [(title: String, body: String)] = []
        func fold(_ title: String, _ table: ReportDigest.Table) {
            let rows = table.rows.count + table.omittedRows
            blocks.append((html(title) + " (\(rows) row\(rows == 1 ? "" : "s"))", markdown(table)))
        }
        fold("Batches", digest.batches)
        fold("Key latency, touch to inserted (ms)", digest.keyLatency)
        fold("Cloud requests", digest.requests)
        if !digest.cost.rows.isEmpty { fold("Cloud cost: tokens, dollars, refusals (mean of the runs)", digest.cost) }
        if !digest.underlines.rows.isEmpty { fold("Underlines", digest.underlines) }
        if !digest.typingQuality.rows.isEmpty { fold("Typing quality", digest.typingQuality) }
        if !digest.touches.rows.isEmpty { fold("Touch boundaries", digest.touches) }
        if !digest.violations.rows.isEmpty {
            fold(digest.runID == nil ? "Budget violations" : "Worst budget violations", digest.violations)
        }
        if !digest.extensionLife.rows.isEmpty { fold("Extension: kills, language files, device token", digest.extensionLife) }
        for comparison in digest.comparisons {
            let significant = comparison.rows.filter { $0.pairs >= 2 && $0.significant }.count
            blocks.append(("Comparison: \(html(comparison.labelA)) vs \(html(comparison.labelB)) — \(html(comparison.scenarioName)), "
                           + "\(comparison.pairs) pairs, \(significant) of \(comparison.rows.count) metrics differ", self.comparison(comparison, heading: false)))
        }
        for sweep in digest.sweeps {
            blocks.append(("Sweep: \(html(sweep.scenarioName)), \(sweep.parameters.map(html).joined(separator: " × ")), "
                           + "\(sweep.points.count) points, \(sweep.points.filter(\.onFront).count) on the Pareto front", self.sweep(sweep, heading: false)))
        }
        // Room kept for the line naming what was left out.
        let room = commentCharactersMax - 2_000
        var left: [String] = []
        for block in blocks {
            let folded = details(block.title, block.body)
            if left.isEmpty && text.count + folded.count <= room { text += folded } else { left.append(block.title) }
        }
        if !left.isEmpty {
            text += "\nLeft out to fit a pull request's comment (`--format md-full` has them): " + left.prefix(20).joined(separator: "; ")
                + (left.count > 20 ? "; and \(left.count - 20) more" : "") + ".\n"
        }
        return text
    }

    /// The report's heading: its file, counts and versions, and what was selected.
    static func heading(_ digest: ReportDigest) -> String {
        var text = "# keysim report\n\n"
        text += code(digest.path) + ": \(digest.batchCount) batch(es), \(digest.runCount) run(s); keysim \(KeysimVersion.current), report schema \(ReportSchema.version).\n"
        if let run = digest.runDescription { text += "\n" + escape(run).capitalizedFirst + ".\n" }
        if let selected = digest.selectionDescription { text += "\nSelected: " + escape(selected) + ".\n" }
        return text
    }

    /// A `<details>` block GitHub renders closed, `body` Markdown inside: the blank lines
    /// around it let GitHub read it as Markdown rather than HTML.
    static func details(_ summary: String, _ body: String) -> String {
        "\n<details><summary>\(summary)</summary>\n\n\(body)\n</details>\n"
    }

    /// Every table of `digest`, open: the `md-full` form.
    public static func render(_ digest: ReportDigest) -> String {
        var text = heading(digest)
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

    static func comparison(_ comparison: Comparison, heading: Bool = true) -> String {
        var table = ReportDigest.Table(headers: ["metric", comparison.labelA + " (A)", comparison.labelB + " (B)", "difference (B − A)", comparison.intervalHeader, comparison.significanceHeader],
                                       numeric: [false, true, true, true, true, false], rows: [])
        for row in comparison.rows {
            let d = row.decimals
            let interval = row.ciLow.flatMap { low in row.ciHigh.map { "[\(TextTable.fixed(low, d)), \(TextTable.fixed($0, d))]" } } ?? "–"
            table.rows.append([escape(row.label), row.meanA.map { TextTable.fixed($0, d) } ?? "–", row.meanB.map { TextTable.fixed($0, d) } ?? "–",
                               row.difference.map { Comparison.signed($0, d) } ?? "–", interval,
                               row.pairs < 2 ? "–" : (row.significant ? "**yes**" : "no")])
        }
        let title = "\n### \(escape(comparison.labelA)) vs \(escape(comparison.labelB)) — \(escape(comparison.scenarioName)), \(comparison.pairs) pairs\n\n"
        return (heading ? title : "") + markdown(table, cellsAreMarkdown: true)
    }

    static func sweep(_ sweep: Sweep, heading: Bool = true) -> String {
        let table = ReportDigest.Table(headers: sweep.headers, numeric: sweep.numericColumns, rows: sweep.rows(empty: "–"))
        var text = heading ? "\n### \(escape(sweep.scenarioName)): \(sweep.parameters.map(escape).joined(separator: " × ")), \(sweep.points.count) points\n\n" : ""
        text += markdown(table)
        // One paragraph per line: Markdown would run consecutive lines together.
        text += "\n" + sweep.legend().map(escape).joined(separator: "\n\n") + "\n"
        if sweep.delayMetric == TradeOff.delay.name && TradeOff.delayIsStandIn {
            text += "\nDelay axis: \(escape(TradeOff.delayLabel)).\n"
        }
        return text
    }

    private static func section(_ title: String, _ table: ReportDigest.Table, empty: String = "No rows.") -> String {
        "\n## \(title)\n\n" + (table.rows.isEmpty ? empty + "\n" : markdown(table))
    }

    /// A GitHub-flavoured Markdown table. Its cells are plain text, escaped here, unless
    /// `cellsAreMarkdown` (the comparison and sweep tables, whose cells the caller escaped and
    /// whose "yes" is bold): escaping those again would show the asterisks and backslashes.
    static func markdown(_ table: ReportDigest.Table, cellsAreMarkdown: Bool = false) -> String {
        var text = "| " + table.headers.map(escape).joined(separator: " | ") + " |\n"
        text += "|" + table.numeric.map { $0 ? " ---: |" : " --- |" }.joined() + "\n"
        for row in table.rows {
            text += "| " + row.map { cellsAreMarkdown ? $0 : escape($0) }.joined(separator: " | ") + " |\n"
        }
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
