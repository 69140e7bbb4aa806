import Sim

extension RunRowWriter {
    /// Writes the run's executors (`task_executors`, when it ran any task) and one compact
    /// `task_rows` row per task: ids and times as offsets from what they follow.
    mutating func writeTasks(_ tasks: RecordList<TaskObservation>, threads: [String], runID: Int64) throws {
        let x = ReportTables.taskExecutors
        try executorRows.begin(rows: tasks.isEmpty ? 0 : threads.count)
        for (code, name) in threads.enumerated() where !tasks.isEmpty {
            try executorRows.set(x.runID, runID)
            try executorRows.set(x.code, code)
            try executorRows.set(x.name, name)
            try executorRows.endRow()
        }
        try executorRows.finish()
        let c = ReportTables.taskRows
        try taskRows.begin(rows: tasks.count)
        for seq in 0..<tasks.count {
            let t = tasks[seq]
            try taskRows.set(c.runID, runID)
            try taskRows.set(c.seq, seq)
            try taskRows.set(c.executorCode, t.thread)
            try taskRows.set(c.idAfterSeq, Int64(t.id) - Int64(seq))
            try taskRows.set(c.kindCode, Int(t.kind))
            try taskRows.set(c.tag, t.tag)
            try taskRows.set(c.releaseNs, t.release.nanoseconds)
            try taskRows.set(c.waitNs, (t.start - t.release).nanoseconds)
            try taskRows.set(c.runNs, (t.finish - t.start).nanoseconds)
            try taskRows.set(c.deadlineAfterReleaseNs, t.deadline.map { ($0 - t.release).nanoseconds })
            try taskRows.set(c.core, t.core)
            try taskRows.set(c.preemptions, Int(t.preemptions))
            try taskRows.set(c.cancelled, t.cancelled)
            try taskRows.endRow()
        }
        try taskRows.finish()
    }
}
