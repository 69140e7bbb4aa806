import Foundation
import Sim

/// One self-contained HTML page of a fleet's day (the HTML report's style: inline SVG and
/// CSS, no scripts, a Content-Security-Policy that forbids any network access): the day's
/// summary table on top, then its time series a minute at a time — arrivals, admitted and
/// rejected per second; mean queue length and batch; replica utilisation; first token p50
/// and p95; verdict p95; verdict coverage — each with the busiest hour shaded (on a page of
/// more than an hour) and the hours of the day on the x axis. A minute with no value (no first token, no verdict) is a
/// gap in its line, never a zero.
public struct FleetDayPage: Sendable {
    /// The page's heading: the scenario's name.
    public var scenarioName: String
    /// One line under the heading (users, the daily users they stand for, the seed…).
    public var meta: String
    /// The summary table's rows: a figure's label, its value as shown, and its name in output.
    public var summary: [SummaryRow]
    /// The day's minutes, minute 0 first.
    public var minutes: [FleetMinute]
    /// The hour of the day (0…23) minute 0 begins.
    public var startHour: Int
    /// The busiest hour of the day (0…23), shaded on every chart; nil for none.
    public var busiestHour: Int?

    /// One figure of the summary table.
    public struct SummaryRow: Sendable, Equatable {
        /// What it is, with its unit ("cost per day (USD)").
        public var label: String
        /// The value as shown ("–" for none).
        public var value: String
        /// Its name in tables and JSON (`cost_usd_per_day`).
        public var name: String

        /// Creates a row.
        public init(label: String, value: String, name: String) {
            self.label = label
            self.value = value
            self.name = name
        }
    }

    /// Creates a page.
    public init(scenarioName: String, meta: String, summary: [SummaryRow], minutes: [FleetMinute], startHour: Int = 0,
                busiestHour: Int?) {
        self.scenarioName = scenarioName
        self.meta = meta
        self.summary = summary
        self.minutes = minutes
        self.startHour = startHour
        self.busiestHour = busiestHour
    }

    /// One chart of the page: its title, y axis and lines, each read from a minute.
    struct Chart {
        var title: String
        var yLabel: String
        var lines: [(label: String, value: @Sendable (FleetMinute) -> Double?, dash: String?)]
        var isShare = false
    }

    /// The longest page whose busiest hour is not shaded: an hour and the minutes its last
    /// sessions drain in.
    static let shadedSpanMinutes = 90

    /// The page's charts, in page order.
    static let charts: [Chart] = [
        Chart(title: "Arrivals, admitted and rejected per second", yLabel: "attempts per second", lines: [
            // Admitted dashed: with nothing refused it lies on the arrivals.
            ("arrivals_per_s", { $0.arrivalsPerSecond }, nil),
            ("admitted_per_s", { Double($0.backend.admitted) / 60 }, "5 3"),
            ("rejected_per_s", { Double($0.backend.rejected.reduce(0, +)) / 60 }, nil),
        ]),
        Chart(title: "Queue length and batch, means over the minute", yLabel: "requests", lines: [
            ("queue_length_mean", { $0.meanQueueLength }, nil),
            ("batch_mean", { $0.meanBatch }, nil),
        ]),
        Chart(title: "Replica utilisation: share of replica time serving a batch", yLabel: "utilisation", lines: [
            ("utilisation", { $0.utilisation }, nil),
        ], isShare: true),
        // First token (the backend's tens of milliseconds) and verdict (the debounce's and the
        // typist's seconds) apart, so that neither flattens the other.
        Chart(title: "First token: arrival to first token, percentiles per minute (gaps: no first token that minute)", yLabel: "ms", lines: [
            ("first_token_p50_ms", { FleetMinute.percentileMs($0.firstToken, 50) }, nil),
            ("first_token_p95_ms", { FleetMinute.percentileMs($0.firstToken, 95) }, nil),
        ]),
        Chart(title: "Verdict: word finished to the cloud's verdict, p95 per minute (gaps: no verdict that minute)", yLabel: "ms", lines: [
            ("verdict_p95_ms", { FleetMinute.percentileMs($0.verdict, 95) }, nil),
        ]),
        Chart(title: "Verdict coverage: local underlines ending with the cloud's verdict", yLabel: "verdict coverage", lines: [
            ("verdict_coverage", { $0.verdictCoverage }, nil),
        ], isShare: true),
    ]

    /// The page as HTML.
    public func render() -> String {
        let esc = HTMLExporter.esc
        var html = HTMLExporter.head(title: "keysim fleet day: \(scenarioName)")
        html += "<h1>keysim fleet day: \(esc(scenarioName))</h1>\n"
        html += "<p class=\"meta\">\(esc(meta))</p>\n"
        html += "<h2>The day</h2>\n"
        html += HTMLExporter.htmlTable(ReportDigest.Table(headers: ["figure", "value", "name"], numeric: [false, true, false],
                                                          rows: summary.map { [$0.label, $0.value, $0.name] }))
        html += "<h2>Minute by minute</h2>\n"
        // A span of one hour (and its drain) is all busiest hour: nothing to set apart.
        let shaded = busiestHour.flatMap { hour -> (minutes: Range<Int>, label: String)? in
            let first = ((hour - startHour) % 24 + 24) % 24 * 60
            guard minutes.count > Self.shadedSpanMinutes else { return nil }
            return (minutes: first..<max(first, min(first + 60, minutes.count)),
                    label: "busiest hour (\(SVGTimeSeriesChart.clockText(hour * 60))–\(SVGTimeSeriesChart.clockText((hour + 1) * 60)))")
        }
        if let shaded { html += "<p class=\"note\">The shaded band on every chart is the \(esc(shaded.label)).</p>\n" }
        html += "<div class=\"charts\">\n"
        for chart in Self.charts {
            let series = chart.lines.map { line in SVGTimeSeriesChart.Series(label: line.label, values: minutes.map(line.value), dash: line.dash) }
            let svg = SVGTimeSeriesChart(title: chart.title, yLabel: chart.yLabel, series: series, minutes: minutes.count,
                                         startMinute: startHour * 60, shaded: shaded, yAsPercent: chart.isShare, yMaximum: chart.isShare ? 1 : nil)
            html += svg.render() + "\n"
        }
        html += "</div>\n</body>\n</html>\n"
        return html
    }
}
