import Foundation

/// The comparisons and sweeps of the HTML page: a comparison's paired differences drawn as
/// dots with their 95 % intervals, relative to A, beside its table; a sweep's trade-off
/// chart sized to its points, every point labelled where its label fits, with error bars.
extension HTMLExporter {
    static func comparison(_ comparison: Comparison) -> String {
        var rows: [[String]] = []
        for row in comparison.rows {
            let d = row.decimals
            let interval = row.ciLow.flatMap { low in row.ciHigh.map { "[\(TextTable.fixed(low, d)), \(TextTable.fixed($0, d))]" } } ?? "–"
            rows.append([row.label, row.meanA.map { TextTable.fixed($0, d) } ?? "–", row.meanB.map { TextTable.fixed($0, d) } ?? "–",
                         row.difference.map { Comparison.signed($0, d) } ?? "–", interval,
                         row.pairs < 2 ? "–" : (row.significant ? "yes" : "no")])
        }
        let table = ReportDigest.Table(headers: ["metric", comparison.labelA + " (A)", comparison.labelB + " (B)", "difference (B − A)", comparison.intervalHeader, comparison.significanceHeader],
                                       numeric: [false, true, true, true, true, false], rows: rows)
        return "<h3>\(esc(comparison.labelA)) vs \(esc(comparison.labelB)) — \(esc(comparison.scenarioName)), \(comparison.pairs) pairs</h3>\n"
            + differenceChart(comparison)
            + htmlTable(table, emphasise: { $0.last == "yes" })
            + "<p class=\"note\">Paired differences over runs with common random numbers; "
            + (comparison.intervalConfidence == Comparison.confidence ? "95% Student-t intervals.</p>\n"
               : "Bonferroni-corrected Student-t intervals (\(comparison.intervalHeader)), one of several comparisons with "
                   + "\(esc(comparison.labelA)); significance by Holm's step-down at a family-wise 5%.</p>\n")
    }

    static func sweep(_ sweep: Sweep) -> String {
        let cost = RunMetric.named(sweep.costMetric)?.label ?? sweep.costMetric
        let delay = sweep.delayMetric == TradeOff.delay.name ? TradeOff.delayLabel : (RunMetric.named(sweep.delayMetric)?.label ?? sweep.delayMetric)
        var html = "<h3>\(esc(sweep.scenarioName)): \(esc(sweep.parameters.joined(separator: " × "))), \(sweep.points.count) points</h3>\n"
        html += sweepChart(sweep)
        let table = ReportDigest.Table(headers: sweep.headers, numeric: sweep.numericColumns, rows: sweep.rows(empty: "–"))
        html += htmlTable(table, emphasise: { $0.last == ParetoTest.Status.front.rawValue })
        html += "<p class=\"note\">" + sweep.legend().map(esc).joined(separator: "<br>\n") + "<br>\nAxes: \(esc(cost)); \(esc(delay)).</p>\n"
        return html
    }

    /// The paired differences B − A as a share of A's mean, a row per metric that moved, a
    /// dot and its 95 % interval, significant ones in the accent colour; metrics that did not
    /// move at all (and those A has no value or a zero mean of) are named below it.
    static func differenceChart(_ comparison: Comparison) -> String {
        var rows: [SVGIntervalChart.Row] = []
        var still: [String] = []
        for row in comparison.rows {
            guard let a = row.meanA, a != 0, let difference = row.difference, row.pairs >= 2 else { continue }
            guard difference != 0 || (row.ciLow ?? 0) != (row.ciHigh ?? 0) else { still.append(row.label); continue }
            let scale = 100 / abs(a)
            let low = row.ciLow.map { $0 * scale }, high = row.ciHigh.map { $0 * scale }
            rows.append(.init(label: row.label, value: difference * scale, lower: low, upper: high, emphasised: row.significant,
                              note: Comparison.signed(difference * scale, 1) + "%" + (row.significant ? " *" : "")))
        }
        guard !rows.isEmpty else { return "" }
        let extent: [Double] = rows.flatMap { row in [row.value, row.lower, row.upper].compactMap { $0 } } + [0]
        // Very wide intervals (a metric near zero under A) are cut at ±300 % so the rest read.
        let range = SVGChart.paddedRange(extent.map { min(300, max(-300, $0)) })
        let chart = SVGIntervalChart(title: "\(comparison.labelB) − \(comparison.labelA): difference as a share of \(comparison.labelA)'s mean",
                                     xLabel: "percent of A (* significant: the 95% interval excludes zero)", rows: rows, reference: 0,
                                     width: 760, xRange: range)
        var html = "<div class=\"charts\">" + chart.render() + "</div>\n"
        if !still.isEmpty { html += "<p class=\"note\">The same under both: \(esc(still.joined(separator: "; "))).</p>\n" }
        return html
    }

    /// The sweep's trade-off chart: cost against delay, a point per grid point with its 95 %
    /// intervals, the axes fitted to the points and their intervals, every point labelled
    /// with its settings where the label overlaps nothing (all of them in the tooltip).
    static func sweepChart(_ sweep: Sweep) -> String {
        let drawn = sweep.points.filter { $0.cost != nil && $0.delay != nil }
        guard !drawn.isEmpty else { return "" }
        let cost = RunMetric.named(sweep.costMetric)?.label ?? sweep.costMetric
        let delay = RunMetric.named(sweep.delayMetric)?.label ?? sweep.delayMetric
        let whiskers: [(x: SVGChart.Interval, y: SVGChart.Interval)] = drawn.map {
            (.init($0.cost!, halfWidth: $0.costHalfWidth ?? 0), .init($0.delay!, halfWidth: $0.delayHalfWidth ?? 0))
        }
        var chart = SVGChart(title: "Trade-off: \(cost) against \(delay), \(drawn.count) points", xLabel: cost, yLabel: delay,
                             xRange: SVGChart.paddedRange(whiskers.flatMap { [$0.x.lower, $0.x.upper] }),
                             yRange: SVGChart.paddedRange(whiskers.flatMap { [$0.y.lower, $0.y.upper] }))
        // Wider and taller as points are added, so that their labels find room.
        chart.width = min(1200, max(760, 40 * Double(drawn.count) + 400))
        chart.height = min(640, max(380, 18 * Double(drawn.count) + 260))
        chart.labelEveryPoint = true
        let front = drawn.filter(\.onFront).sorted { ($0.cost!, $0.delay!) < ($1.cost!, $1.delay!) }
        let named = sweep.parameters.count == 1
        chart.marks = [
            .whiskers(intervals: whiskers, color: "#8c959f"),
            .line(points: front.map { ($0.cost!, $0.delay!) }, color: SVGChart.palette[1], label: "front"),
            .points(points: drawn.map { point in
                (point.cost!, point.delay!, "#\(point.index + 1) " + (named ? point.values[0] : point.values.joined(separator: ", ")), point.onFront)
            }, color: SVGChart.palette[0], label: "grid point (\(sweep.parameters.joined(separator: ", "))), 95% intervals"),
        ]
        return "<div class=\"charts\">" + chart.render() + "</div>\n"
    }
}
