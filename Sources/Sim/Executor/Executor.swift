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

    // The layout, chosen for the cost per task (a keyboard runs several tasks per key):
    // - `slots` holds each task's payload (about 100 bytes) from submission until its record
    //   leaves, in a `SlotTable` that reuses freed slots.
    // - `ready` is a `Heap` of slot indices keyed by a precomputed `Rank`, so sifting and
    //   comparing never touch the payloads.
    // - each core's state (the running task's slot and rank, when it resumed, the core's
    //   dispatch generation) is plain fields, `Slot.none` for idle. Core 0 is stored inline
    //   and the others in `otherCores`: most executors have one core (every thread of the
    //   default keyboard), and an inline core is read and written with no bounds check and
    //   no uniqueness check of an array buffer. `self[core:]` hides the split.
    // Nothing here is observable: records, wakes and orders are those of the plain layout
    // (one struct per waiting task in the heap, an optional struct per core) that it
    // replaced, which the tests keep as an oracle.
    var slots = SlotTable<Slot>()
    var ready = Heap<Int32>()         // slots keyed by `Rank.key`
    var firstCore = Core()
    var otherCores: [Core]
    var nextSequence: UInt64 = 0

    /// Total core time spent running tasks, for utilisation.
    public internal(set) var busyTime: SimDuration = .zero
    /// The most tasks ever waiting at once.
    public internal(set) var readyCountMax = 0
    /// The most tasks that may wait at once; past it `isOverLimit` is set (a model that
    /// floods an executor has run away, and its host stops with an error).
    public let readyCountLimit: Int
    /// Whether more than `readyCountLimit` tasks have waited at once.
    public internal(set) var isOverLimit = false
    /// How many queued tasks there are of each kind below 32, and the kinds with any.
    var queuedKindCounts = [Int32](repeating: 0, count: 32)
    var kindsQueued: UInt32 = 0

    /// Creates an idle executor.
    public init(_ config: ExecutorConfig, readyCountLimit: Int = 1 << 20) {
        self.config = config
        self.readyCountLimit = readyCountLimit
        otherCores = Array(repeating: Core(), count: config.cores - 1)
    }

    /// The number of tasks waiting for a core.
    public var readyCount: Int { ready.count }
    /// The number of busy cores.
    public var busyCores: Int { coreIndices.reduce(0) { $0 + (self[core: $1].isIdle ? 0 : 1) } }
    /// Whether nothing is running or waiting.
    public var isIdle: Bool { ready.isEmpty && busyCores == 0 }

    /// The tasks running now, by core.
    public var runningTasks: [ExecutorTask] {
        coreIndices.compactMap { self[core: $0].isIdle ? nil : slots[self[core: $0].slot].task }
    }
    /// Bit `kind` set for every kind of task waiting (kinds 0–31). O(1): kept as tasks are
    /// queued and taken, so that a model asking it per key stays linear when thousands of
    /// keys wait at one instant.
    public var queuedKindsMask: UInt32 { kindsQueued }

    /// The kind of the task running on the first busy core, if any.
    public var firstRunningKind: UInt16? {
        for core in coreIndices where !self[core: core].isIdle { return slots[self[core: core].slot].task.kind }
        return nil
    }

    /// The tasks waiting, in the order the discipline would run them.
    public var queuedTasks: [ExecutorTask] {
        readyInSubmissionOrder.sorted { Rank.ranksAhead($0.rank, $1.rank) }.map { slots[$0.slot].task }
    }

    /// Submits a task released now. Returns a wake to schedule if it starts at once.
    /// - Complexity: O(log q) for q queued tasks, plus O(cores) to find a free core.
    @inline(__always)
    public mutating func submit(_ task: ExecutorTask, now: SimTime) -> CoreWake? {
        let entry = Entry(rank: rank(of: task, sequence: nextSequence), slot: allocateSlot(task, now: now))
        nextSequence += 1
        if firstCore.isIdle { return occupy(0, with: entry, now: now, remaining: task.cost) }
        if let core = otherCores.firstIndex(where: \.isIdle) {
            return occupy(core + 1, with: entry, now: now, remaining: task.cost)
        }
        if config.preemptive, let victim = leastUrgentRunningCore(), Rank.ranksAhead(entry.rank, self[core: victim].rank) {
            preempt(core: victim, now: now)
            return occupy(victim, with: entry, now: now, remaining: task.cost)
        }
        enqueue(entry)
        return nil
    }

    /// Handles a wake. Returns `nil` for a stale wake (its task was preempted); otherwise the
    /// finished task's record and, if a queued task took the core, the next wake to schedule.
    /// - Complexity: O(log q)
    @inline(__always)
    public mutating func complete(_ wake: CoreWake, now: SimTime) -> (record: TaskRecord, next: CoreWake?)? {
        let current = self[core: wake.core]
        guard current.generation == wake.generation, !current.isIdle else { return nil }
        precondition(now == wake.time, "a wake must fire at its time")
        busyTime = busyTime + (now - current.resumedAt)
        let record = record(ofSlot: current.slot, now: now, core: wake.core, cancelled: false)
        releaseSlot(current.slot)
        var next: CoreWake?
        if let waiting = dequeue() {
            next = resume(waiting, on: wake.core, now: now)
        } else {
            self[core: wake.core].slot = Slot.none
        }
        return (record, next)
    }

    /// Removes queued (not yet running) tasks that `isStale` selects, as when a newer key
    /// makes a waiting suggestion job pointless. Returns their records, marked cancelled.
    /// - Complexity: O(q)
    public mutating func cancelQueued(now: SimTime, where isStale: (ExecutorTask) -> Bool) -> [TaskRecord] {
        var anyStale = false
        ready.forEachUnordered { _, slot in anyStale = anyStale || isStale(slots[slot].task) }
        guard anyStale else { return [] }
        var cancelled: [TaskRecord] = []
        var kept: [Entry] = []
        kept.reserveCapacity(ready.count)
        for entry in readyInSubmissionOrder {
            if isStale(slots[entry.slot].task) {
                cancelled.append(record(ofSlot: entry.slot, now: now, core: -1, cancelled: true))
                releaseSlot(entry.slot)
            } else {
                kept.append(entry)
            }
        }
        ready.removeAll()
        clearQueuedKinds()
        for entry in kept { enqueue(entry) }
        return cancelled
    }

    // MARK: - Mechanics

    /// Gives idle `core` the task of `entry`, to run for `remaining`; returns the wake for its end.
    @inline(__always)
    private mutating func occupy(_ core: Int, with entry: Entry, now: SimTime, remaining: SimDuration) -> CoreWake {
        let generation = self[core: core].generation &+ 1
        self[core: core] = Core(slot: entry.slot, generation: generation, resumedAt: now, rank: entry.rank)
        return CoreWake(core: core, generation: generation, time: now + remaining)
    }

    /// Gives idle `core` a task taken from the ready heap: its first start, or its return
    /// after a preemption.
    @inline(__always)
    private mutating func resume(_ entry: Entry, on core: Int, now: SimTime) -> CoreWake {
        let index = entry.slot
        if slots[index].preemptions == 0 { slots[index].firstStart = now }
        return occupy(core, with: entry, now: now, remaining: slots[index].remaining)
    }

    private mutating func preempt(core: Int, now: SimTime) {
        let current = self[core: core]
        let index = current.slot
        slots[index].remaining = slots[index].remaining - (now - current.resumedAt)
        slots[index].preemptions += 1
        busyTime = busyTime + (now - current.resumedAt)
        self[core: core].slot = Slot.none
        self[core: core].generation &+= 1   // the pending wake for this core is now stale
        enqueue(Entry(rank: current.rank, slot: current.slot))
    }

    private func leastUrgentRunningCore() -> Int? {
        var worst: Int?
        for core in coreIndices where !self[core: core].isIdle {
            if let w = worst, !Rank.ranksAhead(self[core: w].rank, self[core: core].rank) { continue }
            worst = core
        }
        return worst
    }
}
