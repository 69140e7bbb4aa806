import Foundation
import XCTest
@testable import Report
import Scenarios
import Sim

/// The fleet metrics on a day made by hand (`FleetDayPageTests.day`, with a cost per
/// arrival): each value is what its definition says, read from the day's minutes; the day
/// page of a result leads with the busiest hour and every metric; a day that starts at 6:00
/// ticks and shades its clock hours.
final class FleetDayMetricsTests: XCTestCase {
    /// Ten users standing for 1,000, a day of `FleetDayPageTests.day()` with 3 µUSD an
    /// arrival billed.
    static func result(startHour: Int = 0, minutes: [FleetMinute] = FleetDayPageTests.day()) -> FleetResult {
        let billed = minutes.map { minute -> FleetMinute in
            var minute = minute
            minute.backend.costPicoUSD = Int64(minute.backend.arrivals) * 3_000_000
            return minute
        }
        return FleetResult(scenarioName: "by hand", fingerprint: "f", seed: 1, users: 10, represents: 1_000, partitionCount: 1,
                           partitions: [0], spanMinutes: billed.count, startHour: startHour, dayShare: 1, minutes: billed,
                           sessions: 50, sessionsOpenMax: [5])
    }

    func testEachMetricIsWhatItsDefinitionSays() throws {
        let result = Self.result()
        let day = FleetMetric.Day(result)
        let arrivals = result.minutes.reduce(0) { $0 + $1.backend.arrivals }
        let rejected = result.minutes.reduce(0) { $0 + $1.backend.rejected.reduce(0, +) }
        XCTAssertGreaterThan(arrivals, 10_000)
        // 3 µUSD an arrival, scaled from 10 users to 1,000.
        XCTAssertEqual(try XCTUnwrap(FleetMetric.costPerDay.value(for: day)), Double(arrivals) * 3e-6 * 100, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(FleetMetric.costPerDailyUser.value(for: day)), Double(arrivals) * 3e-6 * 100 / 1_000, accuracy: 1e-12)
        XCTAssertEqual(FleetMetric.rejectedShare.value(for: day), Double(rejected) / Double(arrivals))
        XCTAssertEqual(FleetMetric.replicas.value(for: day), 2)
        // The peak minute is 18:30's 240 arrivals: 4 a second.
        XCTAssertEqual(FleetMetric.peakArrivalsPerSecond.value(for: day), 4)
        XCTAssertEqual(FleetMetric.peakToMean.value(for: day), 240 / (Double(arrivals) / 1_440))
        XCTAssertEqual(day.summary.busiestHour, 18)
        // The busiest hour's figures come from its 60 minutes alone.
        let hour = Array(result.minutes[1_080..<1_140])
        XCTAssertEqual(result.minutes(inHourOfDay: 18).map(\.minute), Array(1_080..<1_140))
        XCTAssertEqual(FleetMetric.busiestHourVerdictCoverage.value(for: day),
                       Double(hour.reduce(0) { $0 + $1.underlinesWithVerdict }) / Double(hour.reduce(0) { $0 + $1.underlinesEnded }))
        var verdicts = LatencyHistogram()
        for minute in hour { verdicts.merge(minute.verdict) }
        XCTAssertEqual(FleetMetric.busiestHourVerdictP95Ms.value(for: day), verdicts.percentile(95) / 1e6)
        XCTAssertGreaterThan(try XCTUnwrap(FleetMetric.busiestHourVerdictP95Ms.value(for: day)),
                             try XCTUnwrap(FleetMetric.verdictP95Ms.value(for: day)), "the busiest hour is the slowest")
        // One `Day` computes the summary once; the result's own call agrees.
        for metric in FleetMetric.all { XCTAssertEqual(metric.value(for: result), metric.value(for: day), metric.name) }
    }

    func testNamesAreUniqueSnakeCaseWithTheUnitLast() {
        let names = FleetMetric.all.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        for metric in FleetMetric.all {
            XCTAssertTrue(metric.name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, metric.name)
            if metric.unit == "ms" { XCTAssertTrue(metric.name.hasSuffix("_ms"), metric.name) }
            if metric.unit.hasPrefix("USD") { XCTAssertTrue(metric.name.hasPrefix("cost_usd_"), metric.name) }
            XCTAssertFalse(metric.description.isEmpty)
        }
        // The busiest hour's p95 verdict is what the fleet sweep holds to a target.
        XCTAssertEqual(FleetSweep.defaultAxes.y, .busiestHourVerdictP95Ms)
    }

    func testADayWithNoArrivalHasNoValueNotZero() {
        let empty = Self.result(minutes: (0..<120).map { FleetMinute(minute: $0, replicas: 1) })
        for metric in [FleetMetric.rejectedShare, .peakToMean, .busiestHourVerdictP95Ms, .busiestHourVerdictCoverage, .verdictCoverage] {
            XCTAssertNil(metric.value(for: empty), metric.name)
        }
        XCTAssertEqual(FleetMetric.costPerDay.value(for: empty), 0)
        XCTAssertEqual(FleetMetric.utilisation.value(for: empty), 0)
    }

    func testThePageOfAResultLeadsWithTheBusiestHourAndEveryMetric() throws {
        let html = FleetDayPage(Self.result()).render()
        XCTAssertTrue(html.contains("<td>busiest hour (most arrivals)</td><td class=\"num\">18:00–19:00</td><td>busiest_hour</td>"), html)
        let day = FleetMetric.Day(Self.result())
        for metric in FleetMetric.all {
            XCTAssertTrue(html.contains("<td>\(HTMLEscaper.escape(metric.label))</td><td class=\"num\">\(metric.text(metric.value(for: day)))</td>"),
                          metric.name)
        }
        XCTAssertTrue(html.contains("10 simulated users standing for 1000 daily users; 50 sessions; 24 hours from 0:00"), html)
    }

    func testADayFromSixTicksAndShadesItsClockHours() throws {
        // Two hours from 6:00, the second busier: its minutes 60…119 are 7:00 to 8:00.
        let minutes = (0..<120).map { index -> FleetMinute in
            var minute = FleetMinute(minute: index, replicas: 1)
            minute.backend.arrivals = index < 60 ? 10 : 50
            return minute
        }
        let result = Self.result(startHour: 6, minutes: minutes)
        XCTAssertEqual(result.summary.busiestHour, 7)
        let html = FleetDayPage(result).render()
        XCTAssertTrue(html.contains("<title>busiest hour (7:00–8:00)</title>"), html)
        XCTAssertTrue(html.contains(">6:00</text>") && html.contains(">7:30</text>") && html.contains(">8:00</text>"))
        // 7:00 is minute 60 of 120: the plot's middle, 64 + 1200 / 2.
        XCTAssertTrue(html.contains("<rect x=\"664\" y=\"28\" width=\"600\""), html)
    }

    /// A busy hour and its drain is all busiest hour: nothing is shaded, the table still names it.
    func testAPageOfOneHourShadesNothing() {
        let minutes = (0..<62).map { index -> FleetMinute in
            var minute = FleetMinute(minute: index, replicas: 1)
            minute.backend.arrivals = 20 + index % 7
            return minute
        }
        let html = FleetDayPage(Self.result(startHour: 21, minutes: minutes)).render()
        XCTAssertFalse(html.contains("<title>busiest hour"), "no shade")
        XCTAssertTrue(html.contains("<td class=\"num\">21:00–22:00</td>"))
        XCTAssertTrue(html.contains(">21:00</text>") && html.contains(">21:05</text>") && html.contains(">22:00</text>"))
    }
}
