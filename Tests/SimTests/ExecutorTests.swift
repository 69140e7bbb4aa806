import XCTest
@testable import Sim

/// Drives an executor with an engine, the way models do, and collects the records.
struct ExecutorHarness {
    enum Event { case release(ExecutorTask), wake(CoreWake) }
    var engine = Engine<Event>()
    var executor: Executor
    var records: [TaskRecord] = []

    init(_ config: ExecutorConfig) { executor = Executor(config) }

    mutating func release(_ task: ExecutorTask, atMs ms: Double) {
        engine.schedule(.release(task), at: SimTime(milliseconds: ms))
    }

    mutating func run() {
        while let event = engine.next() {
            switch event {
            case .release(let task):
                if let wake = executor.submit(task, now: engine.now) { engine.schedule(.wake(wake), at: wake.time) }
            case .wake(let wake):
                guard let (record, next) = executor.complete(wake, now: engine.now) else { continue }
                records.append(record)
                if let next { engine.schedule(.wake(next), at: next.time) }
            }
        }
        precondition(executor.isIdle)
    }

    func finishMs(_ id: UInt64) -> Double? { records.first { $0.task.id == id }?.finish.milliseconds }
}

func task(_ id: UInt64, costMs: Double, priority: Int = 0, deadlineMs: Double? = nil) -> ExecutorTask {
    ExecutorTask(id: id, kind: 0, priority: priority, deadline: deadlineMs.map { SimTime(milliseconds: $0) },
                 cost: SimDuration(milliseconds: costMs))
}

final class ExecutorTests: XCTestCase {
    func testFIFORunsInReleaseOrder() {
        var h = ExecutorHarness(ExecutorConfig(name: "main"))
        h.release(task(1, costMs: 5), atMs: 0)
        h.release(task(2, costMs: 1, priority: 9), atMs: 1)
        h.release(task(3, costMs: 1), atMs: 2)
        h.run()
        XCTAssertEqual(h.records.map(\.task.id), [1, 2, 3])
        XCTAssertEqual(h.finishMs(1), 5)
        XCTAssertEqual(h.finishMs(2), 6)
        XCTAssertEqual(h.finishMs(3), 7)
        XCTAssertEqual(h.records[1].waitTime, .milliseconds(4))
        XCTAssertEqual(h.executor.busyTime, .milliseconds(7))
    }

    func testFixedPriorityPicksTheMostUrgentWaitingTask() {
        var h = ExecutorHarness(ExecutorConfig(name: "main", discipline: .fixedPriority))
        h.release(task(1, costMs: 5), atMs: 0)
        h.release(task(2, costMs: 1, priority: 1), atMs: 1)
        h.release(task(3, costMs: 1, priority: 5), atMs: 2)
        h.release(task(4, costMs: 1, priority: 5), atMs: 3)
        h.run()
        XCTAssertEqual(h.records.map(\.task.id), [1, 3, 4, 2], "equal priorities keep submission order")
    }

    func testEarliestDeadlineFirstAndMissedDeadlines() {
        var h = ExecutorHarness(ExecutorConfig(name: "main", discipline: .earliestDeadlineFirst))
        h.release(task(1, costMs: 4, deadlineMs: 100), atMs: 0)
        h.release(task(2, costMs: 2, deadlineMs: 50), atMs: 1)
        h.release(task(3, costMs: 2, deadlineMs: 5), atMs: 1)
        h.release(task(4, costMs: 2), atMs: 1)
        h.run()
        XCTAssertEqual(h.records.map(\.task.id), [1, 3, 2, 4])
        XCTAssertTrue(h.records.first { $0.task.id == 3 }!.missedDeadline, "task 3 finished at 6 ms, deadline 5 ms")
        XCTAssertFalse(h.records.first { $0.task.id == 2 }!.missedDeadline)
    }

    func testPreemptionResumesWithTheRemainingCost() {
        var h = ExecutorHarness(ExecutorConfig(name: "main", discipline: .fixedPriority, preemptive: true))
        h.release(task(1, costMs: 10, priority: 0), atMs: 0)
        h.release(task(2, costMs: 2, priority: 5), atMs: 4)
        h.run()
        XCTAssertEqual(h.finishMs(2), 6)
        XCTAssertEqual(h.finishMs(1), 12, "4 ms done, preempted for 2 ms, 6 ms remaining")
        let low = h.records.first { $0.task.id == 1 }!
        XCTAssertEqual(low.preemptions, 1)
        XCTAssertEqual(low.start, .zero)
        XCTAssertEqual(h.executor.busyTime, .milliseconds(12))
    }

    func testNonPreemptiveLetsTheRunningTaskFinish() {
        var h = ExecutorHarness(ExecutorConfig(name: "main", discipline: .fixedPriority, preemptive: false))
        h.release(task(1, costMs: 10), atMs: 0)
        h.release(task(2, costMs: 2, priority: 5), atMs: 4)
        h.run()
        XCTAssertEqual(h.finishMs(1), 10)
        XCTAssertEqual(h.finishMs(2), 12)
    }

    func testSeveralCoresRunInParallel() {
        var h = ExecutorHarness(ExecutorConfig(name: "background", cores: 2))
        h.release(task(1, costMs: 10), atMs: 0)
        h.release(task(2, costMs: 10), atMs: 0)
        h.release(task(3, costMs: 1), atMs: 0)
        h.run()
        XCTAssertEqual(h.finishMs(1), 10)
        XCTAssertEqual(h.finishMs(2), 10)
        XCTAssertEqual(h.finishMs(3), 11)
        XCTAssertEqual(Set(h.records.map(\.core)), [0, 1])
    }

    func testCancelQueuedRemovesOnlyWaitingStaleTasks() {
        var executor = Executor(ExecutorConfig(name: "main"))
        XCTAssertNotNil(executor.submit(task(1, costMs: 5), now: .zero))
        XCTAssertNil(executor.submit(ExecutorTask(id: 2, kind: 7, tag: 1, cost: .milliseconds(1)), now: .zero))
        XCTAssertNil(executor.submit(ExecutorTask(id: 3, kind: 7, tag: 2, cost: .milliseconds(1)), now: .zero))
        XCTAssertNil(executor.submit(task(4, costMs: 1), now: .zero))
        let cancelled = executor.cancelQueued(now: SimTime(milliseconds: 1)) { $0.kind == 7 && $0.tag < 2 }
        XCTAssertEqual(cancelled.map(\.task.id), [2])
        XCTAssertTrue(cancelled[0].cancelled)
        XCTAssertEqual(executor.queuedTasks.map(\.id), [3, 4])
        XCTAssertEqual(executor.runningTasks.map(\.id), [1])
    }

    func testStaleWakeOfAPreemptedTaskIsIgnored() {
        var executor = Executor(ExecutorConfig(name: "main", discipline: .fixedPriority, preemptive: true))
        let first = executor.submit(task(1, costMs: 10), now: .zero)!
        let second = executor.submit(task(2, costMs: 1, priority: 3), now: SimTime(milliseconds: 2))!
        let done = executor.complete(second, now: second.time)!
        XCTAssertEqual(done.record.task.id, 2)
        XCTAssertNil(executor.complete(first, now: first.time), "the wake issued before the preemption is stale")
        XCTAssertEqual(done.next?.time, SimTime(milliseconds: 11))
    }
}
