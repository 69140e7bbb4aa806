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
    //   leaves; freed slots are reused through a free list threaded through them (`freeSlot`).
    // - `ready` is a binary heap of 24-byte entries, a precomputed `Rank` and a slot index,
    //   so sifting and comparing never touch the payloads.
    // - `cores` holds, per core, the running task's slot and rank, when it resumed, and the
    //   core's dispatch generation, as plain fields (`Slot.none` for idle): one array, so
    //   starting or finishing a task checks one buffer for uniqueness, not two.
    // Nothing here is observable: records, wakes and orders are those of the plain layout
    // (one struct per waiting task in the heap, an optional struct per core) that it
    // replaced, which the tests keep as an oracle.
    var slots: [Slot] = []
    var freeSlot: Int32 = Slot.none
    var ready: [Entry] = []           // a binary heap ordered by `Rank.ranksAhead`
    var cores: [Core]
    var nextSequence: UInt64 = 0

    /// Total core time spent running tasks, for utilisation.
    public internal(set) var busyTime: SimDuration = .zero
    /// The most tasks ever waiting at once.
    public internal(set) var readyCountMax = 0
    /// The most tasks that may wait at once; a model that floods an executor is a bug.
    public let readyCountLimit: Int

    /// Creates an idle executor.
    public init(_ config: ExecutorConfig, readyCountLimit: Int = 1 << 20) {
        self.config = config
        self.readyCountLimit = readyCountLimit
        cores = Array(repeating: Core(), count: config.cores)
    }

    /// The number of tasks waiting for a core.
    public var readyCount: Int { ready.count }
    /// The number of busy cores.
    public var busyCores: Int { cores.reduce(0) { $0 + ($1.isIdle ? 0 : 1) } }
    /// Whether nothing is running or waiting.
    public var isIdle: Bool { ready.isEmpty && busyCores == 0 }

    /// The tasks running now, by core.
    public var runningTasks: [ExecutorTask] { cores.compactMap { $0.isIdle ? nil : slots[Int($0.slot)].task } }
    /// Bit `kind` set for every kind of task waiting (kinds 0–31). O(q), no sorting.
    public var queuedKindsMask: UInt32 {
        var mask: UInt32 = 0
        for entry in ready {
            let kind = slots[Int(entry.slot)].task.kind
            if kind < 32 { mask |= 1 << UInt32(kind) }
        }
        return mask
    }

    /// The kind of the task running on the first busy core, if any.
    public var firstRunningKind: UInt16? {
        for core in cores where !core.isIdle { return slots[Int(core.slot)].task.kind }
        return nil
    }

    /// The tasks waiting, in the order the discipline would run them.
    public var queuedTasks: [ExecutorTask] {
        ready.sorted { Rank.ranksAhead($0.rank, $1.rank) }.map { slots[Int($0.slot)].task }
    }

    /// Submits a task released now. Returns a wake to schedule if it starts at once.
    /// - Complexity: O(log q) for q queued tasks, plus O(cores) to find a free core.
    public mutating func submit(_ task: ExecutorTask, now: SimTime) -> CoreWake? {
        let entry = Entry(rank: rank(of: task, sequence: nextSequence), slot: allocateSlot(task, now: now))
        nextSequence += 1
        if let core = cores.firstIndex(where: \.isIdle) {
            return start(entry, on: core, now: now)
        }
        if config.preemptive, let victim = leastUrgentRunningCore(), Rank.ranksAhead(entry.rank, cores[victim].rank) {
            preempt(core: victim, now: now)
            return start(entry, on: victim, now: now)
        }
        enqueue(entry)
        return nil
    }

    /// Handles a wake. Returns `nil` for a stale wake (its task was preempted); otherwise the
    /// finished task's record and, if a queued task took the core, the next wake to schedule.
    /// - Complexity: O(log q)
    @inline(__always)
    public mutating func complete(_ wake: CoreWake, now: SimTime) -> (record: TaskRecord, next: CoreWake?)? {
        let current = cores[wake.core]
        guard current.generation == wake.generation, !current.isIdle else { return nil }
        precondition(now == wake.time, "a wake must fire at its time")
        busyTime = busyTime + (now - current.resumedAt)
        let record = record(ofSlot: current.slot, now: now, core: wake.core, cancelled: false)
        releaseSlot(current.slot)
        var next: CoreWake?
        if let waiting = dequeue() {
            next = start(waiting, on: wake.core, now: now)
        } else {
            cores[wake.core].slot = Slot.none
        }
        return (record, next)
    }

    /// Removes queued (not yet running) tasks that `isStale` selects, as when a newer key
    /// makes a waiting suggestion job pointless. Returns their records, marked cancelled.
    /// - Complexity: O(q)
    public mutating func cancelQueued(now: SimTime, where isStale: (ExecutorTask) -> Bool) -> [TaskRecord] {
        guard ready.contains(where: { isStale(slots[Int($0.slot)].task) }) else { return [] }
        var cancelled: [TaskRecord] = []
        var kept: [Entry] = []
        kept.reserveCapacity(ready.count)
        for entry in ready.sorted(by: { $0.rank.sequence < $1.rank.sequence }) {
            if isStale(slots[Int(entry.slot)].task) {
                cancelled.append(record(ofSlot: entry.slot, now: now, core: -1, cancelled: true))
                releaseSlot(entry.slot)
            } else {
                kept.append(entry)
            }
        }
        ready.removeAll(keepingCapacity: true)
        for entry in kept { enqueue(entry) }
        return cancelled
    }

    // MARK: - Mechanics

    /// Puts the task of `entry` on `core`, which must be idle, and returns its wake.
    @inline(__always)
    private mutating func start(_ entry: Entry, on core: Int, now: SimTime) -> CoreWake {
        let index = Int(entry.slot)
        if slots[index].preemptions == 0 { slots[index].firstStart = now }
        let generation = cores[core].generation &+ 1
        cores[core] = Core(slot: entry.slot, generation: generation, resumedAt: now, rank: entry.rank)
        return CoreWake(core: core, generation: generation, time: now + slots[index].remaining)
    }

    private mutating func preempt(core: Int, now: SimTime) {
        let current = cores[core]
        let index = Int(current.slot)
        slots[index].remaining = slots[index].remaining - (now - current.resumedAt)
        slots[index].preemptions += 1
        busyTime = busyTime + (now - current.resumedAt)
        cores[core].slot = Slot.none
        cores[core].generation &+= 1   // the pending wake for this core is now stale
        enqueue(Entry(rank: current.rank, slot: current.slot))
    }

    private func leastUrgentRunningCore() -> Int? {
        var worst: Int?
        for core in cores.indices where !cores[core].isIdle {
            if let w = worst, !Rank.ranksAhead(cores[w].rank, cores[core].rank) { continue }
            worst = core
        }
        return worst
    }
}
