import Sim

/// The parsed `fleet` section of a scenario (docs/scenario-format.md, "Fleets"): how many
/// users are simulated and how many daily users they stand for, the day and its activity
/// curve, the sessions each user opens, the typists and networks a session draws, the
/// shared backend, and the independent partitions (regions) the users are split into.
public struct FleetConfig: Sendable, Equatable {
    /// Users simulated (over every partition).
    public var users: Int
    /// Daily users they stand for: costs and counts per day scale by `represents / users`.
    public var represents: Int
    /// The span of the day simulated and its activity curve.
    public var day: Day
    /// How many sessions a user opens in a day and what each types.
    public var sessions: Sessions
    /// The typists a session draws from (their profiles, weights, speeds and texts), as a
    /// population of typists is written.
    public var typists: TracePopulation
    /// The network presets a session draws one of, by weight; empty: every session on the
    /// scenario's own `network`.
    public var networks: [NetworkShare]
    /// The backend preset named (`self-hosted-small` when none was).
    public var backendPreset: SharedBackendConfig.Preset
    /// The shared backend of one partition (its `replicas` unless the partition sets its own).
    public var backend: SharedBackendConfig
    /// The partitions; one holding every user when the file gives none.
    public var partitions: [Partition]

    /// The most users a fleet simulates.
    public static let usersMax = 10_000_000

    /// Creates a fleet of `users` typed by `typists`, with every other field at its default.
    public init(users: Int, represents: Int? = nil, day: Day = Day(), sessions: Sessions = Sessions(), typists: TracePopulation,
                networks: [NetworkShare] = [], backendPreset: SharedBackendConfig.Preset = .selfHostedSmall,
                backend: SharedBackendConfig? = nil, partitions: [Partition]? = nil) {
        self.users = users
        self.represents = represents ?? users
        self.day = day
        self.sessions = sessions
        self.typists = typists
        self.networks = networks
        self.backendPreset = backendPreset
        self.backend = backend ?? .preset(backendPreset)
        self.partitions = partitions ?? [Partition(share: 1, replicas: nil)]
    }

    /// The simulated span and how activity spreads over it.
    public struct Day: Sendable, Equatable {
        /// Hours simulated, from `startHour` on (1…24).
        public var hours: Int
        /// The hour of the day (0…23) the simulated span begins at.
        public var startHour: Int
        /// The activity curve's name: a preset's, or "custom" for 24 weights given.
        public var activityName: String
        /// Relative activity in each hour of the day, 0…23 (24 non-negative weights, some positive).
        public var activity: [Double]

        /// The whole day under the messaging curve.
        public init(hours: Int = 24, startHour: Int = 0, activityName: String = FleetActivity.messaging.rawValue,
                    activity: [Double] = FleetActivity.messaging.weights) {
            self.hours = hours
            self.startHour = startHour
            self.activityName = activityName
            self.activity = activity
        }

        /// Minutes simulated (before the sessions still open at the end drain).
        public var minutes: Int { hours * 60 }

        /// The share of a day's sessions that start within the simulated span.
        public var spanShare: Double { (0..<hours).map { share(ofHour: (startHour + $0) % 24) }.reduce(0, +) }

        /// The share of a day's sessions that start in hour `hour` of the day (0…23).
        public func share(ofHour hour: Int) -> Double { activity[hour] / activity.reduce(0, +) }
    }

    /// How many sessions a user opens and what one types.
    public struct Sessions: Sendable, Equatable {
        /// Sessions a user opens in a whole day (those starting outside the simulated span are
        /// not simulated).
        public var perUserDay: Count
        /// Messages one session types (at least 1: a session of 0 messages types 1).
        public var messages: Count

        /// Poisson with mean 8.9 sessions a day (messaging apps' daily opens, Flurry 2015),
        /// geometric with mean 2 messages a session (docs/models.md, "A fleet's day").
        public init(perUserDay: Count = .poisson(mean: 8.9), messages: Count = .geometric(mean: 2)) {
            self.perUserDay = perUserDay
            self.messages = messages
        }
    }

    /// A count drawn per user or per session.
    public enum Count: Sendable, Equatable {
        /// Always this many.
        case fixed(Int)
        /// Poisson with this mean.
        case poisson(mean: Double)
        /// Geometric on 1, 2, 3… with this mean (≥ 1): "one more with probability 1 − 1/mean".
        case geometric(mean: Double)

        /// The mean count.
        public var mean: Double {
            switch self {
            case .fixed(let n): Double(n)
            case .poisson(let mean), .geometric(let mean): mean
            }
        }
    }

    /// A network preset and its weight among the fleet's networks.
    public struct NetworkShare: Sendable, Equatable {
        /// The preset.
        public var preset: NetworkPreset
        /// Its weight (any positive number; the weights need not add to 1).
        public var weight: Double
        /// Creates a share.
        public init(preset: NetworkPreset, weight: Double) {
            self.preset = preset
            self.weight = weight
        }
    }

    /// An independent region: its own users (a share of them, by user index) and its own
    /// backend replicas.
    public struct Partition: Sendable, Equatable {
        /// Its share of the users (weights; need not add to 1).
        public var share: Double
        /// Its replicas; `nil`: the backend's.
        public var replicas: Int?
        /// Creates a partition.
        public init(share: Double, replicas: Int?) {
            self.share = share
            self.replicas = replicas
        }
    }

    /// The users of each partition, as ranges of user indices: partition p holds
    /// ⌊U·S_p⌋ ..< ⌊U·S_{p+1}⌋, S the cumulative shares, so that adding a partition moves
    /// users only between neighbours and every user index belongs to exactly one.
    public func userRanges(users: Int) -> [Range<Int>] {
        let total = partitions.map(\.share).reduce(0, +)
        var cumulative = 0.0
        var bounds = [0]
        for (index, partition) in partitions.enumerated() {
            cumulative += partition.share
            bounds.append(index == partitions.count - 1 ? users : min(users, Int((Double(users) * cumulative / total).rounded(.down))))
        }
        return (0..<partitions.count).map { bounds[$0]..<max(bounds[$0], bounds[$0 + 1]) }
    }

    /// The backend of partition `index`: the fleet's, with the partition's replicas.
    public func backend(ofPartition index: Int) -> SharedBackendConfig {
        var config = backend
        if let replicas = partitions[index].replicas { config.replicas = replicas }
        return config
    }
}
