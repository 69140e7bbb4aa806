/// A named resource with N cores that runs tasks under a scheduling discipline and records
/// each task's release, start, finish and deadline.
///
/// The executor does not own events: it tells the model when to wake it (`CoreWake`), so
/// it can serve any model's event type. A typical use:
///
///     if let wake = executor.submit(task, now: engine.now) { engine.schedule(.core(id, wake), at: wake.time) }
///     // … later, when that event fires:
///     if let (record, next) = executor.complete(wake, now: engine.now) { … }
public struct Executor: Sendable {
    /// The configuration it was created with.
    public let config: ExecutorConfig

    struct Queued: Sendable {
        var task: ExecutorTask
        var release: SimTime
        var firstStart: SimTime?
        var remaining: SimDuration
        var preemptions: Int
        var sequence: UInt64
    }

    struct Running: Sendable {
        var item: Queued
        var resumedAt: SimTime
    }

    var ready: [Queued] = []          // a binary heap ordered by `ranksAhead`
    var running: [Running?]
    var generations: [UInt32]
    var nextSequence: UInt64 = 0

    /// Total core time spent running tasks, for utilisation.
    public internal(set) var busyTime: SimDuration = .zero
    /// The most tasks ever waiting at once.
    public private(set) var readyCountMax = 0
    /// The most tasks that may wait at once; a model that floods an executor is a bug.
    public let readyCountLimit: Int

    /// Creates an idle executor.
    public init(_ config: ExecutorConfig, readyCountLimit: Int = 1 << 20) {
        self.config = config
        self.readyCountLimit = readyCountLimit
        running = Array(repeating: nil, count: config.cores)
        generations = Array(repeating: 0, count: config.cores)
    }

    /// The number of tasks waiting for a core.
    public var readyCount: Int { ready.count }
    /// The number of busy cores.
    public var busyCores: Int { running.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }
    /// Whether nothing is running or waiting.
    public var isIdle: Bool { ready.isEmpty && busyCores == 0 }

    /// The tasks running now, by core.
    public var runningTasks: [ExecutorTask] { running.compactMap { $0?.item.task } }
    /// Bit `kind` set for every kind of task waiting (kinds 0–31). O(q), no sorting.
    public var queuedKindsMask: UInt32 {
        var mask: UInt32 = 0
        for item in ready where item.task.kind < 32 { mask |= 1 << UInt32(item.task.kind) }
        return mask
    }

    /// The kind of the task running on the first busy core, if any.
    public var firstRunningKind: UInt16? {
        for slot in running { if let slot { return slot.item.task.kind } }
        return nil
    }

    /// The tasks waiting, in the order the discipline would run them.
    public var queuedTasks: [ExecutorTask] {
        ready.sorted { ranksAhead($0, $1) }.map(\.task)
    }

    /// Submits a task released now. Returns a wake to schedule if it starts at once.
    /// - Complexity: O(log q) for q queued tasks, plus O(cores) to find a free core.
    public mutating func submit(_ task: ExecutorTask, now: SimTime) -> CoreWake? {
        let item = Queued(task: task, release: now, firstStart: nil, remaining: task.cost,
                          preemptions: 0, sequence: nextSequence)
        nextSequence += 1
        if let core = running.firstIndex(where: { $0 == nil }) {
            return start(item, on: core, now: now)
        }
        if config.preemptive, let victim = leastUrgentRunningCore(), ranksAhead(item, running[victim]!.item) {
            preempt(core: victim, now: now)
            return start(item, on: victim, now: now)
        }
        enqueue(item)
        return nil
    }

    /// Handles a wake. Returns `nil` for a stale wake (its task was preempted); otherwise the
    /// finished task's record and, if a queued task took the core, the next wake to schedule.
    /// - Complexity: O(log q)
    @inline(__always)
    public mutating func complete(_ wake: CoreWake, now: SimTime) -> (record: TaskRecord, next: CoreWake?)? {
        guard generations[wake.core] == wake.generation, let current = running[wake.core] else { return nil }
        precondition(now == wake.time, "a wake must fire at its time")
        busyTime = busyTime + (now - current.resumedAt)
        running[wake.core] = nil
        let item = current.item
        let record = TaskRecord(task: item.task, release: item.release, start: item.firstStart ?? now, finish: now,
                                core: wake.core, preemptions: item.preemptions, cancelled: false)
        var next: CoreWake?
        if let waiting = dequeue() { next = start(waiting, on: wake.core, now: now) }
        return (record, next)
    }

    /// Removes queued (not yet running) tasks that `isStale` selects, as when a newer key
    /// makes a waiting suggestion job pointless. Returns their records, marked cancelled.
    /// - Complexity: O(q)
    public mutating func cancelQueued(now: SimTime, where isStale: (ExecutorTask) -> Bool) -> [TaskRecord] {
        guard ready.contains(where: { isStale($0.task) }) else { return [] }
        var cancelled: [TaskRecord] = []
        var kept: [Queued] = []
        kept.reserveCapacity(ready.count)
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

    // MARK: - Mechanics

    @inline(__always)
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
        generations[core] &+= 1   // the pending wake for this core is now stale
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

    /// Whether `a` should run before `b` under this executor's discipline.
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
        precondition(ready.count < readyCountLimit, "executor \(config.name) has more than \(readyCountLimit) queued tasks")
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

    @inline(__always)
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
