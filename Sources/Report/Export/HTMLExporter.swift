import Foundation
import Sim

/// One self-contained HTML page: the digest's tables, latency CDFs and histograms drawn
/// against their budget lines, the comparisons and the sweep charts. No scripts, no
/// stylesheets or fonts to fetch, and a Content-Security-Policy that forbids any network
/// access: it reads the same offline, in a mail attachment, and with scripts disabled.
public struct HTMLExporter: StreamExporter {
    public let name = "html"
    public let title = "a self-contained HTML page"
    public let fileExtension = "html"
    public let scope = ExportScope.report
    public let summary = "is one page with no scripts and no network access, with latency CDFs and histograms against their "
        + "budgets, the comparisons and the sweep charts"
    public let documentation = "one self-contained page: the summary tables, latency CDFs and histograms per batch drawn against "
        + "their budget lines, comparisons, and the sweep's trade-off chart with its Pareto front. Inline SVG and CSS, no "
        + "scripts, and a Content-Security-Policy that forbids any network access"

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

    /// The most batches one chart draws; more would be unreadable.
    static let seriesPerChartMax = 8
    /// Points of a CDF polyline.
    static let cdfPoints = 400
    /// Bins of a histogram.
    static let histogramBins = 40

    /// Writes the page for `store` to `output`.
    public static func write(_ store: ReportStore, options: ExportOptions, to output: ReportOutput) throws {
        let digest = try ReportDigest(store, options: options)
        var html = head()
        html += "<h1>keysim report</h1>\n"
        html += "<p class=\"meta\"><code>\(esc(digest.path))</code>: \(digest.batchCount) batch(es), \(digest.runCount) run(s); keysim \(esc(KeysimVersion.current)), report schema \(ReportSchema.version).</p>\n"
        if let run = digest.runDescription { html += "<p>\(esc(run.capitalizedFirst)).</p>\n" }
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

    // MARK: - Latency charts

    private static func latencyCharts(_ db: Database, options: ExportOptions) throws -> String {
        var series = knownSeries.filter { known in (try? db.relationExists(known.table)) == true }
        for relation in try ReportInspector.relations(db) where !relation.isView && relation.isPerRun
            && relation.columns.contains("latency_ns") && !["keys", "budget_violations"].contains(relation.name) {
            let singular = relation.name.hasSuffix("s") ? String(relation.name.dropLast()) : relation.name
            series.append(LatencySeries(
                title: "\(relation.name.replacingOccurrences(of: "_", with: " ").capitalizedFirst) latency", table: relation.name,
                column: "latency_ns", budgetSQL: """
                    SELECT MAX(v.budget_ns) FROM budget_violations v JOIN runs r USING (run_id)
                    WHERE r.batch_id = ? AND v.budget IN ('\(relation.name)', '\(singular)')
                    """))
        }
        // Groups: each batch (at most a chart's worth), or the selected run.
        // Each group's filter is SQL over `runs r`, which both the rows and the histograms join.
        var groups: [(label: String, filter: String, batchID: Int64)] = []
        if let runID = options.runID {
            let batch = try db.query("SELECT batch_id FROM runs WHERE run_id = ?", [.integer(runID)])[0][0].integerValue
            groups = [("run \(runID)", "r.run_id = \(runID)", batch)]
        } else {
            let hasLabels = try db.relationExists("job_batches")
            let label = hasLabels ? "COALESCE((SELECT label FROM job_batches j WHERE j.batch_id = b.batch_id), b.policy, '')" : "COALESCE(b.policy, '')"
            for row in try db.query("SELECT batch_id, scenario_name, \(label) FROM batches b ORDER BY batch_id LIMIT \(seriesPerChartMax)") {
                let name = row[2].textValue.isEmpty ? row[1].textValue : "\(row[1].textValue) / \(row[2].textValue)"
                groups.append(("batch \(row[0].integerValue): \(name)", "r.batch_id = \(row[0].integerValue)", row[0].integerValue))
            }
        }
        guard !groups.isEmpty else { return "" }
        var html = "<h2>Latency distributions</h2>\n"
        let batchTotal = try db.query("SELECT COUNT(*) FROM batches")[0][0].integerValue
        if options.runID == nil && batchTotal > Int64(seriesPerChartMax) {
            html += "<p class=\"note\">Charts show the first \(seriesPerChartMax) of \(batchTotal) batches.</p>\n"
        }
        for item in series {
            var samples: [(label: String, valuesMs: [Double])] = []
            var budgetNs: Int64?
            var fromHistograms = false
            for group in groups {
                var values: [Double] = []
                try db.prepare("""
                    SELECT t.\(item.column) FROM \(ReportInspector.quoted(item.table)) t JOIN runs r USING (run_id)
                    WHERE \(group.filter) AND \(item.condition) AND t.\(item.column) IS NOT NULL ORDER BY t.\(item.column)
                    """).forEachRow { values.append(Double($0.int64(at: 0)) / 1e6) }
                if values.isEmpty, let metric = item.metric {
                    values = try histogramValuesMs(db, metric: metric, runFilter: group.filter)
                    if !values.isEmpty { fromHistograms = true }
                }
                if !values.isEmpty { samples.append((group.label, values)) }
                if let sql = item.budgetSQL, case .integer(let budget)? = try db.query(sql, [.integer(group.batchID)]).first?.first {
                    budgetNs = max(budgetNs ?? 0, budget)
                }
            }
            guard !samples.isEmpty else { continue }
            html += "<h3>\(esc(item.title))</h3>\n<div class=\"charts\">\n"
            html += cdfChart(item, samples, budgetNs: budgetNs) + "\n" + histogramChart(item, samples, budgetNs: budgetNs) + "\n</div>\n"
            if fromHistograms {
                html += "<p class=\"note\">Drawn from the runs' latency histograms (the report keeps no rows of \(esc(item.table)) at its detail level): each value at its bucket's midpoint, within 1 %.</p>\n"
            }
        }
        return html
    }

    /// The values of `metric`'s merged histogram over the runs `runFilter` (SQL over `runs r`)
    /// selects, in milliseconds, ascending, each at its bucket's midpoint.
    private static func histogramValuesMs(_ db: Database, metric: LatencyMetric, runFilter: String) throws -> [Double] {
        let rows = try db.query("""
            SELECT h.bucket, SUM(h.count) FROM latency_histogram h JOIN runs r USING (run_id)
            WHERE h.metric = ? AND \(runFilter) GROUP BY h.bucket ORDER BY h.bucket
            """, [.text(metric.rawValue)])
        var values: [Double] = []
        for row in rows {
            let (lower, upper) = LatencyHistogram.range(of: Int(row[0].integerValue))
            let midpoint = upper - lower == 1 ? Double(lower) : (Double(lower) + Double(upper - 1)) / 2
            values += repeatElement(midpoint / 1e6, count: Int(row[1].integerValue))
        }
        return values
    }

    /// The x range of a latency chart: to the largest 99.9th percentile, and past the budget.
    private static func xMaximum(_ samples: [(label: String, valuesMs: [Double])], budgetMs: Double?) -> Double {
        let tails = samples.map { SampleSummary.percentile(sorted: $0.valuesMs, 99.9) }
        return SVGChart.niceMaximum(max(tails.max() ?? 1, (budgetMs ?? 0) * 1.25))
    }

    private static func cdfChart(_ item: LatencySeries, _ samples: [(label: String, valuesMs: [Double])], budgetNs: Int64?) -> String {
        let budgetMs = budgetNs.map { Double($0) / 1e6 }
        let xMax = xMaximum(samples, budgetMs: budgetMs)
        var chart = SVGChart(title: "\(item.title): cumulative distribution", xLabel: "milliseconds (axis ends near the 99.9th percentile)",
                             yLabel: "share at or below", xRange: 0...xMax, yRange: 0...1)
        chart.yAsPercent = true
        chart.legendAtBottom = true
        for (index, sample) in samples.enumerated() {
            let values = sample.valuesMs
            let step = max(1, values.count / cdfPoints)
            var points: [(x: Double, y: Double)] = [(0, 0)]
            var k = 0
            while k < values.count {
                points.append((values[k], Double(k + 1) / Double(values.count)))
                k += step
            }
            points.append((values[values.count - 1], 1))
            if values[values.count - 1] < xMax { points.append((xMax, 1)) }
            chart.marks.append(.line(points: points.filter { $0.x <= xMax }, color: SVGChart.palette[index % SVGChart.palette.count],
                                     label: "\(sample.label) (\(values.count))"))
        }
        if let budgetMs { chart.verticalLines.append((budgetMs, "budget \(SVGChart.tickText(budgetMs)) ms")) }
        return chart.render()
    }

    private static func histogramChart(_ item: LatencySeries, _ samples: [(label: String, valuesMs: [Double])], budgetNs: Int64?) -> String {
        let budgetMs = budgetNs.map { Double($0) / 1e6 }
        let xMax = xMaximum(samples, budgetMs: budgetMs)
        let width = xMax / Double(histogramBins)
        var marks: [SVGChart.Mark] = []
        var yMax = 0.0
        for (index, sample) in samples.enumerated() {
            var counts = Array(repeating: 0, count: histogramBins)
            for value in sample.valuesMs {
                // Values past the axis land in the last bin, so every item is counted.
                counts[min(histogramBins - 1, max(0, Int(value / width)))] += 1
            }
            let bins = counts.enumerated().map { bin, count in
                (x0: Double(bin) * width, x1: Double(bin + 1) * width, y: Double(count) / Double(sample.valuesMs.count))
            }
            yMax = max(yMax, bins.map(\.y).max() ?? 0)
            marks.append(.bars(bins: bins, color: SVGChart.palette[index % SVGChart.palette.count], label: sample.label))
        }
        var chart = SVGChart(title: "\(item.title): histogram", xLabel: "milliseconds (the last bin holds everything beyond)",
                             yLabel: "share of items", xRange: 0...xMax, yRange: 0...SVGChart.niceMaximum(yMax), marks: marks)
        chart.yAsPercent = true
        if let budgetMs { chart.verticalLines.append((budgetMs, "budget \(SVGChart.tickText(budgetMs)) ms")) }
        return chart.render()
    }

    // MARK: - Comparisons and sweeps

    private static func comparison(_ comparison: Comparison) -> String {
        var rows: [[String]] = []
        for row in comparison.rows {
            let d = row.decimals
            let interval = row.ciLow.flatMap { low in row.ciHigh.map { "[\(TextTable.fixed(low, d)), \(TextTable.fixed($0, d))]" } } ?? "–"
            rows.append([row.label, row.meanA.map { TextTable.fixed($0, d) } ?? "–", row.meanB.map { TextTable.fixed($0, d) } ?? "–",
                         row.difference.map { Comparison.signed($0, d) } ?? "–", interval,
                         row.pairs < 2 ? "–" : (row.significant ? "yes" : "no")])
        }
        let table = ReportDigest.Table(headers: ["metric", comparison.labelA + " (A)", comparison.labelB + " (B)", "difference (B − A)", "95% CI", "significant"],
                                       numeric: [false, true, true, true, true, false], rows: rows)
        return "<h3>\(esc(comparison.labelA)) vs \(esc(comparison.labelB)) — \(esc(comparison.scenarioName)), \(comparison.pairs) pairs</h3>\n"
            + htmlTable(table, emphasise: { $0.last == "yes" })
            + "<p class=\"note\">Paired differences over runs with common random numbers; 95% Student-t intervals.</p>\n"
    }

    private static func sweep(_ sweep: Sweep) -> String {
        let cost = RunMetric.named(sweep.costMetric)?.label ?? sweep.costMetric
        let delay = sweep.delayMetric == TradeOff.delay.name ? TradeOff.delayLabel : (RunMetric.named(sweep.delayMetric)?.label ?? sweep.delayMetric)
        var html = "<h3>\(esc(sweep.scenarioName)): \(esc(sweep.parameters.joined(separator: " × "))), \(sweep.points.count) points</h3>\n"
        let drawn = sweep.points.filter { $0.cost != nil && $0.delay != nil }
        if !drawn.isEmpty {
            let xs = drawn.map { $0.cost! }, ys = drawn.map { $0.delay! }
            let delayAxis = RunMetric.named(sweep.delayMetric)?.label ?? sweep.delayMetric
            var chart = SVGChart(title: "Trade-off: \(cost) against delay", xLabel: cost, yLabel: delayAxis,
                                 xRange: 0...SVGChart.niceMaximum(xs.max()!), yRange: 0...SVGChart.niceMaximum(ys.max()!))
            chart.height = 360
            let front = drawn.filter(\.onFront).sorted { ($0.cost!, $0.delay!) < ($1.cost!, $1.delay!) }
            chart.marks.append(.line(points: front.map { ($0.cost!, $0.delay!) }, color: SVGChart.palette[1], label: "Pareto front"))
            // Points at the same place (a timer past the trace's longest pause changes
            // nothing) share one label: the first and last of them.
            var groups: [(x: Double, y: Double, labels: [String], onFront: Bool)] = []
            for point in drawn {
                let label = point.values.joined(separator: ", ")
                if let index = groups.firstIndex(where: { $0.x == point.cost! && $0.y == point.delay! }) {
                    groups[index].labels.append(label)
                } else {
                    groups.append((point.cost!, point.delay!, [label], point.onFront))
                }
            }
            chart.marks.append(.points(points: groups.map { group in
                let label = group.labels.count <= 2 ? group.labels.joined(separator: "; ")
                    : "\(group.labels.first!) … \(group.labels.last!) (\(group.labels.count) points)"
                return (group.x, group.y, label, group.onFront)
            }, color: SVGChart.palette[0], label: "grid points"))
            html += "<div class=\"charts\">" + chart.render() + "</div>\n"
        }
        var rows: [[String]] = []
        for point in sweep.points {
            rows.append(point.values + ["\(point.runs)", point.cost.map { TextTable.fixed($0, sweep.costDecimals) } ?? "–",
                                        point.costHalfWidth.map { TextTable.fixed($0, sweep.costDecimals) } ?? "–",
                                        point.delay.map { TextTable.fixed($0, 1) } ?? "–",
                                        point.delayHalfWidth.map { TextTable.fixed($0, 1) } ?? "–", point.onFront ? "yes" : ""])
        }
        let table = ReportDigest.Table(headers: sweep.parameters + ["runs", cost, "± 95%", delay, "± 95%", "Pareto front"],
                                       numeric: sweep.parameters.map { _ in true } + [true, true, true, true, true, false], rows: rows)
        html += htmlTable(table, emphasise: { $0.last == "yes" })
        html += "<p class=\"note\">Pareto front: no other point has \(esc(sweep.costMetric == TradeOff.cost.name ? "fewer requests" : "a lower " + cost)) and less delay (both means over the point's runs). Delay: \(esc(delay)).</p>\n"
        return html
    }

    // MARK: - Page

    private static func section(_ title: String, _ table: ReportDigest.Table, empty: String = "No rows.") -> String {
        "<h2>\(esc(title))</h2>\n" + (table.rows.isEmpty ? "<p>\(esc(empty))</p>\n" : htmlTable(table))
    }

    private static func htmlTable(_ table: ReportDigest.Table, emphasise: ([String]) -> Bool = { _ in false }) -> String {
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
        svg .legend, svg .point-label { font-size: 10px; }
        </style>
        </head>
        <body>

        """
    }

    private static func esc(_ text: String) -> String { HTMLEscaper.escape(text) }
}
