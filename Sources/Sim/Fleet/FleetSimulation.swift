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
/// t − start). A session with no attempt awaiting its end runs ahead of that order (its
/// steps cannot depend on anything else, nor anything else on them, until it sends), its
/// messages parked until the order reaches the step that sent them (`stepSession`,
/// `docs/engine.md`, "Running ahead").
public struct FleetSimulation<Source: TraceEventSource, Sink: ObservationSink> {
    /// The shared backend.
    public private(set) var backend: SharedBackend
    /// The sessions, ordered by (start, then as given): a session's rank is its index.
    public let plans: [FleetSessionPlan]
    /// Replies whose session had already closed (an attempt it gave up while in service).
    public private(set) var orphanReplies = 0
    /// The most sessions open at once.
    public private(set) var sessionsOpenMax = 0
    /// The latest fleet time of a step taken, in order or ahead (zero before the first): every
    /// boundary up to it has been passed to `atBoundary` when `run` returns.
    public private(set) var lastStepTime = SimTime.zero

    /// The open sessions' runners, in slots that closed sessions leave free for the next
    /// ones, so that memory follows the sessions open at once; `nil` in a free slot. A
    /// session's step state (`scheduled`) is kept beside it in an array of plain values, so
    /// that choosing a step never touches (nor copies) a runner.
    private var runners: [SessionRunner<Source, Sink>?] = []
    /// Each slot's session's next event in fleet time, once filed.
    private var scheduled: [SimTime?] = []
    /// Each slot's session's attempts sent to the backend and not yet finished (served or
    /// refused; an attempt it gave up counts until its end comes, which may be never): while
    /// none is, nothing the fleet does can change what the session does next.
    private var unanswered: [Int] = []
    /// Each slot's session's business with the fleet left from its run ahead (`stepSession`),
    /// settled when the fleet's order reaches the step it concerns (the session's `scheduled`
    /// time).
    private var parked: [Parked?] = []
    /// Sessions that closed ahead of the fleet, by (fleet time of their last step, rank): they
    /// still count as open (for `sessionsOpenMax`) until the fleet's order passes that step.
    private var closedAhead = Heap<Int>()
    /// Each slot's count of entries filed, modulo 2³²: the low half of an entry's key, after
    /// its session's rank, so that no two keys in `upcoming` are equal.
    private var filings: [UInt32] = []
    private var freeSlots: [Int] = []
    private var openCount = 0
    /// Each session's slot by rank while it is open, −1 otherwise.
    private var slotOfRank: [Int32]
    /// The open sessions' ranks by (user, session), for the backend's replies.
    private var rankOfSession: [FleetSessionKey: Int] = [:]
    /// Sessions' next events, keyed by (fleet time, rank, filing); an entry whose time is not
    /// the session's `scheduled` is stale and skipped (a reply that moves a session's next
    /// event earlier leaves the later entry behind). The same (time, rank) may be in it twice
    /// (filed again while a stale copy waits): the copies stand for one step, so their order
    /// does not matter, and whichever comes up when the session's next event is no longer
    /// then is skipped. The filing count keeps their keys apart, as the heap needs; two
    /// copies' counts could only meet after 2³² filings of one session.
    private var upcoming = Heap<Int>()
    /// The session just stepped, with its next event's fleet time, kept out of `upcoming`:
    /// a session's events come in bursts (a key, then its tasks a few milliseconds apart), so
    /// its next step is often the fleet's next, taken without filing and unfiling it. Valid
    /// while the session's `scheduled` is still that time; filed as soon as another session's
    /// entry comes first.
    private var held: (time: SimTime, rank: Int)?
    /// Whether a session is stepped on while its next event stays the fleet's next step
    /// (`stepSession`); false (for tests): one step at a time, each chosen by `nextStep`.
    var stepsInBursts = true
    /// Whether a session with no attempt unanswered steps on ahead of the fleet
    /// (`stepSession`); false (for tests): only while its next event is the fleet's next.
    var runsAhead = true
    /// If set (for tests), every step taken is appended: (fleet time, what), where what is a
    /// session step's rank, −1 − rank for a session's start and `Int.min` for the backend.
    /// A run ahead's steps are appended together, when the fleet takes its outcome.
    var stepOrder: [(time: Int64, step: Int)]?
    /// Where sessions' runs ahead go to be taken on other threads (`FleetHelpers`); nil: each
    /// is run on this thread as soon as it starts. The result is the same.
    public var helpers: (any FleetAheadDispatch)?
    /// Points a session's sink at lane k's when a helper (k = 1, 2, …) takes a run ahead of
    /// it, and back at lane 0's (this thread's) after: sinks that share something (a
    /// partition's minutes) keep a copy of it per lane. Nil: sinks share nothing.
    public var moveSink: ((inout Sink, Int) -> Void)?
    private var nextStart = 0
    private let open: (FleetSessionPlan, Int) throws -> SessionRunner<Source, Sink>
    private let close: (FleetSessionPlan, ReplicationSummary, Sink) throws -> Void

    /// Creates a fleet over `plans` (sorted by start; equal starts keep their order). `open`
    /// makes a session's runner, its simulation built with a `SessionPort` backend (as
    /// `makeSimulation` does); `close` receives a finished session's totals and sink.
    public init(backend: SharedBackend, plans: [FleetSessionPlan],
                open: @escaping (FleetSessionPlan, Int) throws -> SessionRunner<Source, Sink>,
                close: @escaping (FleetSessionPlan, ReplicationSummary, Sink) throws -> Void) {
        precondition(zip(plans, plans.dropFirst()).allSatisfy { $0.start <= $1.start }, "plans come in start order")
        precondition(plans.count < Int(Int32.max), "a fleet's ranks fit 32 bits")
        self.backend = backend
        self.plans = plans
        slotOfRank = Array(repeating: -1, count: plans.count)
        self.open = open
        self.close = close
    }

    /// A session's simulation, its random streams keyed by (seed, replication, user, session)
    /// so that adding a user or a session never moves another's draws, its requests sent to
    /// a `SessionPort`.
    public static func makeSimulation(config: consuming KeyboardConfig, seed: UInt64, replication: Int, plan: FleetSessionPlan,
                                      header: TraceHeader? = nil, caches: SimulationCaches = SimulationCaches()) -> KeyboardSimulation {
        KeyboardSimulation(config: config, seed: seed, replication: replication, traceKey: "user\(plan.user)/session\(plan.session)",
                           header: header, caches: caches, user: plan.user, session: plan.session, backend: SessionPort())
    }

    /// Runs every session to its end and the backend until idle. Throws what `open`, `close`,
    /// `atBoundary` or a session throws. `atBoundary`, if given, is called once for each
    /// boundary b = 1, 2, … of fleet time b × `boundaryNanos`, as soon as the next step lies
    /// at or after it, with b and the backend just before that step (its time no later than
    /// the boundary): a fleet reads the backend's meter at minute boundaries there. Steps
    /// that cross no boundary pay nothing for it.
    ///
    /// Specialised for the scenario-level fleet's sessions (synthesised events, minute bins):
    /// from another module a generic fleet would look up its sessions' type metadata on
    /// every step.
    @_specialize(exported: false, kind: full, where Source == ArrayTraceSource, Sink == FleetMinuteSink)
    public mutating func run(boundaryNanos: Int64 = FleetMinute.lengthNanos,
                             atBoundary: ((Int, SharedBackend) throws -> Void)? = nil) throws {
        precondition(boundaryNanos > 0, "boundaries a positive time apart")
        var nextBoundary = 1
        while let step = nextStep() {
            let time: SimTime
            switch step {
            case .start(let rank): time = plans[rank].start
            case .session(_, let at), .backend(let at): time = at
            }
            lastStepTime = max(lastStepTime, time)
            if atBoundary != nil && time.nanoseconds >= Int64(nextBoundary) * boundaryNanos {
                let backend = backend
                repeat {
                    try atBoundary!(nextBoundary, backend)
                    nextBoundary += 1
                } while time.nanoseconds >= Int64(nextBoundary) * boundaryNanos
            }
            if stepOrder != nil {
                switch step {
                case .start(let rank): stepOrder!.append((time.nanoseconds, -1 - rank))
                case .session: break  // recorded by `stepSession`, with the rest of its burst
                case .backend: stepOrder!.append((time.nanoseconds, .min))
                }
            }
            switch step {
            case .start(let rank): try start(rank)
            case .session(let rank, let time):
                // A burst may not cross the next boundary: the step at or after it waits
                // for `atBoundary` above.
                try stepSession(rank, at: time, before: atBoundary == nil ? .never : SimTime(nanoseconds: Int64(nextBoundary) * boundaryNanos))
            case .backend(let time): try wakeBackend(at: time)
            }
        }
        // Boundaries passed only by steps taken ahead: the backend did nothing after the
        // fleet's last step, so its meter there is the one it would have had.
        if let atBoundary {
            while lastStepTime.nanoseconds >= Int64(nextBoundary) * boundaryNanos {
                try atBoundary(nextBoundary, backend)
                nextBoundary += 1
            }
        }
        while !closedAhead.isEmpty { _ = closedAhead.removeMin(); openCount -= 1 }
        precondition(openCount == 0 && backend.isIdle, "every session closed and the backend idle at the end")
    }

    private enum Step { case start(Int), session(Int, SimTime), backend(SimTime) }

    /// The least of (time, rank) among the sessions' next events, the next start and the
    /// backend's wake-up (the backend ranks after every session).
    private mutating func nextStep() -> Step? {
        var best: (time: SimTime, rank: Int, step: Step)?
        while let key = upcoming.minKey {
            let rank = Int(UInt32(truncatingIfNeeded: key >> 32))
            let time = SimTime(nanoseconds: Int64(key >> 64))
            let slot = Int(slotOfRank[rank])
            if slot >= 0 && scheduled[slot] == time { best = (time, rank, .session(rank, time)); break }
            _ = upcoming.removeMin()
        }
        var bestIsHeld = false
        if let held {
            let slot = Int(slotOfRank[held.rank])
            if slot < 0 || scheduled[slot] != held.time {
                self.held = nil  // a reply moved its next event (filed then) or it closed
            } else if let heap = best, (heap.time, heap.rank) < (held.time, held.rank) {
                self.held = nil
                file(held.rank, at: held.time)
            } else {
                best = (held.time, held.rank, .session(held.rank, held.time))
                bestIsHeld = true
            }
        }
        if nextStart < plans.count {
            let plan = plans[nextStart]
            if best.map({ (plan.start, nextStart) < ($0.time, $0.rank) }) ?? true {
                best = (plan.start, nextStart, .start(nextStart))
                bestIsHeld = false
            }
        }
        if let wake = backend.nextWake, best.map({ wake < $0.time }) ?? true { return .backend(wake) }
        if case .session = best?.step {
            if bestIsHeld { held = nil } else { _ = upcoming.removeMin() }
        }
        return best?.step
    }

    /// Puts the entry (`time`, `rank`) in `upcoming`.
    private mutating func file(_ rank: Int, at time: SimTime) {
        let slot = Int(slotOfRank[rank])
        filings[slot] &+= 1
        upcoming.insert(rank, key: UInt128(UInt64(time.nanoseconds)) << 64 | UInt128(UInt64(rank) << 32 | UInt64(filings[slot])))
    }

    private mutating func start(_ rank: Int) throws {
        let plan = plans[rank]
        nextStart += 1
        let key = FleetSessionKey(user: plan.user, session: plan.session)
        precondition(rankOfSession[key] == nil, "user \(plan.user)'s session \(plan.session) is planned once")
        rankOfSession[key] = rank
        // Moved into its slot, not copied: a copy retains every reference in the keyboard,
        // and destroying the original releases them all again.
        let runner = try open(plan, rank)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            runners[slot] = consume runner
        } else {
            slot = runners.count
            runners.append(consume runner)
            scheduled.append(nil)
            filings.append(0)
            unanswered.append(0)
            parked.append(nil)
        }
        unanswered[slot] = 0
        slotOfRank[rank] = Int32(slot)
        // Sessions that closed ahead, at a step before this start, are closed by now.
        let now = UInt128(UInt64(plan.start.nanoseconds)) << 64 | UInt128(rank)
        while let least = closedAhead.minKey, least < now { _ = closedAhead.removeMin(); openCount -= 1 }
        openCount += 1
        sessionsOpenMax = max(sessionsOpenMax, openCount)
        try settle(rank, next(ofSlot: slot))
    }

    /// Runs `body` on the runner in `slot`, in place.
    private mutating func withRunner<Result>(_ slot: Int, _ body: (inout SessionRunner<Source, Sink>) throws -> Result) rethrows -> Result {
        try body(&runners[slot]!)
    }

    /// A session's state after a step, as `settle` needs it.
    private enum SessionNext {
        /// Its trace is over and nothing is pending: it closes.
        case done
        /// Nothing is pending but the backend's replies.
        case waiting
        /// Its next event, in the session's time.
        case at(SimTime)
    }

    /// The state of the session in `slot`.
    private mutating func next(ofSlot slot: Int) -> SessionNext {
        withRunner(slot) { runner in
            guard !runner.isDone else { return .done }
            return runner.nextEventTime.map(SessionNext.at) ?? .waiting
        }
    }

    /// How a burst of a session's steps ended: the messages its last step sent the backend
    /// (taken from its port), its state after that step, and whether it runs ahead of the
    /// fleet from its next event.
    private struct BurstEnd {
        var sent: [SessionPort.Message] = []
        var next: SessionNext
        var goesAhead = false
    }

    /// How a session's run ahead of the fleet ended: as a burst does (never going ahead), at
    /// its last step's fleet time, or with the error that step threw, or paused before its
    /// next step at `resume`; with its steps if `stepOrder` is kept.
    private struct AheadEnd {
        var end: BurstEnd
        var last: SimTime
        var failure: (any Error)?
        var resume: SimTime?
        var steps: [(time: Int64, step: Int)]?
    }

    /// A session's business with the fleet from its run ahead, for when the fleet's order
    /// reaches the step it concerns.
    private enum Parked {
        /// What a step taken ahead sent the backend, to hand over; the session's state after.
        case sent([SessionPort.Message], next: SessionNext)
        /// A run ahead handed to a helper, the session's runner with it, to take back.
        case away(Away, AheadRun)
        /// A step taken ahead threw this, to rethrow.
        case failed(any Error)
    }

    /// A run ahead on a helper: the session's runner, and how the run ended once it has.
    /// Its run's body holds it, so that a helper's run outlives a fleet that gave up.
    private final class Away: @unchecked Sendable {
        var runner: SessionRunner<Source, Sink>?
        var end: AheadEnd?
        init(_ runner: SessionRunner<Source, Sink>) { self.runner = runner }
    }

    /// Steps the session at `time`, then goes on stepping it while its next event stays the
    /// fleet's next step: before every other session's filed entry (by (time, rank)), the
    /// next start, the backend's wake-up (the backend ranks after every session, so a tie
    /// is the session's) and `boundary`. A session's events come in bursts (a key, then its
    /// tasks a few milliseconds apart), so most steps are taken here, without choosing them
    /// through `nextStep` or filing them. A step that sends the backend something ends the
    /// burst: the backend's wake-up may move earlier.
    ///
    /// A session none of whose attempts awaits an answer goes on further, ahead of the
    /// fleet (`runAhead`, `settleAhead`): at once on this thread, or, with `helpers`, on a
    /// helper thread while the fleet goes on, taken back when the fleet's order reaches the
    /// run's first step (filed as the session's next event until then).
    private mutating func stepSession(_ rank: Int, at time: SimTime, before boundary: SimTime) throws {
        let slot = Int(slotOfRank[rank])
        scheduled[slot] = nil
        let start = plans[rank].start
        let offset = start - SimTime.zero
        if let business = parked[slot] {
            // The fleet has reached the step this concerns, taken ahead.
            parked[slot] = nil
            switch business {
            case .sent(let messages, let next):
                hand(messages, from: slot, sessionStart: start, at: time)
                try settle(rank, next, holding: true)
            case .away(let away, let run):
                if let progress = helpers!.collect(run, at: time.nanoseconds) {
                    // A helper's run has got past this step: the fleet goes on until then.
                    parked[slot] = business
                    scheduled[slot] = SimTime(nanoseconds: progress)
                    file(rank, at: scheduled[slot]!)
                    return
                }
                let ahead = away.end!
                if let resume = ahead.resume {
                    // Taken back before a helper started it, and run a few steps here: the
                    // rest is handed over again.
                    noteSteps(of: ahead)
                    dispatch(away, rank: rank, slot: slot, from: resume)
                    return
                }
                runners[slot] = away.runner.take()
                try settleAhead(rank, slot: slot, ahead)
            case .failed(let error): throw error
            }
            return
        }
        // The least filed entry may be stale (later than its session's next event, or this
        // session's own): it only ends a burst early, where `nextStep` takes over.
        let filedLeast = upcoming.minKey ?? .max
        // The next step must come before `limitNanos`: a tie with the backend's wake-up or
        // the next start (a later rank) is the session's.
        var limitNanos = stepsInBursts ? boundary.nanoseconds : .min
        if let wake = backend.nextWake, wake.nanoseconds < limitNanos { limitNanos = wake.nanoseconds + 1 }
        if nextStart < plans.count, plans[nextStart].start.nanoseconds < limitNanos { limitNanos = plans[nextStart].start.nanoseconds + 1 }
        // (next, rank) before the least entry's (time, rank); an entry of this session's own
        // (a stale one) ends the burst.
        let rankBits = UInt128(UInt64(rank) << 32 | 0xFFFF_FFFF)
        let mayRunAhead = runsAhead && stepsInBursts && unanswered[slot] == 0
        var last = time
        var steps: [(time: Int64, step: Int)]? = stepOrder == nil ? nil : []
        let end = try withRunner(slot) { runner -> BurstEnd in
            while true {
                steps?.append((last.nanoseconds, rank))
                try runner.step()
                let sent = Self.takeSent(&runner)
                guard !runner.isDone else { return BurstEnd(sent: sent ?? [], next: .done) }
                guard let local = runner.nextEventTime else { return BurstEnd(sent: sent ?? [], next: .waiting) }
                if let sent, !sent.isEmpty { return BurstEnd(sent: sent, next: .at(local)) }
                let next = local + offset
                guard next.nanoseconds < limitNanos && UInt128(UInt64(next.nanoseconds)) << 64 | rankBits < filedLeast else {
                    return BurstEnd(next: .at(local), goesAhead: mayRunAhead)
                }
                last = next
            }
        }
        lastStepTime = max(lastStepTime, last)
        if let steps { stepOrder!.append(contentsOf: steps) }
        hand(end.sent, from: slot, sessionStart: start, at: last)
        guard end.goesAhead, case .at(let local) = end.next else { return try settle(rank, end.next, holding: true) }
        // No attempt of its own awaits an answer, and its next step is not the fleet's next:
        // it runs ahead from there.
        let first = local + offset
        guard helpers != nil else {
            let recordsSteps = stepOrder != nil
            let ahead = withRunner(slot) {
                Self.runAhead(&$0, rank: rank, from: first, offset: offset, recordsSteps: recordsSteps, stepLimit: .max, publishing: nil)
            }
            return try settleAhead(rank, slot: slot, ahead)
        }
        dispatch(Away(runners[slot].take()!), rank: rank, slot: slot, from: first)
    }

    /// How many steps of a run ahead the fleet takes itself when its order reaches a run no
    /// helper has started: some fifteen keys' worth, the rest handed over again, so that the
    /// helpers, not this thread, take most of the runs. Fewer move sessions between threads
    /// more often (16: some 10 % slower on the busy hour); more leave helpers idle (256: some
    /// 14 % slower; whole runs, 20 %), measured on this 2-core machine.
    static var stepsTakenBack: Int { 64 }

    /// Hands the session in `slot` (its runner in `away`) to the helpers, to run ahead from
    /// fleet time `first`: the session is filed there, where the fleet asks for the run.
    private mutating func dispatch(_ away: Away, rank: Int, slot: Int, from first: SimTime) {
        let moveSink = moveSink
        let recordsSteps = stepOrder != nil
        let offset = plans[rank].start - SimTime.zero
        away.end = nil
        let run = AheadRun(deadline: first.nanoseconds) { run, lane in
            if lane != 0 { moveSink?(&away.runner!.sink, lane) }
            away.end = Self.runAhead(&away.runner!, rank: rank, from: first, offset: offset, recordsSteps: recordsSteps,
                                     stepLimit: lane == 0 ? Self.stepsTakenBack : .max, publishing: lane == 0 ? nil : run)
            if lane != 0 { moveSink?(&away.runner!.sink, 0) }
        }
        parked[slot] = .away(away, run)
        scheduled[slot] = first
        file(rank, at: first)
        helpers!.submit(run)
    }

    /// What the session's last step sent the backend, taken from its port; nil when the port
    /// is idle. A port with nothing sent and no reply waiting has nothing to hand over, and
    /// its session's backend wake-up is already disarmed: the round trip through it is
    /// skipped, and no array is made (most steps are such steps, and an empty array returned
    /// from each had to be released on each).
    private static func takeSent(_ runner: inout SessionRunner<Source, Sink>) -> [SessionPort.Message]? {
        guard !runner.simulation.backendIsIdle() else { return nil }
        return runner.simulation.withBackend { port -> [SessionPort.Message] in
            var session = port as! SessionPort
            defer { port = session }
            return session.takeOutbox()
        }
    }

    /// Runs a session ahead of the fleet from its next event, at fleet time `first`, until a
    /// step sends the backend something, it is done, or it waits for the backend: until then
    /// nothing another session or the backend does can reach it, so its steps are the ones
    /// it would take in the fleet's order, and nothing else's steps depend on them. Touches
    /// nothing but the session: it may run on a helper thread (`FleetHelpers`). A step that
    /// throws ends the run with its error. After `stepLimit` steps it pauses. `publishing`:
    /// the run on a helper, whose progress it publishes after every step.
    private static func runAhead(_ runner: inout SessionRunner<Source, Sink>, rank: Int, from first: SimTime, offset: SimDuration,
                                 recordsSteps: Bool, stepLimit: Int, publishing run: AheadRun?) -> AheadEnd {
        var last = first
        var taken = 0
        var steps: [(time: Int64, step: Int)]? = recordsSteps ? [] : nil
        do {
            while true {
                steps?.append((last.nanoseconds, rank))
                try runner.step()
                let sent = takeSent(&runner)
                guard !runner.isDone else { return AheadEnd(end: BurstEnd(sent: sent ?? [], next: .done), last: last, steps: steps) }
                guard let local = runner.nextEventTime else {
                    return AheadEnd(end: BurstEnd(sent: sent ?? [], next: .waiting), last: last, steps: steps)
                }
                if let sent, !sent.isEmpty { return AheadEnd(end: BurstEnd(sent: sent, next: .at(local)), last: last, steps: steps) }
                taken += 1
                guard taken < stepLimit else {
                    return AheadEnd(end: BurstEnd(next: .at(local)), last: last, resume: local + offset, steps: steps)
                }
                last = local + offset
                run?.progress.store(last.nanoseconds, ordering: .releasing)
            }
        } catch {
            return AheadEnd(end: BurstEnd(next: .waiting), last: last, failure: error, steps: steps)
        }
    }

    /// Notes the steps a run ahead took: its last step's time, and the steps themselves when
    /// `stepOrder` is kept.
    private mutating func noteSteps(of ahead: AheadEnd) {
        lastStepTime = max(lastStepTime, ahead.last)
        if let steps = ahead.steps { stepOrder!.append(contentsOf: steps) }
    }

    /// Settles a session's run ahead of the fleet once the fleet has it (at once, or when its
    /// order reaches the run's first step): what its last step sent is parked with that step's
    /// fleet time, and handed to the backend when the fleet's order reaches that step, exactly
    /// where one step at a time would have handed it over; a step that threw is rethrown
    /// there too. A session that ended closes at once, but counts as open until the fleet
    /// passes its last step. So every session takes the same steps, and the backend receives
    /// the same messages in the same order at the same times, as one step at a time: only
    /// the interleaving of independent steps changes.
    private mutating func settleAhead(_ rank: Int, slot: Int, _ ahead: AheadEnd) throws {
        noteSteps(of: ahead)
        if let failure = ahead.failure {
            parked[slot] = .failed(failure)
        } else if !ahead.end.sent.isEmpty {
            parked[slot] = .sent(ahead.end.sent, next: ahead.end.next)
        } else if case .done = ahead.end.next {
            closedAhead.insert(rank, key: UInt128(UInt64(ahead.last.nanoseconds)) << 64 | UInt128(rank))
            return try closeSession(rank, slot: slot, countedOpen: true)
        } else {
            return try settle(rank, ahead.end.next)  // waiting for the backend
        }
        scheduled[slot] = ahead.last
        file(rank, at: ahead.last)
    }

    /// Hands the backend what the session in `slot` (started at `sessionStart`) sent in its
    /// step at fleet time `time`.
    private mutating func hand(_ messages: [SessionPort.Message], from slot: Int, sessionStart: SimTime, at time: SimTime) {
        for message in messages {
            switch message {
            case .submit(let request, let arrival):
                unanswered[slot] += 1
                _ = backend.submit(request, arrivingAt: arrival + (sessionStart - SimTime.zero))
            case .abandon(let attempt, _): backend.abandon(attempt, at: time)
            }
        }
    }

    /// Files the session's next event, or closes it when it is done. `holding` (the session
    /// just stepped, so nothing is held): keeps the next event out of `upcoming` as `held`.
    private mutating func settle(_ rank: Int, _ next: SessionNext, holding: Bool = false) throws {
        let slot = Int(slotOfRank[rank])
        let local: SimTime
        switch next {
        case .done:
            try closeSession(rank, slot: slot, countedOpen: false)
            return
        case .waiting: return  // for the backend
        case .at(let at): local = at
        }
        let time = local + (plans[rank].start - SimTime.zero)
        if let current = scheduled[slot], current <= time { return }
        scheduled[slot] = time
        if holding {
            // A copy of the entry may be filed already (a stale one): stepping the held one
            // first leaves it to be skipped, or taken for the session's next event then.
            precondition(held == nil, "one session held at a time")
            held = (time, rank)
        } else {
            file(rank, at: time)
        }
    }

    /// Closes the finished session `rank` in `slot`: its runner goes, its totals and sink to
    /// `close`. `countedOpen`: it closed ahead of the fleet, and `closedAhead` keeps it
    /// counted as open until the fleet passes its last step.
    private mutating func closeSession(_ rank: Int, slot: Int, countedOpen: Bool) throws {
        var finished = runners[slot].take()!
        scheduled[slot] = nil
        freeSlots.append(slot)
        slotOfRank[rank] = -1
        if !countedOpen { openCount -= 1 }
        let summary = finished.finish()
        rankOfSession[FleetSessionKey(user: plans[rank].user, session: plans[rank].session)] = nil
        try close(plans[rank], summary, finished.sink)
    }

    private mutating func wakeBackend(at time: SimTime) throws {
        for reply in backend.wake(at: time) {
            let key = FleetSessionKey(user: reply.id.user, session: reply.id.session)
            guard let rank = rankOfSession[key] else { orphanReplies += 1; continue }
            let local = SimTime(nanoseconds: (time - plans[rank].start).nanoseconds)
            let slot = Int(slotOfRank[rank])
            precondition(parked[slot] == nil && unanswered[slot] > 0, "a reply comes to a session with an attempt unanswered")
            if case .finished = reply.message { unanswered[slot] -= 1 }
            withRunner(slot) { runner in
                runner.simulation.withBackend { port in
                    var session = port as! SessionPort
                    session.post(reply, at: local)
                    port = session
                }
            }
            try settle(rank, next(ofSlot: Int(slotOfRank[rank])))
        }
    }
}
