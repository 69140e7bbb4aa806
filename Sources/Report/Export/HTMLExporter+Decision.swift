import Foundation

/// The head of the HTML page when it holds more than one batch: what differs between them.
/// The metrics a debounce policy trades — time to the cloud's verdict, verdict coverage, and
/// cost — as a dot and 95 % interval per batch, cost drawn against delay with error bars in
/// both directions, and a line naming every metric that differs and every one that does not.
/// Metrics are looked up by name in `RunMetric.all` and drawn only when the report has them,
/// so the page reads reports written before and after a metric was added.
extension HTMLExporter {
    /// The metrics drawn per batch, in order, each drawn when the report has values of it.
    /// A group's later names are drawn only when its first is absent (`insteadOf`).
    static let decisionMetrics: [(name: String, insteadOf: String?)] = [
        ("underline_verdict_p50_ms", nil), ("underline_verdict_p95_ms", nil), ("underline_verdict_p99_ms", nil),
        ("underline_verdict_mean_ms", "underline_verdict_p95_ms"), ("verdict_coverage", nil),
        ("cost_usd_per_1000_words", nil), ("requests_per_100_words", nil),
    ]
    /// The trade-off chart's axes: the first of each list the report has.
    static let costAxis = ["cost_usd_per_1000_words", "requests_per_100_words"]
    static let delayAxis = ["underline_verdict_p95_ms", "underline_verdict_mean_ms"]

    /// A batch as the page names it.
    struct BatchGroup {
        var id: Int64
        /// `batch 3: default / fixed-1s`.
        var label: String
        /// `fixed-1s`, or the scenario when the batch has no policy or label.
        var shortLabel: String
    }

    /// The batches in scope under `options`, in id order.
    static func batchGroups(_ db: Database, options: ExportOptions) throws -> [BatchGroup] {
        let hasLabels = try db.relationExists("job_batches")
        let label = hasLabels ? "COALESCE((SELECT label FROM job_batches j WHERE j.batch_id = b.batch_id), b.policy, '')" : "COALESCE(b.policy, '')"
        let rows = try db.query("""
            SELECT batch_id, scenario_name, \(label) FROM batches b WHERE \(ReportDigest.Scope(options).batches("b.batch_id")) ORDER BY batch_id
            """)
        // The scenario is named only when the batches ran more than one.
        let oneScenario = Set(rows.map(\.[1].textValue)).count == 1
        return rows.map { row in
            let (id, scenario, label) = (row[0].integerValue, row[1].textValue, row[2].textValue)
            let name = label.isEmpty ? scenario : oneScenario ? label : "\(scenario) / \(label)"
            return BatchGroup(id: id, label: "batch \(id): \(name)", shortLabel: label.isEmpty ? "\(id): \(scenario)" : label)
        }
    }

    /// Each metric's 95 % interval over the runs of each batch: `[metric: [batch id: interval]]`.
    static func batchIntervals(_ db: Database, _ groups: [BatchGroup]) throws -> [String: [Int64: MeanInterval]] {
        var values: [String: [Int64: [Double]]] = [:]
        let ids = groups.map { String($0.id) }.joined(separator: ", ")
        try db.prepare("""
            SELECT m.metric, r.batch_id, m.value FROM run_metrics m JOIN runs r USING (run_id)
            WHERE r.batch_id IN (\(ids)) AND m.value IS NOT NULL ORDER BY m.metric, r.batch_id, r.run_id
            """).forEachRow { row in
            values[row.string(at: 0) ?? "", default: [:]][row.int64(at: 1), default: []].append(row.double(at: 2))
        }
        return values.mapValues { $0.mapValues(MeanInterval.init) }
    }

    /// The section "What differs between the batches"; empty for fewer than two batches.
    static func decisionSection(_ db: Database, options: ExportOptions, summary: ReportDigest.Table) throws -> String {
        guard options.runID == nil else { return "" }
        let groups = try batchGroups(db, options: options)
        guard groups.count >= 2 else { return "" }
        let intervals = try batchIntervals(db, groups)
        var html = "<h2>What differs between the batches</h2>\n"
        html += differsLine(intervals, groups)
        // Sweep points share their setting's name: the charts show the values, the title the name.
        let (shown, setting) = shortened(groups)
        html += "<div class=\"charts\">\n"
        for metric in decisionMetrics where intervals[metric.name] != nil && !(metric.insteadOf.map { intervals[$0] != nil } ?? false) {
            html += metricChart(metric.name, intervals[metric.name]!, shown, setting: setting) + "\n"
        }
        if let cost = costAxis.first(where: { intervals[$0] != nil }), let delay = delayAxis.first(where: { intervals[$0] != nil }) {
            html += tradeOffChart(cost: cost, delay: delay, intervals, shown, setting: setting) + "\n"
        }
        html += "</div>\n<p class=\"note\">Dots are means over each batch's runs; whiskers their 95% Student-t intervals. "
            + "Metrics the report lacks (written before keysim computed them) are left out.</p>\n"
        // A long table would push everything below it out of sight: past a screen's worth, folded.
        html += summary.rows.count > summaryRowsOpenMax
            ? "<details><summary>The summary table (\(summary.rows.count) rows)</summary>\n" + htmlTable(summary) + "</details>\n"
            : htmlTable(summary)
        return html
    }

    /// The most rows the summary table shows open.
    static let summaryRowsOpenMax = 12

    /// `groups` with the setting every short label names (`debounce.otherwiseMs=`) taken off,
    /// and that setting; the groups as they are when their labels share none.
    static func shortened(_ groups: [BatchGroup]) -> (groups: [BatchGroup], setting: String?) {
        guard let first = groups.first?.shortLabel, let equals = first.firstIndex(of: "=") else { return (groups, nil) }
        let prefix = String(first[...equals])
        guard prefix.count > 1, groups.allSatisfy({ $0.shortLabel.hasPrefix(prefix) && $0.shortLabel.count > prefix.count }) else { return (groups, nil) }
        return (groups.map { var group = $0; group.shortLabel.removeFirst(prefix.count); return group }, String(prefix.dropLast()))
    }

    /// One sentence: the metrics whose batch means differ beyond their intervals, most
    /// different first, and those the same in every batch.
    static func differsLine(_ intervals: [String: [Int64: MeanInterval]], _ groups: [BatchGroup]) -> String {
        var differ: [(label: String, spread: Double)] = [], same: [String] = []
        for metric in RunMetric.all {
            guard let perBatch = intervals[metric.name], perBatch.count >= 2 else { continue }
            let sorted = perBatch.values.sorted { $0.mean < $1.mean }
            let (low, high) = (sorted.first!, sorted.last!)
            if high.mean - high.halfWidth > low.mean + low.halfWidth {
                differ.append((metric.label, (high.mean - low.mean) / max(abs(high.mean), abs(low.mean), 1e-12)))
            } else if high.mean - low.mean <= 1e-9 * max(1, abs(high.mean)) {
                same.append(metric.label)
            }
        }
        differ.sort { $0.spread > $1.spread }
        var text = "<p>"
        text += differ.isEmpty ? "No metric differs between the batches beyond its 95% intervals."
            : "Differ beyond their 95% intervals (largest relative spread first): " + esc(differ.map(\.label).joined(separator: "; ")) + "."
        if !same.isEmpty { text += " The same in every batch: " + esc(same.joined(separator: "; ")) + "." }
        return text + "</p>\n"
    }

    /// A metric per batch, dot and interval, the best batch in the accent colour.
    static func metricChart(_ name: String, _ perBatch: [Int64: MeanInterval], _ groups: [BatchGroup], setting: String? = nil) -> String {
        let metric = RunMetric.named(name)
        let isShare = metric?.unit == "share"
        let scale = isShare ? 100.0 : 1
        let present = groups.compactMap { group in perBatch[group.id].map { (group, $0) } }
        let best = metric.flatMap { m in (m.lowerIsBetter ? present.min { $0.1.mean < $1.1.mean } : present.max { $0.1.mean < $1.1.mean })?.0.id }
        // Milliseconds in the hundreds and more read better whole.
        let largest = present.map { abs($0.1.mean) }.max() ?? 0
        let decimals = isShare ? 1 : metric?.unit == "ms" && largest >= 100 ? 0 : (metric?.decimals ?? 2)
        var chart = SVGIntervalChart(title: (metric?.label ?? name) + (metric.map { $0.lowerIsBetter ? " — lower is better" : " — higher is better" } ?? "")
                                         + (setting.map { ", by \($0)" } ?? ""),
                                     xLabel: isShare ? "percent" : (metric?.unit ?? ""), rows: [])
        for group in groups {
            guard let interval = perBatch[group.id] else {
                chart.rows.append(.init(label: group.shortLabel, value: nil))
                continue
            }
            let (mean, half) = (interval.mean * scale, interval.halfWidth * scale)
            chart.rows.append(.init(label: group.shortLabel, value: mean, lower: mean - half, upper: mean + half,
                                    emphasised: group.id == best,
                                    note: TextTable.fixed(mean, decimals) + (interval.count >= 2 ? " ± " + TextTable.fixed(half, decimals) : "") + (isShare ? "%" : "")))
        }
        return chart.render()
    }

    /// Cost against delay, a point per batch with its intervals on both axes, each labelled.
    static func tradeOffChart(cost: String, delay: String, _ intervals: [String: [Int64: MeanInterval]], _ groups: [BatchGroup],
                              setting: String? = nil) -> String {
        var points: [(x: Double, y: Double, label: String, emphasised: Bool)] = []
        var whiskers: [(x: SVGChart.Interval, y: SVGChart.Interval)] = []
        for group in groups {
            guard let x = intervals[cost]?[group.id], let y = intervals[delay]?[group.id] else { continue }
            points.append((x.mean, y.mean, group.shortLabel, false))
            whiskers.append((.init(x.mean, halfWidth: x.halfWidth), .init(y.mean, halfWidth: y.halfWidth)))
        }
        let costLabel = RunMetric.named(cost)?.label ?? cost, delayLabel = RunMetric.named(delay)?.label ?? delay
        var chart = SVGChart(title: "Cost against delay, a point per batch" + (setting.map { ", labelled by \($0)" } ?? ""),
                             xLabel: costLabel, yLabel: delayLabel,
                             xRange: SVGChart.paddedRange(whiskers.flatMap { [$0.x.lower, $0.x.upper] }),
                             yRange: SVGChart.paddedRange(whiskers.flatMap { [$0.y.lower, $0.y.upper] }))
        chart.height = 380
        chart.labelEveryPoint = true
        chart.marks = [.whiskers(intervals: whiskers, color: "#8c959f"), .points(points: points, color: SVGChart.palette[0], label: "")]
        return chart.render()
    }
}
