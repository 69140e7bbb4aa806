#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Sim

/// Plans a fleet's day: each user's sessions and when they start, and for each session who
/// types it, what, how fast and on which network. Cheap: it synthesises nothing (a session's
/// typing is synthesised when it opens).
///
/// Every draw comes from streams of (seed, user): `fleet.sessions` for a user's day, and
/// `fleet.session.<n>` for the user's session n, so that adding a user, or a session to a
/// user, never moves another's draws.
public struct FleetPlanner: Sendable {
    /// The fleet.
    public let fleet: FleetConfig
    /// The scenario's seed.
    public let seed: UInt64
    /// Each text's messages (its typed lines, each with its line break, and its dictations),
    /// by the text's path.
    let messagesOfText: [String: [SynthScript.Segment]]
    /// The networks' weights, in the fleet's order.
    private let networkWeights: [Double]

    /// A planner for `fleet` with the scenario's `seed`.
    public init(fleet: FleetConfig, seed: UInt64) {
        self.fleet = fleet
        self.seed = seed
        var messages: [String: [SynthScript.Segment]] = [:]
        if case .typists(let typists) = fleet.typists.members {
            for text in typists.flatMap(\.texts) where messages[text.path] == nil {
                messages[text.path] = Self.messages(of: text.script)
            }
        }
        messagesOfText = messages
        networkWeights = fleet.networks.map(\.weight)
    }

    /// What one session is: its plan and its draws.
    public struct Session: Sendable, Equatable {
        /// Whose, which and when.
        public var plan: FleetSessionPlan
        /// The typist's place in the fleet's typists.
        public var typist: Int
        /// The synthesis of its typing (the typist, its seed and speed).
        public var synthesis: HumanSynthesis
        /// The text its messages come from.
        public var text: TracePopulation.Text
        /// Its first message's place among the text's, and how many it types (wrapping
        /// around to the text's start).
        public var firstMessage: Int
        /// Messages it types (at least 1).
        public var messages: Int
        /// Its network, `nil`: the scenario's own.
        public var network: NetworkPreset?
    }

    /// The sessions of `user` that start within the simulated span, in start order, each
    /// start in fleet time (zero at the span's start). The day's count is drawn, then each
    /// session's hour from the activity curve and its instant uniformly within the hour;
    /// those outside the span are dropped (a Poisson count thinned stays Poisson).
    public func plans(ofUser user: Int) -> [FleetSessionPlan] {
        var random = RandomStream(seed: seed, replication: user, name: "fleet.sessions")
        let count = Self.draw(fleet.sessions.perUserDay, &random)
        let day = fleet.day
        var plans: [FleetSessionPlan] = []
        for session in 0..<count {
            let hour = TracePopulation.pick(weights: day.activity, &random)
            let offset = Int64(random.nextInt(below: Int(Self.hourNanos)))
            let spanHour = (hour - day.startHour + 24) % 24
            guard spanHour < day.hours else { continue }
            plans.append(FleetSessionPlan(user: user, session: session, start: SimTime(nanoseconds: Int64(spanHour) * Self.hourNanos + offset)))
        }
        return plans.sorted { ($0.start, $0.session) < ($1.start, $1.session) }
    }

    /// Every session of the users `users`, in the fleet's order: by start, then user, then
    /// session.
    public func plans(ofUsers users: Range<Int>) -> [FleetSessionPlan] {
        users.flatMap(plans(ofUser:)).sorted { ($0.start, $0.user, $0.session) < ($1.start, $1.user, $1.session) }
    }

    /// The draws of a planned session, from the stream `fleet.session.<n>` of (seed, user):
    /// the typist (by weight), the text (uniformly among the typist's), the speed (when it
    /// varies), the synthesis seed, the messages and the first one, the network (by weight).
    public func session(_ plan: FleetSessionPlan) -> Session {
        guard case .typists(let typists) = fleet.typists.members else { preconditionFailure("a fleet's population is typists") }
        // The stream named `fleet.session.<n>`, its name hashed as it is read, not built.
        var random = RandomStream.Prefix(seed: seed, replication: plan.user).appending("fleet.session.")
            .appending(decimal: plan.session).stream("")
        let (index, text, speed) = TracePopulation.drawTypist(typists, &random)
        let typist = typists[index]
        let synthesis = HumanSynthesis(typist: typist.name, profile: typist.profile, seed: random.nextUInt64(), wordsPerMinute: speed,
                                       name: "user\(plan.user)/session\(plan.session)")
        let messages = max(1, Self.draw(fleet.sessions.messages, &random))
        let available = messagesOfText[text.path]!.count
        let first = random.nextInt(below: available)
        let network = fleet.networks.isEmpty ? nil : fleet.networks[TracePopulation.pick(weights: networkWeights, &random)].preset
        return Session(plan: plan, typist: index, synthesis: synthesis, text: text, firstMessage: first, messages: messages, network: network)
    }

    /// The script a session types: its messages, in the text's order from its first one,
    /// wrapping around.
    public func script(of session: Session) -> SynthScript {
        let all = messagesOfText[session.text.path]!
        return SynthScript(segments: (0..<session.messages).map { all[(session.firstMessage + $0) % all.count] })
    }

    /// The messages of a script: each typed line with its line break, each dictation.
    static func messages(of script: SynthScript) -> [SynthScript.Segment] {
        var messages: [SynthScript.Segment] = []
        for segment in script.segments {
            guard case .typed(let text) = segment else { messages.append(segment); continue }
            var line = ""
            for character in text {
                line.append(character)
                if character == "\n" { messages.append(.typed(line)); line = "" }
            }
            if !line.isEmpty { messages.append(.typed(line)) }
        }
        return messages.isEmpty ? script.segments : messages
    }

    /// An hour, nanoseconds.
    public static let hourNanos: Int64 = 3_600_000_000_000

    /// A count drawn from `count`.
    static func draw(_ count: FleetConfig.Count, _ random: inout RandomStream) -> Int {
        switch count {
        case .fixed(let n): return n
        case .poisson(let mean): return poisson(mean: mean, &random)
        case .geometric(let mean):
            guard mean > 1 else { return 1 }
            // 1 + ⌊ln U / ln(1 − p)⌋, p = 1/mean: the trials to the first success.
            return 1 + Int((log(random.nextOpenUnit()) / log(1 - 1 / mean)).rounded(.down))
        }
    }

    /// A Poisson draw by inversion (sequential search from 0), in blocks of mean ≤ 500 so
    /// that e^−mean never underflows (a sum of Poissons is Poisson).
    static func poisson(mean: Double, _ random: inout RandomStream) -> Int {
        var remaining = mean
        var total = 0
        while remaining > 0 {
            let block = min(remaining, 500)
            remaining -= block
            let u = random.nextDouble()
            var k = 0
            var p = exp(-block)
            var cumulative = p
            while u >= cumulative, k < 100_000 {
                k += 1
                p *= block / Double(k)
                cumulative += p
                if p == 0 { break }
            }
            total += k
        }
        return total
    }
}

extension FleetPlanner {
    /// The trace source a fleet session replays: its synthesised events, dictation clips
    /// already resolved beside its text (so that a fleet's sessions are all of one concrete
    /// type, run by `FleetSimulation`'s specialised loop).
    public typealias Source = ArrayTraceSource

    /// A planned session's draws and typing, made before it opens: a pure function of the
    /// plan, so it may be made on another thread, ahead of the fleet's simulation
    /// (`FleetPartitionRun`, with `--jobs` to spare), with the same result.
    public struct PreparedSession: Sendable {
        /// The session's draws.
        public var session: Session
        /// Its synthesised trace's header.
        public var header: TraceHeader
        /// Its synthesised events, dictation clips resolved.
        public var events: [TraceEvent]
    }

    /// Synthesises a planned session's typing (so that memory follows the sessions open or
    /// about to open, not the users). Throws what resolving its dictation clips throws.
    public func prepare(_ plan: FleetSessionPlan) throws -> PreparedSession {
        let session = session(plan)
        let (header, synthesised) = session.synthesis.trace(of: script(of: session))
        return PreparedSession(session: session, header: header, events: try Self.resolvingDictation(synthesised, of: session.text))
    }

    /// Opens a planned session: synthesises its typing now and opens it (`open(_:keyboard:caches:sink:)`
    /// of the prepared session). Throws what resolving its dictation clips throws.
    public func open<Sink: ObservationSink>(_ plan: FleetSessionPlan, keyboard: KeyboardConfig, caches: SimulationCaches,
                                            sink: Sink) throws -> SessionRunner<Source, Sink> {
        try open(try prepare(plan), keyboard: keyboard, caches: caches, sink: sink)
    }

    /// Opens a prepared session: its simulation built on `keyboard` with the session's
    /// network, its requests sent to a `SessionPort`, its streams keyed by (seed, user, session).
    public func open<Sink: ObservationSink>(_ prepared: PreparedSession, keyboard: KeyboardConfig, caches: SimulationCaches,
                                            sink: Sink) throws -> SessionRunner<Source, Sink> {
        // The configuration and the simulation are each handed on, not copied: a copy of a
        // keyboard retains every reference in it, and the original's end releases them again.
        let simulation = FleetSimulation<Source, Sink>.makeSimulation(
            config: Self.keyboard(keyboard, on: prepared.session.network), seed: seed, replication: 0, plan: prepared.session.plan,
            header: prepared.header, caches: caches)
        return try SessionRunner(simulation: consume simulation, source: ArrayTraceSource(prepared.events), sink: sink)
    }

    /// `keyboard` on `network` (the scenario's own network when `nil`): the keyboard a session
    /// on that network runs.
    public static func keyboard(_ keyboard: KeyboardConfig, on network: NetworkPreset?) -> KeyboardConfig {
        var config = keyboard
        if let network { config.network = network.config }
        return config
    }

    /// `events` with their dictation clips resolved beside `text`, as a trace file's reader
    /// resolves them: only a session that dictates a WAV file reads anything.
    static func resolvingDictation(_ events: [TraceEvent], of text: TracePopulation.Text) throws -> [TraceEvent] {
        guard events.contains(where: { if case .dictationStart(.wavFile) = $0.kind { true } else { false } }) else { return events }
        var resolver = DictationAudioResolver(ArrayTraceSource(events), tracePath: text.path) { _ in nil }
        var resolved: [TraceEvent] = []
        resolved.reserveCapacity(events.count)
        while let event = try resolver.next() { resolved.append(event) }
        return resolved
    }
}
