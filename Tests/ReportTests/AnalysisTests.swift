import Foundation
import XCTest

@testable import Report
import Scenarios

final class AnalysisTests: XCTestCase {
    // MARK: - Shards

    func testSmallDifferencesKeepTwoSignificantDigits() {
        XCTAssertEqual(Comparison.decimals(showing: [0.0004, 0.0001, 0.0007], atLeast: 2), 5)
        XCTAssertEqual(Comparison.decimals(showing: [12.5, -3.2, nil], atLeast: 2), 2)
        XCTAssertEqual(Comparison.decimals(showing: [0.05, 0, .nan], atLeast: 1), 3)
        XCTAssertEqual(Comparison.decimals(showing: [1e-12], atLeast: 2), 6, "at most six places")
        let row = Comparison.Row(metric: "m", label: "metric", pairs: 5, meanA: 0.2391, meanB: 0.2395, difference: 0.0004,
                                 ciLow: 0.0001, ciHigh: 0.0007, significant: true, decimals: 2)
        let comparison = Comparison(id: 1, scenarioName: "s", labelA: "a", labelB: "b", pairs: 5, rows: [row])
        let line = comparison.table().split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(line.contains("+0.00040") && line.contains("[0.00010, 0.00070]") && line.contains("0.23910"), line)
    }

    func testShardSlicesAreRoundRobinAndCoverTheListOnce() {
        for total in [0, 1, 7, 20, 101] {
            for count in [1, 2, 3, 8] {
                var seen: [Int] = []
                for index in 0..<count {
                    let shard = Shard(index: index, count: count)
                    let positions = Array(shard.positions(of: total))
                    XCTAssertEqual(positions.count, shard.itemCount(of: total))
                    XCTAssertTrue(positions.allSatisfy(shard.contains))
                    seen += positions
                }
                XCTAssertEqual(seen.sorted(), Array(0..<total), "\(total) items over \(count) shards")
            }
        }
    }

    func testShardParsingAndEnvironment() throws {
        XCTAssertEqual(try Shard.parse("2/8"), Shard(index: 1, count: 8))
        XCTAssertEqual(try Shard.parse("1/1"), .whole)
        for (text, message) in [("0/4", "shard 0 is out of range 1...4"), ("5/4", "shard 5 is out of range 1...4"),
                                ("2", "needs K/N"), ("a/b", "needs K/N"), ("1/0", "the shard count must be from 1")] {
            XCTAssertThrowsError(try Shard.parse(text)) { XCTAssertTrue("\($0)".contains(message), "\(text): \($0)") }
        }
        XCTAssertNil(try Shard.fromEnvironment([:]))
        XCTAssertEqual(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"]), Shard(index: 3, count: 4))
        XCTAssertEqual(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"]),
                       Shard(index: 3, count: 4))
        XCTAssertEqual(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "10", "SLURM_ARRAY_TASK_COUNT": "3",
                                                  "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "5"]), Shard(index: 2, count: 3))
        XCTAssertEqual(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "0", "KEYSIM_SHARD_COUNT": "5"]), Shard(index: 0, count: 5))
        let bad: [([String: String], String)] = [
            (["JOB_COMPLETION_INDEX": "2"], "KEYSIM_SHARD_COUNT is not"),
            (["JOB_COMPLETION_INDEX": "5", "KEYSIM_SHARD_COUNT": "5"], "shard 6 is out of range 1...5"),
            (["SLURM_ARRAY_TASK_ID": "1"], "SLURM_ARRAY_TASK_COUNT"),
            (["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "2"], "not a whole number"),
        ]
        for (environment, message) in bad {
            XCTAssertThrowsError(try Shard.fromEnvironment(environment)) { XCTAssertTrue("\($0)".contains(message), "\(environment): \($0)") }
        }
    }

    func testShardReportPaths() {
        let shard = Shard(index: 1, count: 4)
        XCTAssertEqual(shard.reportPath(for: "out/report.sqlite"), "out/report.shard-2-of-4.sqlite")
        XCTAssertEqual(shard.reportPath(for: "report"), "report.shard-2-of-4")
        XCTAssertEqual(shard.reportPath(for: "a.b/report"), "a.b/report.shard-2-of-4")
        XCTAssertEqual(Shard.whole.reportPath(for: "r.sqlite"), "r.sqlite")
    }

    // MARK: - Sweep grids

    func testSweepParameterSpecs() throws {
        let range = try SweepParameter.parse("debounce.otherwiseMs=250..5000/250")
        XCTAssertEqual(range.path, "debounce.otherwiseMs")
        XCTAssertEqual(range.values.count, 20)
        XCTAssertEqual(range.values.first?.kind, .number(250))
        XCTAssertEqual(range.values.last?.kind, .number(5000))
        XCTAssertEqual(try SweepParameter.parse("x=0.1..0.3/0.1").values.map(\.kind), [.number(0.1), .number(0.2), .number(0.3)])
        XCTAssertEqual(try SweepParameter.parse("d=fifo, edf").values.map(\.kind), [.string("fifo"), .string("edf")])
        XCTAssertEqual(try SweepParameter.parse("n={type: 'constant', valueMs: 80}").values.count, 1)
        XCTAssertEqual(try SweepParameter.parse("k=5").values.map(\.kind), [.number(5)])
        let bad: [(String, String)] = [
            ("debounce.otherwiseMs=5000..250/250", "empty range"),
            ("x=1..5/0", "the step must be greater than zero"),
            ("x=1..5", "needs a step"),
            ("x=a..b/1", "must be numbers"),
            ("x=", "needs a value"),
            ("=5", "needs PATH=VALUES"),
            ("a..b=5", "not a field path"),
            ("x=1,,2", "empty item"),
            ("x=0..1000000/1", "at most 10000"),
        ]
        for (text, message) in bad {
            XCTAssertThrowsError(try SweepParameter.parse(text)) { XCTAssertTrue("\($0)".contains(message), "\(text): \($0)") }
        }
    }

    func testGridPointsVaryTheLastParameterFastest() throws {
        let grid = try SweepGrid([try SweepParameter.parse("a=1,2"), try SweepParameter.parse("b=10..30/10")])
        XCTAssertEqual(grid.count, 6)
        XCTAssertEqual((0..<6).map { SweepGrid.label(grid.point($0)) },
                       ["a=1, b=10", "a=1, b=20", "a=1, b=30", "a=2, b=10", "a=2, b=20", "a=2, b=30"])
        XCTAssertEqual(SweepGrid.json(grid.point(4)), "{\"a\":2,\"b\":20}")
        XCTAssertThrowsError(try SweepGrid([try SweepParameter.parse("a=1,2"), try SweepParameter.parse("a=3")]))
    }

    // MARK: - Pareto, intervals

    func testParetoFrontAgainstBruteForce() {
        for seed in 0..<50 {
            var generator = SplitMix(seed: UInt64(seed))
            let points = (0..<30).map { _ in (x: Double(generator.next() % 10), y: Double(generator.next() % 10)) }
            let front = Pareto.front(points)
            for (i, p) in points.enumerated() {
                let dominated = points.contains { q in q.x <= p.x && q.y <= p.y && (q.x < p.x || q.y < p.y) }
                XCTAssertEqual(front[i], !dominated, "seed \(seed), point \(i) \(p)")
            }
        }
        XCTAssertEqual(Pareto.front([(1, 5), (2, 3), (3, 4), (2, 3)]), [true, true, false, true])
    }

    func testPairedIntervalMatchesAHandComputedExample() {
        // Differences 1, 2, 3, 4: mean 2.5, s = 1.291, t(3) = 3.182446, half-width 2.054.
        let interval = MeanInterval([1, 2, 3, 4])
        XCTAssertEqual(interval.mean, 2.5)
        XCTAssertEqual(interval.halfWidth, 3.182446 * (1.6666666666666667 / 4).squareRoot(), accuracy: 1e-9)
        XCTAssertTrue(interval.excludesZero)
        XCTAssertFalse(MeanInterval([-1, 1, -2, 2]).excludesZero)
    }

    // MARK: - Ordered parallel work

    func testResultsArriveInOrderAndTheFirstFailureWins() throws {
        for seed in 0..<20 {
            for threads in [1, 2, 5] {
                var seen: [Int] = []
                try OrderedParallel.run(count: 40, threads: threads, window: 3, work: { position in
                    // Uneven work, so that positions finish out of order.
                    var x = UInt64(position &* 7919 &+ seed)
                    for _ in 0..<((position * 37 + seed) % 5) * 2000 { x = x &* 6364136223846793005 &+ 1 }
                    return position + Int(x % 1)
                }, consume: { position, value in
                    XCTAssertEqual(position, value)
                    seen.append(value)
                })
                XCTAssertEqual(seen, Array(0..<40), "seed \(seed), \(threads) threads")

                var consumed: [Int] = []
                XCTAssertThrowsError(try OrderedParallel.run(count: 40, threads: threads, window: 4, work: { position in
                    if position == 13 || position == 29 { throw TestFailure(position: position) }
                    return position
                }, consume: { position, _ in consumed.append(position) })) { error in
                    XCTAssertEqual((error as? TestFailure)?.position, 13, "seed \(seed), \(threads) threads")
                }
                XCTAssertEqual(consumed, Array(0..<13))
            }
        }
    }

    // MARK: - JSON and traces

    func testJSONWriterEscapesAndNumbers() {
        XCTAssertEqual(JSONWriter.quoted("a\"b\\c\n\u{1}é👍"), "\"a\\\"b\\\\c\\n\\u0001é👍\"")
        XCTAssertEqual(JSONWriter.number(3), "3")
        XCTAssertEqual(JSONWriter.number(0.25), "0.25")
        XCTAssertEqual(JSONWriter.number(.nan), "null")
        XCTAssertEqual(ChromeTraceExporter.micros(1_234_567), "1234.567")
        XCTAssertEqual(ChromeTraceExporter.micros(5), "0.005")
        XCTAssertEqual(ChromeTraceExporter.micros(-1500), "-1.500")
    }

    func testLanesNeverOverlap() {
        for seed in 0..<30 {
            var generator = SplitMix(seed: UInt64(seed))
            let slices = (0..<60).map { _ -> Timeline.Slice in
                let start = Int64(generator.next() % 1000)
                return Timeline.Slice(startNs: start, endNs: start + Int64(generator.next() % 100), name: "s", category: "c")
            }
            let lanes = Timeline.lanes(slices)
            XCTAssertEqual(lanes.reduce(0) { $0 + $1.count }, slices.count)
            for lane in lanes {
                for (a, b) in zip(lane, lane.dropFirst()) {
                    XCTAssertLessThanOrEqual(a.endNs, b.startNs, "seed \(seed)")
                    // Items of no duration take a nanosecond: no two items of a lane start together.
                    XCTAssertLessThan(a.startNs, b.startNs, "seed \(seed)")
                }
            }
        }
    }
}

struct TestFailure: Error { var position: Int }
