import Foundation
import XCTest
@testable import Report

/// The HTML page's charts on a real report (a two-policy comparison with two replications
/// and a two-point sweep: four batches): it leads with what differs, each figure drawn is
/// the report's own, tails are on a log scale, histograms are small multiples with every
/// batch, legends sit below the plots, and metrics the report lacks are left out.
final class HTMLChartTests: XCTestCase {
    private static func makeReport(_ folder: ReportFolder) throws -> String {
        try Fixtures.compareAndSweepReport(folder, sweepValues: [250, 2000], sweepReplications: 2)
    }

    private func page(_ path: String, _ options: ExportOptions = ExportOptions()) throws -> String {
        let store = try ReportStore(path: path, readOnly: true)
        let output = path + ".html"
        try HTMLExporter.write(store, options: options, to: try ReportOutput.file(output))
        return try String(contentsOfFile: output, encoding: .utf8)
    }

    /// The SVG charts of `html`, in order.
    private func charts(_ html: String) -> [String] {
        html.components(separatedBy: "<svg").dropFirst().map { "<svg" + $0.components(separatedBy: "</svg>")[0] + "</svg>" }
    }

    func testThePageLeadsWithWhatDiffersAndDrawsTheReportsFigures() throws {
        let folder = try ReportFolder()
        let path = try Self.makeReport(folder)
        let html = try page(path)
        let differs = try XCTUnwrap(html.range(of: "<h2>What differs between the batches</h2>"))
        let batches = try XCTUnwrap(html.range(of: "<h2>Batches</h2>"))
        XCTAssertLessThan(differs.lowerBound, batches.lowerBound, "the decision comes first")
        // The sweep's 250 ms and 2 s timers send very different numbers of requests.
        XCTAssertTrue(html.contains("Differ beyond their 95% intervals (largest relative spread first): ") && html.contains("cloud requests per 100 words"), html)
        XCTAssertTrue(html.contains("The same in every batch: key latency, p99 (ms)"), "the policy does not change key latency")

        // Each batch's dot is the mean of its runs' values, with its 95% interval.
        let store = try ReportStore(path: path, readOnly: true)
        let requestsChart = try XCTUnwrap(charts(html).first { $0.contains("cloud requests per 100 words — lower is better") })
        let perBatch = try store.database.query("""
            SELECT r.batch_id, m.value FROM run_metrics m JOIN runs r USING (run_id) WHERE m.metric = 'requests_per_100_words' ORDER BY r.batch_id, r.run_id
            """).reduce(into: [Int64: [Double]]()) { $0[$1[0].integerValue, default: []].append($1[1].doubleValue ?? 0) }
        for row in perBatch {
            let interval = MeanInterval(row.value)
            let note = TextTable.fixed(interval.mean, 2) + " ± " + TextTable.fixed(interval.halfWidth, 2)
            XCTAssertTrue(requestsChart.contains(">\(note)</text>"), "batch \(row.key): \(note) in \(requestsChart)")
        }
        for name in ["underline_verdict_p50_ms", "underline_verdict_p95_ms", "underline_verdict_p99_ms", "verdict_coverage"] {
            let metric = try XCTUnwrap(RunMetric.named(name))
            XCTAssertTrue(charts(html).contains { $0.contains(HTMLEscaper.escape(metric.label) + (metric.lowerIsBetter ? " — lower is better" : " — higher is better")) }, name)
        }
        let tradeOff = try XCTUnwrap(charts(html).first { $0.contains("Cost against delay, a point per batch") })
        XCTAssertEqual(tradeOff.components(separatedBy: "<circle").count - 1, 4, "a point per batch")
        XCTAssertTrue(tradeOff.contains("stroke=\"#8c959f\""), "with error bars")
    }

    func testTailsHistogramsAndLegends() throws {
        let folder = try ReportFolder()
        let html = try page(try Self.makeReport(folder))
        for series in ["Key latency, touch to inserted", "Suggestion latency, touch to shown", "Cloud request round trip"] {
            let tail = try XCTUnwrap(charts(html).first { $0.contains("\(series): tail, share above (log scale)") }, series)
            for tick in [">100%</text>", ">10%</text>", ">1%</text>", ">0.1%</text>"] { XCTAssertTrue(tail.contains(tick), "\(series): \(tick)") }
        }
        XCTAssertFalse(html.contains("Charts show the first"), "every batch is drawn")
        // Four batches: a small histogram each, on one scale, titled by the batch.
        for batch in ["batch 1: seed", "batch 2: fixed-1s", "batch 3: debounce.otherwiseMs=250", "batch 4: debounce.otherwiseMs=2000"] {
            XCTAssertTrue(html.contains("class=\"chart-title\">\(batch)</text>"), batch)
        }
        XCTAssertFalse(html.contains(": histogram</text>"), "no overlaid histogram past two batches")
        // Every legend entry sits below its plot's frame, clear of lines and budget labels.
        for chart in charts(html) where chart.contains("class=\"legend\"") {
            let frame = try XCTUnwrap(chart.range(of: "class=\"frame\"/>"))
            let rect = chart[..<frame.lowerBound].components(separatedBy: "<rect ").last!
            func attribute(_ name: String, _ text: Substring) -> Double { Double(text.components(separatedBy: "\(name)=\"")[1].prefix { $0 != "\"" })! }
            let bottom = attribute("y", Substring(rect)) + attribute("height", Substring(rect))
            for legend in chart.components(separatedBy: "class=\"legend\"").dropLast() {
                let y = attribute("y", Substring(legend.components(separatedBy: "<text ").last!))
                XCTAssertGreaterThan(y, bottom, String(chart.prefix(160)))
            }
        }
        // One or two batches: the histogram is one chart with both.
        let one = try page(folder.path("r.sqlite"), ExportOptions(selection: try ReportSelection.resolve(.comparison(1), in: ReportStore(path: folder.path("r.sqlite"), readOnly: true))))
        XCTAssertTrue(one.contains("Key latency, touch to inserted: histogram"))
    }

    func testComparisonAndSweepChartsDrawIntervals() throws {
        let folder = try ReportFolder()
        let path = try Self.makeReport(folder)
        let html = try page(path)
        let store = try ReportStore(path: path, readOnly: true)
        let comparison = try XCTUnwrap(try Comparison.load(store.database).first)
        let difference = try XCTUnwrap(charts(html).first { $0.contains("fixed-1s − seed: difference as a share of seed's mean") })
        let requests = try XCTUnwrap(comparison.rows.first { $0.metric == "requests_per_100_words" })
        let share = requests.difference! * 100 / abs(requests.meanA!)
        XCTAssertTrue(difference.contains(">\(Comparison.signed(share, 1))%\(requests.significant ? " *" : "")</text>"), difference)
        XCTAssertTrue(html.contains("The same under both: key latency, mean (ms)"), "what did not move is named, not drawn")

        let sweep = try XCTUnwrap(charts(html).first { $0.contains("Trade-off: cloud requests per 100 words against time to verdict (confirm or retract), mean (ms), 2 points") })
        for label in [">#1 250</text>", ">#2 2000</text>"] { XCTAssertTrue(sweep.contains(label), "every point labelled: \(label)") }
        XCTAssertTrue(sweep.contains("stroke=\"#8c959f\""), "with its intervals")

        // The sweep alone: its points share a setting, which the titles name once.
        let points = try page(path, ExportOptions(selection: try ReportSelection.resolve(.sweep(1), in: store)))
        let byPoint = try XCTUnwrap(charts(points).first { $0.contains("cloud requests per 100 words — lower is better, by debounce.otherwiseMs") })
        for value in ["250", "2000"] { XCTAssertTrue(byPoint.contains("text-anchor=\"end\" class=\"axis\">\(value)</text>"), value) }
        XCTAssertFalse(byPoint.contains(">debounce.otherwiseMs=250<"))
        XCTAssertTrue(points.contains("Cost against delay, a point per batch, labelled by debounce.otherwiseMs"))
    }

    /// Metrics are drawn by name when the report has them: a report without the verdict time
    /// has no chart of it, and one with a metric a later keysim adds draws it.
    func testMetricsAreDrawnWhenTheReportHasThem() throws {
        let folder = try ReportFolder()
        let path = try Self.makeReport(folder)
        let database = try Database(path: path)
        try database.execute("""
            DELETE FROM run_metrics WHERE metric LIKE 'underline_verdict_%' OR metric = 'verdict_coverage';
            INSERT INTO run_metrics (run_id, metric, value) SELECT run_id, 'verdict_coverage', 0.5 + run_id / 100.0 FROM runs;
            """)
        let html = try page(path)
        XCTAssertFalse(html.contains("time to verdict (confirm or retract), mean (ms) — lower is better"))
        XCTAssertFalse(html.contains("Cost against delay"), "no delay, no trade-off")
        XCTAssertTrue(charts(html).contains { $0.contains("local underlines with a verdict in time (share) — higher is better") })
    }
}
