import XCTest
@testable import Sim

final class ExecutorResetTests: XCTestCase {
    func testResetDropsRunningAndQueuedTasksAndMakesTheirWakesStale() {
        var executor = Executor(ExecutorConfig(name: "main", cores: 2))
        let t0 = SimTime.zero
        let wakeA = executor.submit(task(1, costMs: 10), now: t0)!
        let wakeB = executor.submit(task(2, costMs: 20), now: t0)!
        XCTAssertNil(executor.submit(task(3, costMs: 5), now: t0))
        XCTAssertNil(executor.submit(task(4, costMs: 5), now: SimTime(milliseconds: 1)))

        let now = SimTime(milliseconds: 4)
        let records = executor.reset(now: now)
        XCTAssertEqual(records.map(\.task.id), [1, 2, 3, 4])
        XCTAssertEqual(records.map(\.core), [0, 1, -1, -1])
        XCTAssertTrue(records.allSatisfy { $0.cancelled && $0.finish == now })
        XCTAssertEqual(records.map(\.start.milliseconds), [0, 0, 4, 4])
        XCTAssertEqual(records.map(\.release.milliseconds), [0, 0, 0, 1])
        // Both cores ran 4 ms before the kill.
        XCTAssertEqual(executor.busyTime, .milliseconds(8))
        XCTAssertTrue(executor.isIdle)
        XCTAssertEqual(executor.readyCount, 0)
        // The wakes issued before the reset no longer complete anything.
        XCTAssertNil(executor.complete(wakeA, now: wakeA.time))
        XCTAssertNil(executor.complete(wakeB, now: wakeB.time))
    }

    func testAnExecutorRunsNormallyAfterAReset() {
        var executor = Executor(ExecutorConfig(name: "main", discipline: .fixedPriority))
        _ = executor.submit(task(1, costMs: 10), now: .zero)
        _ = executor.submit(task(2, costMs: 10), now: .zero)
        XCTAssertEqual(executor.reset(now: SimTime(milliseconds: 3)).count, 2)
        let wake = executor.submit(task(3, costMs: 5), now: SimTime(milliseconds: 3))!
        XCTAssertEqual(wake.time.milliseconds, 8)
        let (record, next) = executor.complete(wake, now: wake.time)!
        XCTAssertEqual(record.task.id, 3)
        XCTAssertFalse(record.cancelled)
        XCTAssertNil(next)
        XCTAssertEqual(executor.busyTime, .milliseconds(8))
    }

    func testResettingAnIdleExecutorReturnsNothing() {
        var executor = Executor(ExecutorConfig(name: "idle"))
        XCTAssertEqual(executor.reset(now: .zero), [])
        XCTAssertTrue(executor.isIdle)
    }
}
