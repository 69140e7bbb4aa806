import Foundation
import XCTest
@testable import Report
import Scenarios
import Sim

/// The fleet's day page on a day of minutes made by hand: a load that peaks in the evening,
/// minutes with no first token and no verdict at night. The page is self-contained, leads
/// with the summary, shades the busiest hour on every chart, ticks the hours, and leaves a
/// gap (not a zero) where a minute has no value. Set `KEYSIM_FLEET_DAY_PAGE=/path.html` to
/// keep the page and look at it.
final class FleetDayPageTests: XCTestCase {
    /// A day: arrivals per minute follow a curve up to 240 at 18:30, none from 3:00 to 6:00; the
    /// latencies grow with the load; minutes with no arrival have no first token or verdict.
    static func day(replicas: Int = 2) -> [FleetMinute] {
        (0..<1_440).map { minute in
            var m = FleetMinute(minute: minute, replicas: replicas)
            let hour = Double(minute) / 60
            let load = (3..<6).contains(hour) ? 0 : max(0.05, 1 - abs(hour - 18.5) / 18)  // none from 3:00 to 6:00, 1 at 18:30
            let arrivals = Int((240 * load * load).rounded())
            let rejected = arrivals / 12
            m.backend.arrivals = arrivals
            m.backend.admitted = arrivals - rejected
            m.backend.rejected[0] = rejected
            m.backend.started = arrivals - rejected
            m.backend.queueLengthNanos = Int64(Double(arrivals) * 0.02 * Double(FleetMinute.lengthNanos))
            m.backend.busyReplicaNanos = Int64(Double(replicas) * load * 0.9 * Double(FleetMinute.lengthNanos))
            m.backend.batchedRequestNanos = m.backend.busyReplicaNanos * Int64(1 + arrivals / 60)
            for k in 0..<(arrivals - rejected) {
                m.firstToken.add(Int64(120_000_000 + 1_000_000 * arrivals + 10_000 * k))
                if k % 3 == 0 { m.verdict.add(Int64(600_000_000 + 2_000_000 * arrivals + 50_000 * k)) }
            }
            m.underlinesEnded = arrivals / 4
            m.underlinesWithVerdict = arrivals / 5
            return m
        }
    }

    static func page(_ minutes: [FleetMinute] = day(), name: String = "evening <peak> & co") -> FleetDayPage {
        FleetDayPage(scenarioName: name, meta: "2 replicas, by hand", summary: [
            .init(label: "cost per day (USD)", value: "12.34", name: "cost_usd_per_day"),
            .init(label: "peak-to-mean", value: "2.5", name: "peak_to_mean"),
        ], minutes: minutes, busiestHour: 18)
    }

    private func charts(_ html: String) -> [String] {
        html.components(separatedBy: "<svg").dropFirst().map { "<svg" + $0.components(separatedBy: "</svg>")[0] + "</svg>" }
    }

    func testThePageIsSelfContainedAndLeadsWithTheSummary() throws {
        let html = Self.page().render()
        if let keep = ProcessInfo.processInfo.environment["KEYSIM_FLEET_DAY_PAGE"] {
            try html.write(toFile: keep, atomically: true, encoding: .utf8)
        }
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(html.contains("Content-Security-Policy\" content=\"default-src 'none'"))
        XCTAssertFalse(html.contains("<script"))
        XCTAssertFalse(html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("://"), "nothing fetched")
        XCTAssertTrue(html.contains("<h1>keysim fleet day: evening &lt;peak&gt; &amp; co</h1>"), "names are escaped")
        let summary = try XCTUnwrap(html.range(of: "<td class=\"num\">12.34</td>"))
        let firstChart = try XCTUnwrap(html.range(of: "<svg"))
        XCTAssertLessThan(summary.lowerBound, firstChart.lowerBound, "the summary is on top")
        XCTAssertEqual(charts(html).count, FleetDayPage.charts.count)
        for name in ["arrivals_per_s", "admitted_per_s", "rejected_per_s", "queue_length_mean", "batch_mean", "utilisation",
                     "first_token_p50_ms", "first_token_p95_ms", "verdict_p95_ms", "verdict_coverage"] {
            XCTAssertTrue(html.contains(">\(name)</text>"), "\(name) has its legend entry")
        }
    }

    func testEveryChartShadesTheBusiestHourAndTicksTheHours() throws {
        let html = Self.page().render()
        for chart in charts(html) {
            XCTAssertTrue(chart.contains("<title>busiest hour (18:00–19:00)</title>"), chart)
            // The x axis runs over the 1,440 minutes of the plot's 1,200 px from x = 64:
            // 18:00 is at 64 + 1200 × 1080/1440 = 964, the hour 50 px wide.
            XCTAssertTrue(chart.contains("<rect x=\"964\" y=\"28\" width=\"50\""), chart)
            for hour in [0, 6, 12, 18, 24] { XCTAssertTrue(chart.contains(">\(hour):00</text>"), "tick \(hour):00") }
        }
    }

    func testAMinuteWithNoValueIsAGapNotAZero() throws {
        let minutes = Self.day()
        // The night has no arrival, so no first token: the p95 line stops and starts again.
        XCTAssertNil(FleetMinute.percentileMs(minutes[240].firstToken, 95))
        let series = SVGTimeSeriesChart.Series(label: "first_token_p95_ms",
                                               values: minutes.map { FleetMinute.percentileMs($0.firstToken, 95) })
        let marks = SVGTimeSeriesChart.marks(series, color: "#000", dash: nil)
        let lines = marks.compactMap { mark -> [(x: Double, y: Double)]? in
            if case .line(let points, _, _, _) = mark { points } else { nil }
        }
        XCTAssertEqual(lines.count, 2, "one run before the night's gap, one after")
        XCTAssertFalse(lines.joined().contains { $0.y == 0 }, "no minute is drawn as zero")
        XCTAssertEqual(lines.joined().count, series.values.compactMap { $0 }.count, "every minute with a value is drawn")

        // A lone value between gaps is a dot; only the first mark names the series.
        let lone = SVGTimeSeriesChart.marks(.init(label: "s", values: [1, 2, nil, 4, nil, nil, 5, 6]), color: "#000", dash: nil)
        XCTAssertEqual(lone.count, 3)
        if case .points(let points, _, let label) = lone[2] {
            XCTAssertEqual(points.map(\.x), [3.5])
            XCTAssertEqual(label, "")
        } else {
            XCTFail("the lone value is a dot")
        }
        if case .line(_, _, let label, _) = lone[0] { XCTAssertEqual(label, "s") } else { XCTFail("a line first") }
    }

    func testClockTicksSuitTheLengthOfTheDay() {
        XCTAssertEqual(SVGTimeSeriesChart.clockTicks(minutes: 1_440).map(\.text).prefix(3), ["0:00", "1:00", "2:00"])
        XCTAssertEqual(SVGTimeSeriesChart.clockTicks(minutes: 1_440).count, 25)
        XCTAssertEqual(SVGTimeSeriesChart.clockTicks(minutes: 60).map(\.text), ["0:00", "0:05", "0:10", "0:15", "0:20", "0:25",
                                                                              "0:30", "0:35", "0:40", "0:45", "0:50", "0:55", "1:00"])
        XCTAssertEqual(SVGTimeSeriesChart.clockTicks(minutes: 180).map(\.text).last, "3:00")
        XCTAssertLessThanOrEqual(SVGTimeSeriesChart.clockTicks(minutes: 2_880).count, 25)
    }

    /// A fleet report (`FleetReportStore`, what `keysim fleet --db` writes) exports to its day
    /// page through the registry: `fleet-html`, and `html` for a report with no keyboard run;
    /// a report with no fleet is refused by `fleet-html` with nothing written.
    func testAFleetReportExportsToItsDayPage() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("fleet.sqlite")
        let report = FleetReport(FleetDayMetricsTests.result(), scenarioPath: "x.json5")
        try FleetReportStore.write(report, toFile: path, busyTimeoutMs: 1_000)
        let store = try ReportStore(path: path, readOnly: true)
        let exporter = try XCTUnwrap(ExporterRegistry.standard.exporter(named: "fleet-html"))
        XCTAssertEqual(try exporter.export(ExportSource(store), to: .file(folder.path("day.html"))), [folder.path("day.html")])
        let page = try String(contentsOfFile: folder.path("day.html"), encoding: .utf8)
        XCTAssertEqual(page, FleetDayPage(report.result).render())
        XCTAssertTrue(page.contains("<title>busiest hour (18:00–19:00)</title>"))
        XCTAssertTrue(page.contains("10 simulated users standing for 1000 daily users; 50 sessions; 24 hours from 0:00"))
        _ = try XCTUnwrap(ExporterRegistry.standard.exporter(named: "html")).export(ExportSource(store), to: .file(folder.path("html.html")))
        XCTAssertEqual(try String(contentsOfFile: folder.path("html.html"), encoding: .utf8), page, "html writes a fleet's page")

        let empty = try ReportStore(path: folder.path("empty.sqlite"))
        XCTAssertThrowsError(try exporter.export(ExportSource(empty), to: .file(folder.path("none.html")))) {
            XCTAssertTrue("\($0)".contains("holds no fleet run: keysim fleet SCENARIO --db FILE writes one"), "\($0)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("none.html")))
    }
}
