import XCTest
@testable import Sim

/// A memo's value is what computing it gives, whatever was asked before: the shortcuts the
/// caches give a keyboard's set-up never change a replication.
final class SimulationCachesTests: XCTestCase {
    /// Keyboards whose work tables differ: threads reordered, a kind moved or re-prioritised,
    /// a cost changed.
    private func keyboards() -> [KeyboardConfig] {
        let plain = KeyboardConfig()
        var reordered = plain
        reordered.threads.reverse()
        var moved = plain
        moved.work[.check]!.thread = "main"
        moved.work[.draw]!.priority = 1
        var costlier = plain
        costlier.work[.rerank]!.cost = .constant(40)
        return [plain, reordered, moved, costlier]
    }

    func testWorkTablesAreThoseOfTheConfigurationAskedAbout() {
        let keyboards = keyboards()
        var order = RandomStream(seed: 9, replication: 0, name: "test.order")
        let caches = SimulationCaches()
        for round in 0..<200 {
            let config = keyboards[round < keyboards.count * 2 ? round / 2 : order.nextInt(below: keyboards.count)]
            XCTAssertEqual(caches.workTables(for: config), KeyboardIO.WorkTables(config: config), "round \(round)")
        }
        XCTAssertNotEqual(KeyboardIO.WorkTables(config: keyboards[0]), KeyboardIO.WorkTables(config: keyboards[1]),
                          "the keyboards differ in their tables, so a stale entry would be seen")
    }

    func testSharedCachesChangeNoReplication() throws {
        let events = (0..<120).map { i in
            TraceEvent(time: SimTime(milliseconds: Double(i) * 90), kind: .key(text: i % 6 == 5 ? " " : "a", touchUp: nil, point: nil))
        }
        let caches = SimulationCaches()
        for (index, config) in keyboards().enumerated() {
            for seed: UInt64 in [1, 2] {
                var shared = ArrayTraceSource(events), alone = ArrayTraceSource(events)
                var sharedSink = ObservationBuffer(), aloneSink = ObservationBuffer()
                var withCaches = KeyboardSimulation(config: config, seed: seed, replication: 0, caches: caches)
                var without = KeyboardSimulation(config: config, seed: seed, replication: 0)
                XCTAssertEqual(try withCaches.run(&shared, into: &sharedSink), try without.run(&alone, into: &aloneSink),
                               "keyboard \(index) seed \(seed)")
                XCTAssertEqual(sharedSink.keys, aloneSink.keys, "keyboard \(index) seed \(seed)")
                XCTAssertEqual(sharedSink.requests, aloneSink.requests, "keyboard \(index) seed \(seed)")
                XCTAssertEqual(sharedSink.tasks.count, aloneSink.tasks.count, "keyboard \(index) seed \(seed)")
            }
        }
    }
}
