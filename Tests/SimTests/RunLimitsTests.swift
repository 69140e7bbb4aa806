import XCTest
@testable import Sim

/// The limits that stop a runaway replication: simulated time, events, queued tasks.
final class RunLimitsTests: XCTestCase {
    func testTheEngineStopsBeforeAnEventPastTheTimeLimit() {
        var engine = Engine<Int>()
        engine.limits = RunLimits(simulatedTimeMax: SimTime(milliseconds: 10), eventsMax: 100)
        engine.schedule(1, at: SimTime(milliseconds: 5))
        engine.schedule(2, at: SimTime(milliseconds: 11))
        XCTAssertEqual(engine.next(), 1)
        XCTAssertNil(engine.next())
        XCTAssertNil(engine.next())
        XCTAssertEqual(engine.now, SimTime(milliseconds: 5), "the event past the limit is not handled")
        XCTAssertEqual(engine.limitReached?.limit, .simulatedTime(SimTime(milliseconds: 10)))
        XCTAssertEqual(engine.limitReached?.time, SimTime(milliseconds: 11))
        XCTAssertTrue(engine.limitReached!.description.contains("limits.simulatedHoursMax"))
    }

    func testTheEngineStopsAfterTheEventLimitWhateverTheQueue() {
        var engine = Engine<Int>()
        engine.limits = RunLimits(eventsMax: 3)
        for k in 0..<5 { engine.post(k, at: SimTime(milliseconds: Double(k))) }
        let reserved = engine.reserve(at: SimTime(milliseconds: 0.5))
        var seen = 0
        while engine.next(or: seen == 0 ? reserved : nil) != nil { seen += 1 }
        XCTAssertEqual(seen, 3)
        XCTAssertEqual(engine.limitReached?.limit, .events(3))
        XCTAssertEqual(engine.limitReached?.eventsProcessed, 3)
    }

    func testNoLimitIsReachedWithinTheDefaults() {
        var engine = Engine<Int>()
        engine.schedule(1, at: SimTime(milliseconds: 3_600_000 * 700))
        XCTAssertEqual(engine.next(), 1)
        XCTAssertNil(engine.next())
        XCTAssertNil(engine.limitReached)
    }

    func testQueuedKindsMaskFollowsEveryChangeOfTheQueue() {
        var executor = Executor(ExecutorConfig(name: "main", discipline: .fixedPriority))
        func brute() -> UInt32 { executor.queuedTasks.reduce(0) { $0 | ($1.kind < 32 ? 1 << UInt32($1.kind) : 0) } }
        var rng = RandomStream(seed: 9, replication: 0, name: "mask")
        var wakes: [CoreWake] = []
        var now = SimTime.zero
        for id in 0..<400 {
            now = now + SimDuration(milliseconds: 0.1)
            let kind = UInt16(rng.nextDouble() * 40)
            if let wake = executor.submit(ExecutorTask(id: UInt64(id), kind: kind, priority: Int(kind % 5), cost: .milliseconds(1)), now: now) {
                wakes.append(wake)
            }
            if id % 7 == 0, let wake = wakes.first, wake.time <= now + .milliseconds(5) {
                wakes.removeFirst()
                if let (_, next) = executor.complete(wake, now: max(now, wake.time)) { now = max(now, wake.time); if let next { wakes.append(next) } }
            }
            if id % 50 == 49 { _ = executor.cancelQueued(now: now) { $0.kind == 3 } }
            XCTAssertEqual(executor.queuedKindsMask, brute(), "after task \(id)")
        }
        _ = executor.reset(now: now)
        XCTAssertEqual(executor.queuedKindsMask, 0)
    }

    func testAnExecutorOverItsLimitSaysSoInsteadOfTrapping() {
        var executor = Executor(ExecutorConfig(name: "main"), readyCountLimit: 4)
        for id in 0..<6 { _ = executor.submit(ExecutorTask(id: UInt64(id), kind: 0, cost: .milliseconds(1)), now: .zero) }
        XCTAssertTrue(executor.isOverLimit)
        XCTAssertEqual(executor.readyCount, 5)
    }
}
