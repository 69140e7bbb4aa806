extension Executor {
    /// Empties the executor at once, as when the process it belongs to is killed: every
    /// running task stops where it is and every queued task is dropped. Returns their
    /// records, marked cancelled: running tasks first (by core, `finish == now`, with the
    /// core time they used counted in `busyTime`), then queued tasks in submission order
    /// (`core == -1`). Every wake issued before the reset becomes stale, so the events the
    /// model scheduled for them are ignored by `complete(_:now:)`.
    /// - Complexity: O(q log q + cores)
    public mutating func reset(now: SimTime) -> [TaskRecord] {
        var records: [TaskRecord] = []
        records.reserveCapacity(busyCores + ready.count)
        for core in coreIndices where !self[core: core].isIdle {
            let current = self[core: core]
            precondition(now >= current.resumedAt, "an executor cannot be reset before its running task resumed")
            busyTime = busyTime + (now - current.resumedAt)
            records.append(record(ofSlot: current.slot, now: now, core: core, cancelled: true))
            self[core: core].slot = Slot.none
            self[core: core].generation &+= 1
        }
        for entry in readyInSubmissionOrder {
            records.append(record(ofSlot: entry.slot, now: now, core: -1, cancelled: true))
        }
        // Nothing runs or waits any more, so every slot is free.
        ready.removeAll()
        clearQueuedKinds()
        slots.removeAll()
        return records
    }
}
