extension Executor {
    /// A task the executor holds, running or waiting: its payload, kept in one place from
    /// `submit` until its record leaves, so that scheduling moves small `Entry` and `Core`
    /// values instead of this one.
    struct Slot: Sendable {
        var task: ExecutorTask
        var release: SimTime
        /// When the task first got a core. Meaningful only once the task has run: while it
        /// runs, and while it waits after a preemption. A task goes back to waiting only when
        /// it is preempted, so a waiting task with `preemptions == 0` has never run.
        var firstStart: SimTime
        var remaining: SimDuration
        var preemptions: Int

        /// The slot of an idle core: no slot.
        static let none: Int32 = -1
    }

    /// Where a task stands in the discipline's order, precomputed at submission so that
    /// comparing two tasks is two integer comparisons, with no switch on the discipline and
    /// no look at the tasks. The discipline is folded into `urgency` (lower runs first):
    /// - fifo: 0 for every task, so the submission order decides;
    /// - priority: `~priority`, which is larger for a lower priority and cannot overflow
    ///   (unlike `-priority` for `Int.min`);
    /// - EDF: the deadline in nanoseconds, `Int64.max` for none (a deadline of exactly
    ///   `Int64.max` ties with none and falls back to the submission order, as it always did).
    ///
    /// Ties go to the earlier `sequence`, which is unique, so the order is total: any two
    /// tasks compare the same way however the heap happens to be laid out. Urgency and
    /// sequence form one 128-bit key (urgency's sign bit flipped, so that unsigned order is
    /// signed order), the ready heap's key.
    struct Rank: Sendable {
        var key: UInt128

        init(urgency: Int64, sequence: UInt64) {
            key = UInt128(UInt64(bitPattern: urgency) ^ (1 << 63)) << 64 | UInt128(sequence)
        }

        init(key: UInt128) { self.key = key }

        /// The submission sequence: the order among equally urgent tasks.
        var sequence: UInt64 { UInt64(truncatingIfNeeded: key) }

        /// Whether the task ranked `a` should run before the one ranked `b`.
        @inline(__always)
        static func ranksAhead(_ a: Rank, _ b: Rank) -> Bool { a.key < b.key }
    }

    /// A waiting task: its rank (the ready heap's key) and its slot (the heap's value).
    struct Entry: Sendable {
        var rank: Rank
        var slot: Int32
    }

    /// What one core is doing: the slot and rank of the task it runs (`slot == Slot.none`
    /// when idle), since when it has run that task, and the core's dispatch generation.
    /// Plain fields rather than an optional struct, so reading or clearing a core copies
    /// 32 bytes and no payload.
    struct Core: Sendable {
        var slot: Int32 = Slot.none
        var generation: UInt32 = 0
        var resumedAt: SimTime = .zero
        var rank = Rank(urgency: 0, sequence: 0)

        var isIdle: Bool { slot == Slot.none }
    }

    /// The indices of the cores, `0..<config.cores`.
    var coreIndices: Range<Int> { 0..<(otherCores.count + 1) }

    /// The state of core `core`: `firstCore` for core 0, else an element of `otherCores`.
    subscript(core core: Int) -> Core {
        @inline(__always) get { core == 0 ? firstCore : otherCores[core - 1] }
        @inline(__always) set {
            if core == 0 { firstCore = newValue } else { otherCores[core - 1] = newValue }
        }
    }

    /// The rank of a task submitted as number `sequence`, under this executor's discipline.
    @inline(__always)
    func rank(of task: ExecutorTask, sequence: UInt64) -> Rank {
        let urgency: Int64 = switch config.discipline {
        case .fifo: 0
        case .fixedPriority: Int64(~task.priority)
        case .earliestDeadlineFirst: task.deadline?.nanoseconds ?? .max
        }
        return Rank(urgency: urgency, sequence: sequence)
    }

    // MARK: - Slots

    /// Stores a newly submitted task in a slot of the payload table and returns its index.
    /// (An `Int32` is plenty: the table never holds more than `cores + readyCountLimit` tasks.)
    @inline(__always)
    mutating func allocateSlot(_ task: ExecutorTask, now: SimTime) -> Int32 {
        slots.insert(Slot(task: task, release: now, firstStart: now, remaining: task.cost, preemptions: 0))
    }

    /// Frees the slot of a task that has left the executor.
    @inline(__always)
    mutating func releaseSlot(_ index: Int32) {
        _ = slots.remove(index)
    }

    /// The record of the task in slot `index`, finishing (or cancelled) at `now`.
    @inline(__always)
    func record(ofSlot index: Int32, now: SimTime, core: Int, cancelled: Bool) -> TaskRecord {
        let slot = slots[index]
        // A waiting task that was never preempted never ran: it "starts" when it is dropped.
        let start = core >= 0 || slot.preemptions > 0 ? slot.firstStart : now
        return TaskRecord(task: slot.task, release: slot.release, start: start, finish: now, core: core,
                          preemptions: slot.preemptions, cancelled: cancelled)
    }

    // MARK: - Ready heap

    /// Adds a waiting task to the heap of ready tasks.
    /// - Complexity: O(log q)
    @inline(__always)
    mutating func enqueue(_ entry: Entry) {
        // Past the limit the task still waits (the model stays consistent) and the executor
        // says it is over: the model's host stops the run with an error.
        if _slowPath(ready.count >= readyCountLimit) { isOverLimit = true }
        countQueued(kind: slots[entry.slot].task.kind, by: 1)
        ready.insert(entry.slot, key: entry.rank.key)
        readyCountMax = max(readyCountMax, ready.count)
    }

    /// Removes and returns the waiting task that ranks first, if any.
    /// - Complexity: O(log q)
    @inline(__always)
    mutating func dequeue() -> Entry? {
        guard !ready.isEmpty else { return nil }
        let (key, slot) = ready.removeMin()
        countQueued(kind: slots[slot].task.kind, by: -1)
        return Entry(rank: Rank(key: key), slot: slot)
    }

    /// The waiting tasks in submission order.
    /// - Complexity: O(q log q)
    var readyInSubmissionOrder: [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(ready.count)
        ready.forEachUnordered { key, slot in entries.append(Entry(rank: Rank(key: key), slot: slot)) }
        return entries.sorted { $0.rank.sequence < $1.rank.sequence }
    }

    /// Keeps `queuedKindsMask` in step with the heap: a count per kind below 32.
    @inline(__always)
    mutating func countQueued(kind: UInt16, by change: Int32) {
        guard kind < 32 else { return }
        let count = queuedKindCounts[Int(kind)] + change
        queuedKindCounts[Int(kind)] = count
        if count == 0 { kindsQueued &= ~(1 << UInt32(kind)) } else { kindsQueued |= 1 << UInt32(kind) }
    }

    /// Forgets every queued task's kind, when the heap is emptied at once.
    mutating func clearQueuedKinds() {
        for kind in queuedKindCounts.indices { queuedKindCounts[kind] = 0 }
        kindsQueued = 0
    }
}
