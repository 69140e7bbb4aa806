import Sim

extension RunRowWriter {
    /// Writes one `debounce_events` row per arm, re-arm, cancel and fire of the run's
    /// debounce timer, in order.
    mutating func writeDebounceEvents(_ events: RecordList<DebounceObservation>, runID: Int64) throws {
        let d = ReportTables.debounceEvents
        try debounceRows.begin(rows: events.count)
        for (seq, event) in events.enumerated() {
            try debounceRows.set(d.runID, runID)
            try debounceRows.set(d.seq, seq)
            try debounceRows.set(d.timeNs, event.time.nanoseconds)
            try debounceRows.set(d.event, event.event.rawValue)
            try debounceRows.set(d.dueNs, event.due.nanoseconds)
            try debounceRows.set(d.keyIndex, event.keyIndex.map(Int64.init))
            try debounceRows.set(d.trigger, event.trigger.rawValue)
            try debounceRows.set(d.requestID, event.requestID.map(Int64.init))
            try debounceRows.endRow()
        }
        try debounceRows.finish()
    }
}
