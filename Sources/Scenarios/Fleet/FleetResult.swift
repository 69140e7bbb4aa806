import Sim

/// What a fleet run (or a shard of one: some of its partitions) produced, in additive form:
/// the shards of one run merge (`merge`) into exactly what one machine running every
/// partition reports.
public struct FleetResult: Sendable, Equatable {
    /// The scenario's name.
    public var scenarioName: String
    /// The scenario as run (`ScenarioFingerprint` of its configuration after overrides, and
    /// the content key of its typists).
    public var fingerprint: String
    /// The seed.
    public var seed: UInt64
    /// Simulated users (every partition's, held or not).
    public var users: Int
    /// Daily users they stand for.
    public var represents: Int
    /// Partitions of the whole run.
    public var partitionCount: Int
    /// The 0-based partitions this result holds, ascending.
    public var partitions: [Int]
    /// Minutes of the simulated span (the day's hours × 60); `minutes` may run on past them
    /// while the last sessions drain.
    public var spanMinutes: Int
    /// The hour of the day (0…23) minute 0 begins.
    public var startHour: Int
    /// The share of a day's sessions the span holds (1 for a whole day; the activity curve's
    /// share for fewer hours): a span's cost ÷ this is a day's.
    public var dayShare: Double
    /// One per minute, minute 0 (the span's start) first: the span's and then the drain's.
    public var minutes: [FleetMinute]
    /// Sessions simulated (the partitions held).
    public var sessions: Int
    /// Per partition held, in `partitions`' order: the most sessions open at once.
    public var sessionsOpenMax: [Int]

    /// Creates a result.
    public init(scenarioName: String, fingerprint: String, seed: UInt64, users: Int, represents: Int, partitionCount: Int,
                partitions: [Int], spanMinutes: Int, startHour: Int, dayShare: Double, minutes: [FleetMinute], sessions: Int, sessionsOpenMax: [Int]) {
        self.scenarioName = scenarioName
        self.fingerprint = fingerprint
        self.seed = seed
        self.users = users
        self.represents = represents
        self.partitionCount = partitionCount
        self.partitions = partitions
        self.spanMinutes = spanMinutes
        self.startHour = startHour
        self.dayShare = dayShare
        self.minutes = minutes
        self.sessions = sessions
        self.sessionsOpenMax = sessionsOpenMax
    }

    /// Whether it holds every partition of the run.
    public var isWhole: Bool { partitions.count == partitionCount }

    /// Adds another shard's partitions. Throws `FleetMergeError` when the two are not shards
    /// of one run (the scenario, its fingerprint, the seed, the users, the partition count or
    /// the span differ) or hold a partition both.
    public mutating func merge(_ other: FleetResult) throws(FleetMergeError) {
        func differ(_ what: String, _ mine: String, _ theirs: String) -> FleetMergeError {
            FleetMergeError("cannot merge fleet results of different \(what): \(mine) and \(theirs)")
        }
        guard scenarioName == other.scenarioName else { throw differ("scenarios", "'\(scenarioName)'", "'\(other.scenarioName)'") }
        guard fingerprint == other.fingerprint else { throw differ("scenario settings (fingerprints)", fingerprint, other.fingerprint) }
        guard seed == other.seed else { throw differ("seeds", "\(seed)", "\(other.seed)") }
        guard users == other.users, represents == other.represents else {
            throw differ("fleet sizes", "\(users) users for \(represents)", "\(other.users) users for \(other.represents)")
        }
        guard partitionCount == other.partitionCount else { throw differ("partition counts", "\(partitionCount)", "\(other.partitionCount)") }
        guard spanMinutes == other.spanMinutes, startHour == other.startHour, dayShare == other.dayShare else { throw differ("days", "\(spanMinutes) minutes", "\(other.spanMinutes) minutes") }
        let overlap = Set(partitions).intersection(other.partitions).sorted()
        guard overlap.isEmpty else {
            throw FleetMergeError("cannot merge fleet results that both hold partition\(overlap.count == 1 ? "" : "s") "
                                  + overlap.map { String($0 + 1) }.joined(separator: ", ") + " (shards overlap)")
        }
        // Minutes past one's end are that one's empty minutes, its replicas serving on.
        let count = max(minutes.count, other.minutes.count)
        var theirs = other.minutes
        Self.pad(&minutes, to: count)
        Self.pad(&theirs, to: count)
        for index in 0..<count { minutes[index].merge(theirs[index]) }
        let open = Dictionary(uniqueKeysWithValues: Array(zip(partitions, sessionsOpenMax)) + Array(zip(other.partitions, other.sessionsOpenMax)))
        partitions = (partitions + other.partitions).sorted()
        sessionsOpenMax = partitions.map { open[$0]! }
        sessions += other.sessions
    }

    /// Empty minutes appended up to `count`, with the replicas of the first minute.
    static func pad(_ minutes: inout [FleetMinute], to count: Int) {
        let replicas = minutes.first?.replicas ?? 0
        while minutes.count < count { minutes.append(FleetMinute(minute: minutes.count, replicas: replicas)) }
    }

    /// Merges results; throws as `merge` does, or for an empty list.
    public static func merged(_ results: [FleetResult]) throws(FleetMergeError) -> FleetResult {
        guard var total = results.first else { throw FleetMergeError("no fleet results to merge") }
        for result in results.dropFirst() { try total.merge(result) }
        return total
    }
}
