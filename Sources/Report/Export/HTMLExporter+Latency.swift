import Foundation
import Sim

/// The latency distributions of the HTML page: for each latency, the CDF beside its tail on a
/// log scale (the share of items above each latency, down to one item in the batch: what a
/// 1 %-allowed budget is about), then histograms — overlaid for one or two batches, small
/// multiples on one scale for more, every batch shown.
extension HTMLExporter {
    /// A sample drawn: its label and its values in milliseconds, ascending.
    typealias Sample = (label: String, valuesMs: [Double])

    static func latencyCharts(_ db: Database, options: ExportOptions) throws -> String {
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
        // Groups: every batch in scope, or the selected run. Each group's filter is SQL over
        // `runs r`, which both the rows and the histograms join.
        var groups: [(label: String, filter: String, batchID: Int64)] = []
        if let runID = options.runID {
            let batch = try db.query("SELECT batch_id FROM runs WHERE run_id = ?", [.integer(runID)])[0][0].integerValue
            groups = [("run \(runID)", "r.run_id = \(runID)", batch)]
        } else {
            groups = try batchGroups(db, options: options).map { ($0.label, "r.batch_id = \($0.id)", $0.id) }
        }
        guard !groups.isEmpty else { return "" }
        var html = "<h2>Latency distributions</h2>\n"
        for item in series {
            var samples: [Sample] = []
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
            let budgetMs = budgetNs.map { Double($0) / 1e6 }
            html += "<h3>\(esc(item.title))</h3>\n<div class=\"charts\">\n"
            html += cdfChart(item, samples, budgetMs: budgetMs) + "\n" + tailChart(item, samples, budgetMs: budgetMs) + "\n</div>\n"
            html += "<div class=\"charts\">\n" + histograms(item, samples, budgetMs: budgetMs) + "</div>\n"
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
    private static func xMaximum(_ samples: [Sample], budgetMs: Double?) -> Double {
        let tails = samples.map { SampleSummary.percentile(sorted: $0.valuesMs, 99.9) }
        return SVGChart.niceMaximum(max(tails.max() ?? 1, (budgetMs ?? 0) * 1.25))
    }

    /// A series' line: its colour, and a dash past the palette's colours.
    private static func line(_ index: Int, _ points: [(x: Double, y: Double)], _ label: String) -> SVGChart.Mark {
        .line(points: points, color: SVGChart.color(index), label: label, dash: SVGChart.dash(index))
    }

    private static func cdfChart(_ item: LatencySeries, _ samples: [Sample], budgetMs: Double?) -> String {
        let xMax = xMaximum(samples, budgetMs: budgetMs)
        var chart = SVGChart(title: "\(item.title): cumulative distribution", xLabel: "milliseconds (axis ends near the 99.9th percentile)",
                             yLabel: "share at or below", xRange: 0...xMax, yRange: 0...1)
        chart.yAsPercent = true
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
            chart.marks.append(line(index, points.filter { $0.x <= xMax }, "\(sample.label) (\(values.count))"))
        }
        if let budgetMs { chart.verticalLines.append((budgetMs, "budget \(SVGChart.tickText(budgetMs)) ms")) }
        return chart.render()
    }

    /// The tail: the share of items above each latency on a log scale, to the largest value,
    /// so p99 and p99.9 read off the 1 % and 0.1 % lines.
    private static func tailChart(_ item: LatencySeries, _ samples: [Sample], budgetMs: Double?) -> String {
        let largest = samples.map { $0.valuesMs.last! }.max()!
        let xMax = SVGChart.niceMaximum(max(largest, (budgetMs ?? 0) * 1.25))
        let fewest = samples.map(\.valuesMs.count).max()!
        let yMin = pow(10, floor(log10(1 / Double(fewest))))
        var chart = SVGChart(title: "\(item.title): tail, share above (log scale)", xLabel: "milliseconds (to the largest value)",
                             yLabel: "share above", xRange: 0...xMax, yRange: yMin...1)
        chart.yAsPercent = true
        chart.yLog = true
        for (index, sample) in samples.enumerated() {
            let values = sample.valuesMs, n = values.count
            // Every point of the last 1 % (or 200), a subsample before: the tail is the subject.
            let tail = max(200, n / 100)
            let step = max(1, (n - tail) / cdfPoints)
            var points: [(x: Double, y: Double)] = [(0, 1)]
            var k = 0
            while k < n - 1 {
                // The share above values[k] once every copy of it is counted.
                var j = k
                while j + 1 < n && values[j + 1] == values[k] { j += 1 }
                if j < n - 1 { points.append((values[k], Double(n - 1 - j) / Double(n))) }
                k = j + (j < n - tail ? step : 1)
            }
            chart.marks.append(line(index, points, "\(sample.label) (\(n))"))
        }
        for share in [0.01, 0.001] where share >= yMin {
            chart.marks.append(.line(points: [(0, share), (xMax, share)], color: "#8c959f", label: "", dash: "2 3"))
        }
        if let budgetMs { chart.verticalLines.append((budgetMs, "budget \(SVGChart.tickText(budgetMs)) ms")) }
        return chart.render()
    }

    /// Histograms on one scale: overlaid for one or two samples, a small chart each for more.
    private static func histograms(_ item: LatencySeries, _ samples: [Sample], budgetMs: Double?) -> String {
        let xMax = xMaximum(samples, budgetMs: budgetMs)
        let width = xMax / Double(histogramBins)
        var all: [SVGChart.Mark] = []
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
            all.append(.bars(bins: bins, color: SVGChart.color(index), label: sample.label))
        }
        let yRange = 0...SVGChart.niceMaximum(yMax)
        func chart(_ title: String, _ marks: [SVGChart.Mark]) -> SVGChart {
            var chart = SVGChart(title: title, xLabel: "milliseconds (the last bin holds everything beyond)",
                                 yLabel: "share of items", xRange: 0...xMax, yRange: yRange, marks: marks)
            chart.yAsPercent = true
            if let budgetMs { chart.verticalLines.append((budgetMs, "budget \(SVGChart.tickText(budgetMs)) ms")) }
            return chart
        }
        guard samples.count > 2 else { return chart("\(item.title): histogram", all).render() + "\n" }
        var html = ""
        for (sample, mark) in zip(samples, all) {
            guard case .bars(let bins, let color, _) = mark else { continue }
            var small = chart(sample.label, [.bars(bins: bins, color: color, label: "")])
            (small.width, small.height) = (360, 190)
            small.xLabel = "ms"
            html += small.render() + "\n"
        }
        return html
    }
}
