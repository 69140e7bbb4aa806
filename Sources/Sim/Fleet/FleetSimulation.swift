/// Many keyboard sessions sharing one backend, in one deterministic simulation.
///
/// Each session (`FleetSessionPlan`: a user, the user's session number, a start time) is a
/// `KeyboardSimulation` with its own clock, zero at its start, whose requests go to a
/// `SessionPort`; it is opened when its start comes and closed (its totals and sink handed
/// to `close`) as soon as its trace is over and nothing is pending, so that memory follows
/// the sessions active at once. All ports lead to one `SharedBackend`.
///
/// The total order (`docs/engine.md`, "A fleet"): every step is the least of
/// (fleet time, rank) among the sessions' next events, the next session's start and the
/// backend's wake-up, where a session's rank is its place in `plans` and the backend's rank
/// is after every session's. So at one instant every session acts before the backend, in
/// plan order, and within a session its own engine's order holds. That is the order of one
/// event queue holding every session's events and the backend's, keyed by
/// (time, rank, the session's own key); a session's event queue, its trace reservation and
/// the backend are each that queue's slice. A session's attempts reach the backend when the
/// session step that sent them ends (their arrival lies later, or at the same instant), and a
/// reply the backend sends at time t is due in its session at t (in the session's time,
/// t − start).
public struct FleetSimulation<Source: TraceEventSource, Sink: ObservationSink> {
    /// The shared backend.
    public private(set) var backend: SharedBackend
    /// The sessions, ordered by (start, then as given): a session's rank is its index.
    public let plans: [FleetSessionPlan]
    /// Replies whose session had already closed (an attempt it gave up while in service).
    public private(set) var orphanReplies = 0
    /// The most sessions open at once.
    public private(set) var sessionsOpenMax = 0

    private var active: [Int: ActiveSession] = [:]
    private var rankOfSession: [FleetSessionKey: Int] = [:]
    /// Sessions' next events, keyed by (fleet time, rank); an entry whose time is not the
    /// session's `scheduled` is stale and skipped. A key is never in it twice (the heap's
    /// keys are unique): a session keeps the times of its entries in `filed`.
    private var upcoming = Heap<Int>()
    private var nextStart = 0
    private let open: (FleetSessionPlan, Int) throws -> SessionRunner<Source, Sink>
    private let close: (FleetSessionPlan, ReplicationSummary, Sink) throws -> Void

    private struct ActiveSession {
        var runner: SessionRunner<Source, Sink>
        var scheduled: SimTime?
        /// The times of its entries in `upcoming`, stale ones included (a reply that moves
        /// the next event earlier leaves the later entry behind).
        var filed: [SimTime] = []
    }

    /// Creates a fleet over `plans` (sorted by start; equal starts keep their order). `open`
    /// makes a session's runner, its simulation built with a `SessionPort` backend (as
    /// `makeSimulation` does); `close` receives a finished session's totals and sink.
    public init(backend: SharedBackend, plans: [FleetSessionPlan],
                open: @escaping (FleetSessionPlan, Int) throws -> SessionRunner<Source, Sink>,
                close: @escaping (FleetSessionPlan, ReplicationSummary, Sink) throws -> Void) {
        precondition(zip(plans, plans.dropFirst()).allSatisfy { $0.start <= $1.start }, "plans come in start order")
        self.backend = backend
        self.plans = plans
        self.open = open
        self.close = close
    }

    /// A session's simulation, its random streams keyed by (seed, replication, user, session)
    /// so that adding a user or a session never moves another's draws, its requests sent to
    /// a `SessionPort`.
    public static func makeSimulation(config: KeyboardConfig, seed: UInt64, replication: Int, plan: FleetSessionPlan,
                                      header: TraceHeader? = nil, caches: SimulationCaches = SimulationCaches()) -> KeyboardSimulation {
        KeyboardSimulation(config: config, seed: seed, replication: replication, traceKey: "user\(plan.user)/session\(plan.session)",
                           header: header, caches: caches, user: plan.user, session: plan.session, backend: SessionPort())
    }

    /// Runs every session to its end and the backend until idle. Throws what `open`, `close`
    /// or a session throws. `beforeStep`, if given, sees each step's fleet time (never
    /// decreasing) and the backend just before the step is taken, the backend's time no later
    /// than the previous step's: a fleet reads the backend's meter at minute boundaries there.
    public mutating func run(beforeStep: ((SimTime, SharedBackend) throws -> Void)? = nil) throws {
        while let step = nextStep() {
            if let beforeStep {
                switch step {
                case .start(let rank): try beforeStep(plans[rank].start, backend)
                case .session(_, let time), .backend(let time): try beforeStep(time, backend)
                }
            }
            switch step {
            case .start(let rank): try start(rank)
            case .session(let rank, let time): try stepSession(rank, at: time)
            case .backend(let time): try wakeBackend(at: time)
            }
        }
        precondition(active.isEmpty && backend.isIdle, "every session closed and the backend idle at the end")
    }

    private enum Step { case start(Int), session(Int, SimTime), backend(SimTime) }

    /// The least of (time, rank) among the sessions' next events, the next start and the
    /// backend's wake-up (the backend ranks after every session).
    private mutating func nextStep() -> Step? {
        var best: (time: SimTime, rank: Int, step: Step)?
        while let key = upcoming.minKey {
            let rank = Int(UInt64(truncatingIfNeeded: key))
            let time = SimTime(nanoseconds: Int64(key >> 64))
            if active[rank]?.scheduled == time { best = (time, rank, .session(rank, time)); break }
            unfile(rank, time)
        }
        if nextStart < plans.count {
            let plan = plans[nextStart]
            if best.map({ (plan.start, nextStart) < ($0.time, $0.rank) }) ?? true { best = (plan.start, nextStart, .start(nextStart)) }
        }
        if let wake = backend.nextWake, best.map({ wake < $0.time }) ?? true { return .backend(wake) }
        if case .session(let rank, let time) = best?.step { unfile(rank, time) }
        return best?.step
    }

    /// Pops the earliest entry of `upcoming`, (`time`, `rank`).
    private mutating func unfile(_ rank: Int, _ time: SimTime) {
        _ = upcoming.removeMin()
        if let index = active[rank]?.filed.firstIndex(of: time) { active[rank]!.filed.remove(at: index) }
    }

    private mutating func start(_ rank: Int) throws {
        let plan = plans[rank]
        nextStart += 1
        let key = FleetSessionKey(user: plan.user, session: plan.session)
        precondition(rankOfSession[key] == nil, "user \(plan.user)'s session \(plan.session) is planned once")
        rankOfSession[key] = rank
        active[rank] = ActiveSession(runner: try open(plan, rank), scheduled: nil)
        sessionsOpenMax = max(sessionsOpenMax, active.count)
        try settle(rank)
    }

    private mutating func stepSession(_ rank: Int, at time: SimTime) throws {
        let start = plans[rank].start
        active[rank]!.scheduled = nil
        try active[rank]!.runner.step()
        let messages = active[rank]!.runner.simulation.withBackend { port -> [SessionPort.Message] in
            var session = port as! SessionPort
            defer { port = session }
            return session.takeOutbox()
        }
        for message in messages {
            switch message {
            case .submit(let request, let arrival): _ = backend.submit(request, arrivingAt: arrival + (start - SimTime.zero))
            case .abandon(let attempt, _): backend.abandon(attempt, at: time)
            }
        }
        try settle(rank)
    }

    /// Files the session's next event, or closes it when it is done.
    private mutating func settle(_ rank: Int) throws {
        let start = plans[rank].start
        let runner = active[rank]!.runner
        if runner.isDone {
            var finished = active.removeValue(forKey: rank)!.runner
            let summary = finished.finish()
            rankOfSession[FleetSessionKey(user: plans[rank].user, session: plans[rank].session)] = nil
            try close(plans[rank], summary, finished.sink)
            return
        }
        guard let local = runner.nextEventTime else { return }  // waiting for the backend
        let time = local + (start - SimTime.zero)
        if let scheduled = active[rank]!.scheduled, scheduled <= time { return }
        active[rank]!.scheduled = time
        if !active[rank]!.filed.contains(time) {
            active[rank]!.filed.append(time)
            upcoming.insert(rank, key: UInt128(UInt64(time.nanoseconds)) << 64 | UInt128(rank))
        }
    }

    private mutating func wakeBackend(at time: SimTime) throws {
        for reply in backend.wake(at: time) {
            let key = FleetSessionKey(user: reply.id.user, session: reply.id.session)
            guard let rank = rankOfSession[key] else { orphanReplies += 1; continue }
            let local = time - plans[rank].start
            active[rank]!.runner.simulation.withBackend { port in
                var session = port as! SessionPort
                session.post(reply, at: SimTime(nanoseconds: local.nanoseconds))
                port = session
            }
            try settle(rank)
        }
    }
}
