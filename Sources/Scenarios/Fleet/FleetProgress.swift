import Foundation

/// How far a fleet run has got, for a progress line.
public struct FleetProgress: Sendable, Equatable {
    /// Partitions of this run (this shard's).
    public var partitions: Int
    /// Of those, finished.
    public var partitionsDone: Int
    /// Sessions planned (this shard's partitions').
    public var sessionsPlanned: Int
    /// Sessions closed so far.
    public var sessionsDone: Int
    /// Creates a progress report.
    public init(partitions: Int, partitionsDone: Int, sessionsPlanned: Int, sessionsDone: Int) {
        self.partitions = partitions
        self.partitionsDone = partitionsDone
        self.sessionsPlanned = sessionsPlanned
        self.sessionsDone = sessionsDone
    }
}

/// Counts sessions and partitions done across the worker threads and reports them.
final class FleetProgressTracker: @unchecked Sendable {
    private let lock = NSLock()
    private var state: FleetProgress
    private let progress: (@Sendable (FleetProgress) -> Void)?

    init(partitions: Int, progress: (@Sendable (FleetProgress) -> Void)?) {
        state = FleetProgress(partitions: partitions, partitionsDone: 0, sessionsPlanned: 0, sessionsDone: 0)
        self.progress = progress
    }

    /// Adds to the counts; reports when something was done.
    func add(planned: Int = 0, done: Int = 0, partitionsDone: Int = 0) {
        guard let progress else { return }
        lock.lock()
        state.sessionsPlanned += planned
        state.sessionsDone += done
        state.partitionsDone += partitionsDone
        let now = state
        lock.unlock()
        if done > 0 || partitionsDone > 0 { progress(now) }
    }
}
