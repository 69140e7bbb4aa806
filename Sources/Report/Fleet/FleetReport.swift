import Sim

/// A fleet run as its report holds it: who ran (the scenario, its fingerprint, the seed,
/// the users and the partitions held) and the day it measured, one `FleetMinute` a minute.
///
/// It is what `fleet_summary`, `fleet_minutes` and `fleet_histograms` store
/// (`FleetReportStore`) and read back exactly: every minute's additive figures and
/// histogram buckets. So the reports of a fleet's shards, read back and merged
/// (`merge`), give the report one machine running every partition writes.
public struct FleetReport: Sendable, Equatable {
    /// The scenario's name.
    public var scenarioName: String
    /// The scenario file as given.
    public var scenarioPath: String
    /// The scenario's fingerprint as run (overrides applied): shards of one fleet share it.
    public var fingerprint: String
    /// The seed.
    public var seed: UInt64
    /// Users simulated, every partition's.
    public var users: Int
    /// Daily users they stand for.
    public var represents: Int
    /// Partitions the fleet is split into.
    public var partitionCount: Int
    /// The 0-based partitions held, ascending.
    public var partitions: [Int]
    /// One per minute of the day, minute 0 first.
    public var minutes: [FleetMinute]
    /// Sessions simulated in the partitions held.
    public var sessions: Int
    /// Per partition held (in `partitions` order), the most sessions open at once.
    public var sessionsOpenMax: [Int]
    /// Wall-clock seconds the run took (every shard's, summed, after a merge): not digested.
    public var wallSeconds: Double

    /// Creates a report of a fleet run.
    public init(scenarioName: String, scenarioPath: String, fingerprint: String, seed: UInt64, users: Int, represents: Int,
                partitionCount: Int, partitions: [Int], minutes: [FleetMinute], sessions: Int, sessionsOpenMax: [Int],
                wallSeconds: Double = 0) {
        precondition(partitions.count == sessionsOpenMax.count, "one sessions-open figure per partition held")
        precondition(zip(partitions, partitions.dropFirst()).allSatisfy { $0 < $1 }, "partitions ascending, each once")
        precondition(minutes.indices.allSatisfy { minutes[$0].minute == $0 }, "minutes in order from minute 0")
        self.scenarioName = scenarioName
        self.scenarioPath = scenarioPath
        self.fingerprint = fingerprint
        self.seed = seed
        self.users = users
        self.represents = represents
        self.partitionCount = partitionCount
        self.partitions = partitions
        self.minutes = minutes
        self.sessions = sessions
        self.sessionsOpenMax = sessionsOpenMax
        self.wallSeconds = wallSeconds
    }

    /// Whether it holds every partition of the fleet.
    public var isWhole: Bool { partitions == Array(0..<partitionCount) }

    /// The partitions of the fleet it lacks, ascending.
    public var missingPartitions: [Int] {
        let held = Set(partitions)
        return (0..<partitionCount).filter { !held.contains($0) }
    }

    /// Adds another shard's partitions: minute by minute, every figure adds.
    /// - Throws: `FleetMergeMismatch` when the two are not shards of one fleet (scenario
    ///   fingerprint, seed, users, represents, partition count or day differ) or hold a
    ///   partition both.
    public mutating func merge(_ other: FleetReport) throws(FleetMergeMismatch) {
        func differ(_ what: String, _ mine: String, _ theirs: String) -> FleetMergeMismatch {
            FleetMergeMismatch(message: "a different \(what) (\(theirs), not \(mine))")
        }
        guard other.fingerprint == fingerprint else {
            throw FleetMergeMismatch(message: "a different scenario ('\(other.scenarioName)', fingerprint \(other.fingerprint.prefix(12)), not '\(scenarioName)', \(fingerprint.prefix(12)))")
        }
        guard other.seed == seed else { throw differ("seed", "\(seed)", "\(other.seed)") }
        guard other.users == users else { throw differ("user count", "\(users)", "\(other.users)") }
        guard other.represents == represents else { throw differ("represented users", "\(represents)", "\(other.represents)") }
        guard other.partitionCount == partitionCount else { throw differ("partition count", "\(partitionCount)", "\(other.partitionCount)") }
        guard other.minutes.count == minutes.count else { throw differ("day", "\(minutes.count) minutes", "\(other.minutes.count) minutes") }
        let overlap = Set(partitions).intersection(other.partitions).sorted()
        guard overlap.isEmpty else {
            throw FleetMergeMismatch(message: "partition(s) \(overlap.prefix(10).map(String.init).joined(separator: ", ")) held twice")
        }
        for index in minutes.indices { minutes[index].merge(other.minutes[index]) }
        let held = (Array(zip(partitions, sessionsOpenMax)) + Array(zip(other.partitions, other.sessionsOpenMax))).sorted { $0.0 < $1.0 }
        partitions = held.map(\.0)
        sessionsOpenMax = held.map(\.1)
        sessions += other.sessions
        wallSeconds += other.wallSeconds
    }
}

/// Two fleet reports that are not shards of one fleet, or share a partition.
public struct FleetMergeMismatch: Error, Sendable, Equatable, CustomStringConvertible {
    /// What differs, as "holds …" continues it.
    public var message: String
    /// Creates an error.
    public init(message: String) { self.message = message }
    public var description: String { message }
}
