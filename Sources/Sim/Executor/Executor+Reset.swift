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
        for core in running.indices {
            guard let current = running[core] else { continue }
            precondition(now >= current.resumedAt, "an executor cannot be reset before its running task resumed")
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
}
