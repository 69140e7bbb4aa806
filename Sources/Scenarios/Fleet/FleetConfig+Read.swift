import Sim

extension FleetConfig {
    /// Reads a scenario's `fleet` section (docs/scenario-format.md, "Fleets"); paths are
    /// relative to `scenarioPath`. Every field is checked, with its place in the file.
    static func read(_ field: ConfigField, scenarioPath: String) throws(ConfigError) -> FleetConfig {
        var f = try field.object()
        let users = try f.required("users") { x throws(ConfigError) in try x.integer(in: 1...usersMax) }
        let represents = try f.optional("represents") { x throws(ConfigError) in try x.integer(in: 1...Int(Int32.max)) }
        if let represents, represents < users {
            throw f.error("represents", "must be at least users (\(users)): the simulated users stand for that many daily users")
        }
        let day = try f.optional("day", readDay) ?? Day()
        let sessions = try f.optional("sessions", readSessions) ?? Sessions()
        // `typists` (and `texts` beside it) are read as a population of typists is.
        f.allow("texts")
        guard f.has("typists") else { throw f.error("missing required field 'typists'") }
        guard f.has("texts") || Self.everyTypistHasTexts(field.value) else {
            throw f.error("typists", "needs 'texts', beside 'typists' or in every typist")
        }
        let typists = try f.required("typists") { x throws(ConfigError) -> TracePopulation in
            guard case .array = x.value.kind else { throw x.error("expected an array of typists, found \(x.value.typeName)") }
            guard case .object(let all) = field.value.kind else { throw field.error("expected an object") }
            let members = all.filter { $0.key == "typists" || $0.key == "texts" }
            let object = ConfigValue(.object(members), line: field.value.line, column: field.value.column)
            return try TracePopulation.readMembers(ConfigField(value: object, path: field.path, file: field.file), index: 0,
                                                   scenarioPath: scenarioPath)
        }
        let networks = try f.optional("networks", readNetworks) ?? []
        var preset = SharedBackendConfig.Preset.selfHostedSmall
        let backend = try f.optional("backend") { x throws(ConfigError) in try readBackend(x, preset: &preset) } ?? .preset(preset)
        let partitions = try f.optional("partitions", readPartitions)
        try f.finish()
        return FleetConfig(users: users, represents: represents, day: day, sessions: sessions, typists: typists, networks: networks,
                           backendPreset: preset, backend: backend, partitions: partitions)
    }

    private static func everyTypistHasTexts(_ fleet: ConfigValue) -> Bool {
        guard case .array(let typists)? = fleet["typists"]?.kind else { return true }
        return typists.allSatisfy { $0["texts"] != nil }
    }

    /// `day: {hours, start, activity}`: `activity` a preset's name or 24 hourly weights.
    private static func readDay(_ field: ConfigField) throws(ConfigError) -> Day {
        var d = try field.object()
        var day = Day()
        var busyHour = false
        try d.optional("activity") { x throws(ConfigError) in
            if case .string = x.value.kind {
                let name = try x.oneOf(FleetActivity.allCases.map(\.rawValue))
                let preset = FleetActivity(rawValue: name)!
                day.activityName = name
                day.activity = preset.weights
                busyHour = preset == .busyHour
                return
            }
            let weights = try x.array { w throws(ConfigError) in try w.nonNegative() }
            guard weights.count == 24 else {
                throw x.error("expected 24 hourly weights (hours 0…23) or a preset (\(FleetActivity.allCases.map(\.rawValue).joined(separator: ", "))), found \(weights.count) numbers")
            }
            guard weights.contains(where: { $0 > 0 }) else { throw x.error("needs some positive weight") }
            day.activityName = "custom"
            day.activity = weights
        }
        if busyHour {
            day.hours = 1
            day.startHour = FleetActivity.peakHour(of: day.activity)
        }
        if let hours = try d.optional("hours", { x throws(ConfigError) in try x.integer(in: 1...24) }) {
            if busyHour && hours != 1 { throw d.error("hours", "the busy hour is one hour long (got \(hours))") }
            day.hours = hours
        }
        if let start = try d.optional("start", { x throws(ConfigError) in try x.integer(in: 0...23) }) {
            if busyHour && start != day.startHour {
                throw d.error("start", "the busy hour starts at the curve's peak, hour \(day.startHour) (got \(start))")
            }
            day.startHour = start
        }
        try d.finish()
        return day
    }

    /// `sessions: {perUserDay, length}`, each a count.
    private static func readSessions(_ field: ConfigField) throws(ConfigError) -> Sessions {
        var s = try field.object()
        var sessions = Sessions()
        if let count = try s.optional("perUserDay", { x throws(ConfigError) in try readCount(x, max: 1_000) }) { sessions.perUserDay = count }
        if let count = try s.optional("length", { x throws(ConfigError) in try readCount(x, max: 1_000) }) {
            if case .fixed(0) = count { throw s.error("length", "a session types at least one message") }
            sessions.messages = count
        }
        try s.finish()
        return sessions
    }

    /// A count: a number (a Poisson mean), `{poisson: mean}`, `{fixed: n}` or
    /// `{geometric: mean}` (mean ≥ 1).
    static func readCount(_ field: ConfigField, max: Int) throws(ConfigError) -> Count {
        if case .number = field.value.kind { return .poisson(mean: try field.number(in: 0...Double(max))) }
        var c = try field.object()
        let kinds = ["poisson", "fixed", "geometric"].filter { c.has($0) }
        guard kinds.count == 1 else {
            throw field.error(kinds.isEmpty ? "expected a number (a Poisson mean) or one of {poisson: mean}, {fixed: n}, {geometric: mean}"
                              : "give one of 'poisson', 'fixed' and 'geometric', not \(kinds.joined(separator: " and "))")
        }
        let count: Count
        switch kinds[0] {
        case "poisson": count = .poisson(mean: try c.required("poisson") { x throws(ConfigError) in try x.number(in: 0...Double(max)) })
        case "fixed": count = .fixed(try c.required("fixed") { x throws(ConfigError) in try x.integer(in: 0...max) })
        default: count = .geometric(mean: try c.required("geometric") { x throws(ConfigError) in try x.number(in: 1...Double(max)) })
        }
        try c.finish()
        return count
    }

    /// `networks: {wifi: 0.6, lte: 0.35, poor: 0.05}`: presets and weights, kept in the
    /// presets' order (not the file's), so that reordering the file changes no draw.
    private static func readNetworks(_ field: ConfigField) throws(ConfigError) -> [NetworkShare] {
        var n = try field.object()
        var shares: [NetworkShare] = []
        for preset in NetworkPreset.allCases {
            if let weight = try n.optional(preset.rawValue, { x throws(ConfigError) in try x.nonNegative() }), weight > 0 {
                shares.append(NetworkShare(preset: preset, weight: weight))
            }
        }
        try n.finish()
        guard !shares.isEmpty else {
            throw field.error("needs a positive weight for some network preset (\(NetworkPreset.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return shares
    }

    /// `partitions`: a number of equal partitions, or `[{share, replicas}, …]`.
    private static func readPartitions(_ field: ConfigField) throws(ConfigError) -> [Partition] {
        if case .number = field.value.kind {
            let count = try field.integer(in: 1...partitionsMax)
            return Array(repeating: Partition(share: 1, replicas: nil), count: count)
        }
        let partitions = try field.array { x throws(ConfigError) -> Partition in
            var p = try x.object()
            let share = try p.optional("share") { y throws(ConfigError) in try y.positive() } ?? 1
            let replicas = try p.optional("replicas") { y throws(ConfigError) in try y.integer(in: 1...replicasMax) }
            try p.finish()
            return Partition(share: share, replicas: replicas)
        }
        guard !partitions.isEmpty else { throw field.error("needs at least one partition") }
        guard partitions.count <= partitionsMax else { throw field.error("has \(partitions.count) partitions; at most \(partitionsMax)") }
        return partitions
    }

    /// The most partitions a fleet may have.
    public static let partitionsMax = 10_000
    /// The most replicas a backend may have.
    static let replicasMax = 100_000
}
