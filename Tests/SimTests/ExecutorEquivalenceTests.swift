import XCTest
@testable import Sim

/// The executor as it was before its storage was laid out for speed: every waiting task a
/// whole struct in the heap, every running one an optional struct per core. Kept as the
/// oracle the faster executor must match record for record and wake for wake.
struct ReferenceExecutor {
    struct Queued {
        var task: ExecutorTask
        var release: SimTime
        var firstStart: SimTime?
        var remaining: SimDuration
        var preemptions: Int
        var sequence: UInt64
    }

    struct Running {
        var item: Queued
        var resumedAt: SimTime
    }

    let config: ExecutorConfig
    var ready: [Queued] = []
    var running: [Running?]
    var generations: [UInt32]
    var nextSequence: UInt64 = 0
    var busyTime: SimDuration = .zero
    var readyCountMax = 0

    init(_ config: ExecutorConfig) {
        self.config = config
        running = Array(repeating: nil, count: config.cores)
        generations = Array(repeating: 0, count: config.cores)
    }

    var readyCount: Int { ready.count }
    var busyCores: Int { running.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }
    var isIdle: Bool { ready.isEmpty && busyCores == 0 }
    var runningTasks: [ExecutorTask] { running.compactMap { $0?.item.task } }
    var queuedKindsMask: UInt32 {
        var mask: UInt32 = 0
        for item in ready where item.task.kind < 32 { mask |= 1 << UInt32(item.task.kind) }
        return mask
    }
    var firstRunningKind: UInt16? {
        for slot in running { if let slot { return slot.item.task.kind } }
        return nil
    }
    var queuedTasks: [ExecutorTask] { ready.sorted { ranksAhead($0, $1) }.map(\.task) }

    mutating func submit(_ task: ExecutorTask, now: SimTime) -> CoreWake? {
        let item = Queued(task: task, release: now, firstStart: nil, remaining: task.cost, preemptions: 0,
                          sequence: nextSequence)
        nextSequence += 1
        if let core = running.firstIndex(where: { $0 == nil }) { return start(item, on: core, now: now) }
        if config.preemptive, let victim = leastUrgentRunningCore(), ranksAhead(item, running[victim]!.item) {
            preempt(core: victim, now: now)
            return start(item, on: victim, now: now)
        }
        enqueue(item)
        return nil
    }

    mutating func complete(_ wake: CoreWake, now: SimTime) -> (record: TaskRecord, next: CoreWake?)? {
        guard generations[wake.core] == wake.generation, let current = running[wake.core] else { return nil }
        busyTime = busyTime + (now - current.resumedAt)
        running[wake.core] = nil
        let item = current.item
        let record = TaskRecord(task: item.task, release: item.release, start: item.firstStart ?? now, finish: now,
                                core: wake.core, preemptions: item.preemptions, cancelled: false)
        var next: CoreWake?
        if let waiting = dequeue() { next = start(waiting, on: wake.core, now: now) }
        return (record, next)
    }

    mutating func cancelQueued(now: SimTime, where isStale: (ExecutorTask) -> Bool) -> [TaskRecord] {
        guard ready.contains(where: { isStale($0.task) }) else { return [] }
        var cancelled: [TaskRecord] = []
        var kept: [Queued] = []
        for item in ready.sorted(by: { $0.sequence < $1.sequence }) {
            if isStale(item.task) {
                cancelled.append(TaskRecord(task: item.task, release: item.release, start: item.firstStart ?? now,
                                            finish: now, core: -1, preemptions: item.preemptions, cancelled: true))
            } else {
                kept.append(item)
            }
        }
        ready = []
        for item in kept { enqueue(item) }
        return cancelled
    }

    mutating func reset(now: SimTime) -> [TaskRecord] {
        var records: [TaskRecord] = []
        for core in running.indices {
            guard let current = running[core] else { continue }
            busyTime = busyTime + (now - current.resumedAt)
            let item = current.item
            records.append(TaskRecord(task: item.task, release: item.release, start: item.firstStart ?? now, finish: now,
                                      core: core, preemptions: item.preemptions, cancelled: true))
            running[core] = nil
            generations[core] &+= 1
        }
        for item in ready.sorted(by: { $0.sequence < $1.sequence }) {
            records.append(TaskRecord(task: item.task, release: item.release, start: item.firstStart ?? now, finish: now,
                                      core: -1, preemptions: item.preemptions, cancelled: true))
        }
        ready = []
        return records
    }

    private mutating func start(_ item: Queued, on core: Int, now: SimTime) -> CoreWake {
        var item = item
        if item.firstStart == nil { item.firstStart = now }
        generations[core] &+= 1
        running[core] = Running(item: item, resumedAt: now)
        return CoreWake(core: core, generation: generations[core], time: now + item.remaining)
    }

    private mutating func preempt(core: Int, now: SimTime) {
        let current = running[core]!
        var item = current.item
        item.remaining = item.remaining - (now - current.resumedAt)
        item.preemptions += 1
        busyTime = busyTime + (now - current.resumedAt)
        running[core] = nil
        generations[core] &+= 1
        enqueue(item)
    }

    private func leastUrgentRunningCore() -> Int? {
        var worst: Int?
        for core in running.indices {
            guard let candidate = running[core] else { continue }
            if let w = worst, !ranksAhead(running[w]!.item, candidate.item) { continue }
            worst = core
        }
        return worst
    }

    func ranksAhead(_ a: Queued, _ b: Queued) -> Bool {
        switch config.discipline {
        case .fifo:
            return a.sequence < b.sequence
        case .fixedPriority:
            if a.task.priority != b.task.priority { return a.task.priority > b.task.priority }
            return a.sequence < b.sequence
        case .earliestDeadlineFirst:
            let da = a.task.deadline?.nanoseconds ?? .max
            let db = b.task.deadline?.nanoseconds ?? .max
            if da != db { return da < db }
            return a.sequence < b.sequence
        }
    }

    private mutating func enqueue(_ item: Queued) {
        ready.append(item)
        var child = ready.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard ranksAhead(ready[child], ready[parent]) else { break }
            ready.swapAt(child, parent)
            child = parent
        }
        readyCountMax = max(readyCountMax, ready.count)
    }

    private mutating func dequeue() -> Queued? {
        guard !ready.isEmpty else { return nil }
        let top = ready[0]
        let last = ready.removeLast()
        if !ready.isEmpty {
            ready[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                guard left < ready.count else { break }
                var best = left
                if left + 1 < ready.count && ranksAhead(ready[left + 1], ready[left]) { best = left + 1 }
                guard ranksAhead(ready[best], ready[parent]) else { break }
                ready.swapAt(parent, best)
                parent = best
            }
        }
        return top
    }
}

/// Random workloads driven through the executor and the reference side by side: every
/// wake, record and observable count must be the same, for every discipline, with and
/// without preemption, on one and on several cores.
final class ExecutorEquivalenceTests: XCTestCase {
    func testMatchesTheReferenceExecutorOnRandomWorkloads() {
        for seed in UInt64(1)...120 {
            var rng = TestRNG(state: seed)
            let discipline = SchedulingDiscipline.allCases[rng.below(3)]
            let config = ExecutorConfig(name: "t", cores: 1 + rng.below(4) / 2 + (rng.below(5) == 0 ? 2 : 0),
                                        discipline: discipline, preemptive: rng.below(2) == 0)
            var executor = Executor(config)
            var reference = ReferenceExecutor(config)
            var wakes: [CoreWake] = []       // pending, in no particular order
            var spent: [CoreWake] = []       // delivered before; stale now
            var now = SimTime.zero
            var nextID: UInt64 = 0
            let context = "seed \(seed), \(config)"

            /// Moves the clock forward, but never past a pending wake: time does not go back.
            func advance(by duration: SimDuration) {
                now = min(now + duration, wakes.map(\.time).min() ?? .never)
            }

            func compareState(_ step: Int) {
                let at = "\(context), step \(step)"
                XCTAssertEqual(executor.readyCount, reference.readyCount, at)
                XCTAssertEqual(executor.busyCores, reference.busyCores, at)
                XCTAssertEqual(executor.isIdle, reference.isIdle, at)
                XCTAssertEqual(executor.runningTasks, reference.runningTasks, at)
                XCTAssertEqual(executor.queuedTasks, reference.queuedTasks, at)
                XCTAssertEqual(executor.queuedKindsMask, reference.queuedKindsMask, at)
                XCTAssertEqual(executor.firstRunningKind, reference.firstRunningKind, at)
                XCTAssertEqual(executor.busyTime, reference.busyTime, at)
                XCTAssertEqual(executor.readyCountMax, reference.readyCountMax, at)
            }

            for step in 0..<600 {
                switch rng.below(20) {
                case 0..<9:
                    let priorities = [0, 1, 2, 5, -3, Int.max, Int.min]
                    let deadline: SimTime? = switch rng.below(5) {
                    case 0: nil
                    case 1: .never
                    default: now + .milliseconds(Int64(rng.below(30)))
                    }
                    let task = ExecutorTask(id: nextID, kind: UInt16(rng.below(40)), tag: Int64(rng.below(4)),
                                            priority: priorities[rng.below(priorities.count)], deadline: deadline,
                                            cost: .milliseconds(Int64(rng.below(8))), context: Int32(rng.below(100)))
                    nextID += 1
                    let wake = executor.submit(task, now: now)
                    XCTAssertEqual(wake, reference.submit(task, now: now), "\(context), step \(step)")
                    if let wake { wakes.append(wake) }
                case 9..<17:
                    guard let index = wakes.indices.min(by: { wakes[$0].time < wakes[$1].time }) else { continue }
                    let wake = wakes.remove(at: index)
                    now = wake.time
                    let result = executor.complete(wake, now: now)
                    let expected = reference.complete(wake, now: now)
                    XCTAssertEqual(result?.record, expected?.record, "\(context), step \(step)")
                    XCTAssertEqual(result?.next, expected?.next, "\(context), step \(step)")
                    if let next = result?.next { wakes.append(next) }
                    spent.append(wake)
                case 17:
                    advance(by: .milliseconds(Int64(rng.below(3))))
                    guard !spent.isEmpty else { continue }
                    let stale = spent[rng.below(spent.count)]
                    XCTAssertNil(executor.complete(stale, now: now), "\(context), step \(step)")
                    XCTAssertNil(reference.complete(stale, now: now), "\(context), step \(step)")
                case 18:
                    let kind = UInt16(rng.below(40))
                    let tag = Int64(rng.below(4))
                    let isStale = { (task: ExecutorTask) in task.kind == kind || task.tag < tag }
                    XCTAssertEqual(executor.cancelQueued(now: now, where: isStale),
                                   reference.cancelQueued(now: now, where: isStale), "\(context), step \(step)")
                default:
                    guard rng.below(4) == 0 else { advance(by: .milliseconds(1)); continue }
                    XCTAssertEqual(executor.reset(now: now), reference.reset(now: now), "\(context), step \(step)")
                    spent += wakes
                    wakes = []
                }
                compareState(step)
            }
            // Drain: everything left runs to completion the same way.
            while let index = wakes.indices.min(by: { wakes[$0].time < wakes[$1].time }) {
                let wake = wakes.remove(at: index)
                now = wake.time
                let result = executor.complete(wake, now: now)
                let expected = reference.complete(wake, now: now)
                XCTAssertEqual(result?.record, expected?.record, context)
                XCTAssertEqual(result?.next, expected?.next, context)
                if let next = result?.next { wakes.append(next) }
            }
            compareState(-1)
            XCTAssertTrue(executor.isIdle, context)
        }
    }
}
