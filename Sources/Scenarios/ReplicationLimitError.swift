import Sim

/// A replication of a scenario that stopped at one of its limits (`limits.simulatedHoursMax`,
/// `limits.eventsMax`): names the scenario, the trace and the replication.
public struct ReplicationLimitError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The scenario file.
    public var scenarioPath: String
    /// The trace being replayed.
    public var tracePath: String
    /// The 0-based replication.
    public var replication: Int
    /// The limit reached.
    public var limit: RunLimitError

    /// Creates an error.
    public init(scenarioPath: String, tracePath: String, replication: Int, limit: RunLimitError) {
        self.scenarioPath = scenarioPath
        self.tracePath = tracePath
        self.replication = replication
        self.limit = limit
    }

    public var description: String {
        "\(scenarioPath): error: limits: \(tracePath), replication \(replication): \(limit)"
    }
}
