extension KeyboardSimulation {
    /// Throws when a thread holds more waiting tasks than its executor's limit: a trace
    /// with more keys at one instant than a keyboard could queue, or costs so large that
    /// the work never drains. Checked after each trace event (each adds a few tasks at most).
    mutating func checkQueues() throws(RunLimitError) {
        for index in threads.indices where _slowPath(threads[index].isOverLimit) {
            throw RunLimitError(limit: .queuedTasks(thread: threads[index].config.name, limit: threads[index].readyCountLimit),
                                time: engine.now, eventsProcessed: engine.eventsProcessed)
        }
    }
}
