import Foundation
import XCTest

@testable import Report
import Scenarios
import Sim

/// The fleet tables: a fleet written and read back is the same fleet, the reports of its
/// shards merge into exactly the report of the whole (row digests), and shards of different
/// fleets, overlapping or incomplete sets are refused with nothing written.
final class FleetReportTests: XCTestCase {
    /// One partition's day of random minutes: counts, integrals and histograms drawn from `rng`.
    static func partition(_ index: Int, of count: Int, minutes: Int, rng: inout SplitMix, seed: UInt64 = 42,
                          fingerprint: String = "f00d") -> FleetReport {
        let days = (0..<minutes).map { minute -> FleetMinute in
            var m = FleetMinute(minute: minute, replicas: 1 + rng.below(3))
            m.backend.arrivals = rng.below(200)
            m.backend.admitted = rng.below(m.backend.arrivals + 1)
            m.backend.rejected = m.backend.rejected.map { _ in rng.below(4) }
            m.backend.started = rng.below(m.backend.admitted + 1)
            m.backend.served = rng.below(m.backend.started + 1)
            m.backend.abandoned = rng.below(3)
            m.backend.queueWaitNanos = Int64(rng.below(1_000_000_000))
            m.backend.queueLengthNanos = Int64(rng.below(300_000_000_000))
            m.backend.busyReplicaNanos = Int64(rng.below(60_000_000_000)) * Int64(m.replicas)
            m.backend.batchedRequestNanos = m.backend.busyReplicaNanos * Int64(1 + rng.below(8))
            m.backend.inputTokens = Int64(rng.below(100_000))
            m.backend.cachedTokens = Int64(rng.below(Int(m.backend.inputTokens) + 1))
            m.backend.outputTokens = Int64(rng.below(5_000))
            m.backend.costPicoUSD = Int64(rng.below(1_000_000_000))
            m.sessionsStarted = rng.below(20)
            m.openSessionNanos = Int64(rng.below(1_000_000_000_000))
            m.keys = rng.below(5_000)
            for _ in 0..<rng.below(50) { m.firstToken.add(Int64(rng.below(2_000_000_000))) }
            for _ in 0..<rng.below(50) { m.service.add(Int64(rng.below(4_000_000_000))) }
            for _ in 0..<rng.below(50) { m.verdict.add(Int64(rng.below(3_000_000_000))) }
            m.underlinesEnded = rng.below(30)
            m.underlinesWithVerdict = rng.below(m.underlinesEnded + 1)
            return m
        }
        let result = FleetResult(scenarioName: "fleet-test", fingerprint: fingerprint, seed: seed, users: 40, represents: 1_000_000,
                                 partitionCount: count, partitions: [index], spanMinutes: minutes - minutes % 60, startHour: 7,
                                 dayShare: 0.5, minutes: days, sessions: rng.below(100), sessionsOpenMax: [rng.below(30)])
        return FleetReport(result, scenarioPath: "scenarios/fleet-test.json5", wallSeconds: Double(rng.below(100)))
    }

    /// The partitions of a fleet, and the whole merged from them.
    static func fleet(partitions count: Int, minutes: Int, seed: UInt64) throws -> (parts: [FleetReport], whole: FleetReport) {
        var rng = SplitMix(seed: seed)
        let parts = (0..<count).map { partition($0, of: count, minutes: minutes, rng: &rng) }
        var whole = parts[0]
        for part in parts.dropFirst() { try whole.merge(part) }
        return (parts, whole)
    }

    func testAFleetReadBackIsTheFleetWritten() throws {
        for seed in UInt64(1)...4 {
            let folder = try TemporaryFolder()
            let (_, whole) = try Self.fleet(partitions: 3, minutes: 130, seed: seed)
            let path = folder.path("fleet.sqlite")
            let id = try FleetReportStore.write(whole, toFile: path, busyTimeoutMs: 1000)
            let store = try ReportStore(path: path, readOnly: true)
            XCTAssertEqual(try FleetReportStore.fleetIDs(store.database), [id], "seed \(seed)")
            XCTAssertEqual(try FleetReportStore.read(store, fleetID: id), whole, "seed \(seed)")
            // The derived columns are the figures read from the additive ones.
            let row = try store.database.query("SELECT arrivals_per_s, utilisation, first_token_p95_ms FROM fleet_minutes WHERE minute = 7")[0]
            XCTAssertEqual(row[0], .real(whole.minutes[7].arrivalsPerSecond), "seed \(seed)")
            XCTAssertEqual(row[1], whole.minutes[7].utilisation.map(SQLValue.real) ?? .null, "seed \(seed)")
            XCTAssertEqual(row[2], FleetMinute.percentileMs(whole.minutes[7].firstToken, 95).map(SQLValue.real) ?? .null, "seed \(seed)")
        }
    }

    func testShardReportsMergeIntoTheWholeReport() throws {
        for seed in UInt64(10)...11 {
            let folder = try TemporaryFolder()
            let (parts, whole) = try Self.fleet(partitions: 5, minutes: 90, seed: seed)
            let wholePath = folder.path("whole.sqlite")
            try FleetReportStore.write(whole, toFile: wholePath, busyTimeoutMs: 1000)
            // Two shards, partitions round robin as FleetRunner splits them: 0, 2, 4 and 1, 3.
            var shardPaths: [String] = []
            for k in 0..<2 {
                var shard = parts[k]
                for part in parts where part.partitions[0] % 2 == k && part.partitions[0] != k { try shard.merge(part) }
                let path = folder.path("fleet.shard-\(k + 1)-of-2.sqlite")
                try FleetReportStore.write(shard, toFile: path, busyTimeoutMs: 1000)
                shardPaths.append(path)
            }
            let mergedPath = folder.path("merged.sqlite")
            XCTAssertTrue(FleetReportMerge.holdsFleets(shardPaths, busyTimeoutMs: 1000))
            let summary = try FleetReportMerge.merge(output: mergedPath, inputs: shardPaths.reversed(), busyTimeoutMs: 1000)
            XCTAssertEqual(summary.report.partitions, [0, 1, 2, 3, 4], "seed \(seed)")
            let wholeDigest = try ReportRowDigest(database: Database(path: wholePath, readOnly: true, create: false))
            let mergedDigest = try ReportRowDigest(database: Database(path: mergedPath, readOnly: true, create: false))
            XCTAssertEqual(mergedDigest, wholeDigest, "seed \(seed)")
            XCTAssertGreaterThan(wholeDigest.tables.first { $0.name == "fleet_histograms" }?.rows ?? 0, 0, "seed \(seed)")
        }
    }

    func testMismatchedOverlappingAndIncompleteShardsAreRefused() throws {
        let folder = try TemporaryFolder()
        var rng = SplitMix(seed: 7)
        let a = Self.partition(0, of: 2, minutes: 30, rng: &rng)
        let b = Self.partition(1, of: 2, minutes: 30, rng: &rng)
        let otherSeed = Self.partition(1, of: 2, minutes: 30, rng: &rng, seed: 43)
        let otherScenario = Self.partition(1, of: 2, minutes: 30, rng: &rng, fingerprint: "beef")
        func file(_ name: String, _ report: FleetReport) throws -> String {
            let path = folder.path(name)
            try FleetReportStore.write(report, toFile: path, busyTimeoutMs: 1000)
            return path
        }
        let pa = try file("a.sqlite", a), pb = try file("b.sqlite", b), pa2 = try file("a2.sqlite", a)
        let ps = try file("seed.sqlite", otherSeed), pf = try file("scenario.sqlite", otherScenario)
        let cases: [([String], String)] = [
            ([pa, ps], "seed.sqlite: error: is not a shard of the fleet in \(pa): cannot merge fleet results of different seeds: 42 and 43"),
            ([pa, pf], "scenario.sqlite: error: is not a shard of the fleet in \(pa): cannot merge fleet results of different scenario settings"),
            ([pa, pa2], "a2.sqlite: error: is not a shard of the fleet in \(pa): cannot merge fleet results that both hold partition"),
            ([pa], "a.sqlite: error: cannot merge the fleet of scenario 'fleet-test': partition(s) 1 of 0…1 missing"),
        ]
        for (inputs, expected) in cases {
            let out = folder.path("out-\(expected.count).sqlite")
            XCTAssertThrowsError(try FleetReportMerge.merge(output: out, inputs: inputs, busyTimeoutMs: 1000)) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), expected)
        }
        XCTAssertNoThrow(try FleetReportMerge.merge(output: folder.path("ok.sqlite"), inputs: [pb, pa], busyTimeoutMs: 1000))
    }

    func testTheHoursAreReadFromTheMinutes() throws {
        var minutes = (0..<185).map { FleetMinute(minute: $0, replicas: 2) }
        minutes[61].backend.arrivals = 120  // hour 1: 120 + 60 arrivals
        minutes[62].backend.arrivals = 60
        minutes[5].backend.arrivals = 30
        minutes[183].backend.arrivals = 6  // drained after the span: the last hour's
        minutes[61].backend.busyReplicaNanos = FleetMinute.lengthNanos  // one of two replicas busy all minute
        minutes[61].backend.batchedRequestNanos = 3 * FleetMinute.lengthNanos
        minutes[61].backend.costPicoUSD = 2_000_000_000_000  // 2 USD for 40 users standing for 1,000,000
        minutes[61].verdict.add(300_000_000)
        let result = FleetResult(scenarioName: "s", fingerprint: "f", seed: 1, users: 40, represents: 1_000_000, partitionCount: 1,
                                 partitions: [0], spanMinutes: 180, startHour: 22, dayShare: 1, minutes: minutes, sessions: 3,
                                 sessionsOpenMax: [2])
        let report = FleetReport(result, scenarioPath: "s.json5")
        XCTAssertEqual(report.hours.map(\.hourOfDay), [22, 23, 0])
        XCTAssertEqual(report.hours.map(\.span.minuteCount), [60, 60, 65])
        XCTAssertEqual(report.hours[1].span.arrivalsPerSecond, 180.0 / 3600, accuracy: 1e-12)
        XCTAssertEqual(report.hours[2].span.arrivalsPerSecond, 6.0 / 3900, accuracy: 1e-12)
        XCTAssertEqual(report.hours[1].span.utilisation!, 1.0 / 120, accuracy: 1e-12)
        XCTAssertEqual(report.hours[1].span.meanBatch!, 3, accuracy: 1e-12)
        XCTAssertEqual(report.hours[1].span.verdictMs(95)!, 300, accuracy: 300 * 0.01)
        XCTAssertNil(report.hours[0].span.verdictMs(95))
        let lines = (report.summaryTable() + report.hourTable()).split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.hasPrefix("cost per day (USD) ") && $0.hasSuffix(" 50000.00") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("busiest hour ") && $0.hasSuffix(" 23:00") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("23:00 ") && $0.contains(" 0.05 ") && $0.contains(" 3.00 ") && $0.contains(" 0.8%") }, "\(lines)")
        let json = report.jsonDocument(report: "r.sqlite", shard: nil).rendered()
        XCTAssertTrue(json.contains("\"schema\": \"keysim.fleet\""), json)
        XCTAssertTrue(json.contains("\"busiest_hour\": 23"), json)
    }
}
