extension KeyboardSimulation {
    /// Throws when a thread holds more waiting tasks than its executor's limit: a trace
    /// with more keys at one instant than a keyboard could queue, or costs so large that
    /// the work never drains. Checked after each trace event (each adds a few tasks at most).
    mutating func checkQueues() throws(RunLimitError) {
        for index in io.threads.indices where _slowPath(io.threads[index].isOverLimit) {
            throw RunLimitError(limit: .queuedTasks(thread: io.threads[index].config.name, limit: io.threads[index].readyCountLimit),
                                time: io.now, eventsProcessed: io.engine.eventsProcessed)
        }
    }
}
