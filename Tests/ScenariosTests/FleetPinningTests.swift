import XCTest
@testable import Scenarios
@testable import Sim

/// Pins a mid-size fleet's every outcome, so that work on the speed of the shared backend and
/// of the fleet's stepping can prove it moved no result: 200 sessions of synthesised chat
/// typing against a backend near saturation, with admission control, a short queue, per-user
/// limits, retries, and timeouts that abandon attempts still queued. Every request's row
/// (its times, outcome, attempts, refusals, waits and bill), every underline's times, every
/// session's totals and the backend's meter are folded into one digest; the meter's figures
/// are asserted one by one too, so that a moved figure says where.
final class FleetPinningTests: XCTestCase {
    static let messages = [
        "are you still coming tonight? ",
        "lets meet at seven ",
        "ok see you there ",
        "bring the charger please ",
    ]

    /// 64-bit FNV-1a: a digest that is the same on every machine and every run.
    struct Digest {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        mutating func add(_ text: String) {
            for byte in text.utf8 {
                value ^= UInt64(byte)
                value = value &* 0x0000_0100_0000_01b3
            }
            value ^= 0x0a
            value = value &* 0x0000_0100_0000_01b3
        }
        mutating func add(_ number: Int64) { add(String(number)) }
        mutating func add(_ time: SimTime?) { add(time.map { String($0.nanoseconds) } ?? "-") }
        mutating func add(_ duration: SimDuration) { add(duration.nanoseconds) }
    }

    /// The backend: one replica of batches of 4, a queue of 6, admission at 1.5 s to the
    /// first token, 12 requests a minute per user (a burst of 2).
    static var backend: SharedBackendConfig {
        var limits = CloudLimits()
        limits.perUser = RateLimit(requestsPerMinute: 30, requestBurst: 3)
        return SharedBackendConfig(replicas: 1, maxBatch: 4,
                                   iteration: .init(baseNanos: 30_000_000, perRequestNanos: 2_000_000, perPrefillTokenNanos: 50_000),
                                   queueLimit: 6, admission: .init(firstTokenTarget: .milliseconds(700), retryAfter: .milliseconds(700)),
                                   limits: limits)
    }

    /// What a run of the pinned fleet gives: the digest, the meter, the fleet's own counts and
    /// its steps.
    typealias PinnedRun = (digest: UInt64, meter: SharedBackendMeter, orphans: Int, openMax: Int, requests: Int, steps: [(time: Int64, step: Int)])

    /// The pinned fleet's sessions: 100 users of two sessions each, the starts spread over
    /// two minutes, in start order.
    static let plans: [FleetSessionPlan] = {
        var random = RandomStream(seed: 27, replication: 0, name: "test.fleetPinning.starts")
        var plans = (0..<200).map { index in
            FleetSessionPlan(user: index / 2, session: index % 2, start: .zero + .milliseconds(Int64(random.nextInt(below: 120_000))))
        }
        plans.sort { ($0.start, $0.user, $0.session) < ($1.start, $1.user, $1.session) }
        return plans
    }()

    /// Runs the pinned fleet: 100 users of two sessions each, the starts spread over three
    /// minutes; returns the digest, the meter, the fleet's own counts and its steps. `inBursts`:
    /// the fleet steps a session on while its next event is the fleet's next (false: one step
    /// at a time); `runsAhead`: and further, a session with no attempt unanswered. `tickMilliseconds`: the typing's times rounded up to that tick, every task
    /// 2 ms and every round trip 40 ms, so that sessions' events, starts, requests' arrivals and the
    /// backend's steps tie at the same instants. `helpers`: threads that take the runs ahead
    /// (`FleetHelpers`), and whether the fleet `takesBack` those none has started. `configure`:
    /// changes a session's keyboard.
    static func runPinnedFleet(inBursts: Bool = true, runsAhead: Bool = true, tickMilliseconds: Int64? = nil,
                               helpers: Int = 0, takesBack: Bool = true, configure: @escaping (FleetSessionPlan, inout KeyboardConfig) -> Void = { _, _ in }) throws
        -> PinnedRun {
        var config = KeyboardConfig()
        config.debounce = .fixed(delay: .milliseconds(250))
        config.network.timeout = .milliseconds(800)
        config.network.maxAttempts = 3
        config.network.retryBackoff = .milliseconds(300)
        if tickMilliseconds != nil {
            // Every task 2 ms and every round trip 40 ms, so that requests are sent and
            // arrive at the same instants.
            for kind in KeyboardWork.allCases { config.work[kind] = WorkConfig(thread: config.config(for: kind).thread,
                                                                                priority: config.config(for: kind).priority, cost: .constant(2)) }
            config.network.goodRoundTrip = .constant(40)
            config.network.goodLoss = 0
        }
        let typist = HumanTypist(profile: .chat)
        let plans = Self.plans
        var closed: [(rank: Int, text: String)] = []
        var requests = 0
        var fleet = FleetSimulation<ArrayTraceSource, ObservationBuffer>(
            backend: SharedBackend(config: backend), plans: plans,
            open: { plan, _ in
                let text = messages[(plan.user + plan.session) % messages.count]
                var events = typist.synthesize(SynthScript(segments: [.typed(text)]), seed: UInt64(1_000 * plan.user + plan.session))
                if let tickMilliseconds {
                    let tick = tickMilliseconds * 1_000_000
                    for index in events.indices { events[index].time.nanoseconds = (events[index].time.nanoseconds + tick - 1) / tick * tick }
                }
                var config = config
                configure(plan, &config)
                return try SessionRunner(simulation: .init(config: config, seed: 11, replication: 0,
                                                           traceKey: "user\(plan.user)/session\(plan.session)",
                                                           header: TraceHeader(intendedText: text), user: plan.user, session: plan.session,
                                                           backend: SessionPort()),
                                         source: ArrayTraceSource(events), sink: ObservationBuffer(keepsTasks: false))
            },
            close: { plan, summary, sink in
                var digest = Digest()
                digest.add("\(plan.user)/\(plan.session) \(summary.endTime.nanoseconds) \(summary.eventsProcessed) \(summary.edits) "
                           + "\(summary.requests) \(summary.words) \(summary.characters)")
                for row in sink.requests {
                    digest.add("\(row.id) \(row.trigger) \(row.textVersion) \(row.characters) \(row.words) \(row.attempts) \(row.timeouts) "
                               + "\(row.offlineFailures) \(row.outcome.rawValue) \(row.stale) \(row.lostWords) \(row.inputTokens) "
                               + "\(row.cachedTokens) \(row.outputTokens) \(row.costPicoUSD) \(row.rejections) "
                               + "\(row.rejection?.rawValue ?? "-")")
                    for time in [row.sent, row.end] { digest.add(time) }
                    for span in [row.networkRoundTrip, row.service, row.limitWait, row.queueWait] { digest.add(span) }
                }
                for underline in sink.underlines {
                    digest.add("\(underline.id) \(underline.wordOrdinal) \(underline.origin) \(underline.outcome)")
                    for time in [underline.wordFinished, underline.shown, underline.confirmed, underline.end] { digest.add(time) }
                }
                requests += sink.requests.count
                closed.append((plans.firstIndex(of: plan)!, String(digest.value, radix: 16)))
            })
        fleet.stepsInBursts = inBursts
        fleet.runsAhead = runsAhead
        fleet.stepOrder = []
        let pool = helpers == 0 ? nil : FleetHelpers<Int>(threads: helpers, count: 0, window: 1, takesBack: takesBack) { $0 }
        defer { pool?.finish() }
        fleet.helpers = pool
        try fleet.run()
        if let pool, !takesBack { XCTAssertEqual(pool.takenBack, 0, "the helpers took every run") }
        if let pool { XCTAssertGreaterThan(pool.takenBack + pool.runsOnHelpers, 100, "sessions ran ahead on helpers") }
        var digest = Digest()
        for session in closed.sorted(by: { $0.rank < $1.rank }) { digest.add(session.text) }
        let meter = fleet.backend.meter(at: fleet.backend.clock)
        digest.add("\(meter)")
        return (digest.value, meter, fleet.orphanReplies, fleet.sessionsOpenMax, requests, fleet.stepOrder!)
    }

    func testThePinnedFleetsOutcomesAreExactlyThese() throws {
        let run = try Self.runPinnedFleet()
        let meter = run.meter
        print("fleet pin: digest \(String(run.digest, radix: 16)) requests \(run.requests) orphans \(run.orphans) open max \(run.openMax)")
        print("fleet pin: \(meter)")
        XCTAssertEqual([meter.arrivals, meter.admitted, meter.started, meter.served, meter.abandoned], [1_837, 913, 878, 878, 35])
        XCTAssertEqual(meter.rejected, [791, 0, 0, 0, 0, 0, 52, 81], "refusals by reason: user requests, queue full, admission")
        XCTAssertEqual([meter.queueWaitNanos, meter.inputTokens, meter.cachedTokens, meter.outputTokens, meter.costPicoUSD],
                       [224_865_975_426, 264_870, 0, 9_980, 30_479_000_000])
        XCTAssertEqual([meter.queueLengthNanos, meter.busyReplicaNanos, meter.batchedRequestNanos],
                       [233_801_764_579, 121_103_500_000, 422_434_550_000])
        XCTAssertEqual([run.requests, run.orphans, run.openMax], [1_022, 1, 30])
        XCTAssertEqual(String(run.digest, radix: 16), "9e94fc728cae5000", "every request's, underline's and session's outcome")
    }

    /// Stepping a session in bursts is an optimisation only: the fleet takes the same steps in
    /// the same order as one step at a time, here with the pinned fleet as it is and with its
    /// typing on ticks of 1 and 10 ms, where sessions, starts and the backend tie often.
    func testStepsInBurstsAreTheStepsOneAtATime() throws {
        for tick: Int64? in [nil, 1, 10] {
            let bursts = try Self.runPinnedFleet(inBursts: true, runsAhead: false, tickMilliseconds: tick)
            let single = try Self.runPinnedFleet(inBursts: false, tickMilliseconds: tick)
            XCTAssertEqual(bursts.digest, single.digest, "tick \(tick.map(String.init) ?? "none")")
            XCTAssertEqual(bursts.meter, single.meter, "tick \(tick.map(String.init) ?? "none")")
            XCTAssertEqual([bursts.orphans, bursts.openMax, bursts.requests], [single.orphans, single.openMax, single.requests])
            XCTAssertGreaterThan(bursts.requests, 500, "the fleet sends requests")
            XCTAssertEqual(bursts.steps.count, single.steps.count)
            let firstDifference = zip(bursts.steps, single.steps).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            XCTAssertNil(firstDifference, "tick \(tick.map(String.init) ?? "none"): the steps part at \(firstDifference ?? 0)")
            let ties = zip(single.steps, single.steps.dropFirst()).filter { $0.time == $1.time && $0.step != $1.step }.count
            if tick != nil { XCTAssertGreaterThan(ties, 1_000, "steps of different sessions, starts or the backend at one instant") }
        }
    }

    /// Two runs of the pinned fleet with the same outcomes, in which every session took the
    /// same steps at the same times, and the starts and the backend's wake-ups came in the
    /// same order at the same times (only sessions' steps may interleave differently).
    static func assertTheSame(_ run: PinnedRun, _ reference: PinnedRun, _ label: String, line: UInt = #line) {
        XCTAssertEqual(run.digest, reference.digest, label, line: line)
        XCTAssertEqual(run.meter, reference.meter, label, line: line)
        XCTAssertEqual([run.orphans, run.openMax, run.requests], [reference.orphans, reference.openMax, reference.requests], label, line: line)
        func bySession(_ steps: [(time: Int64, step: Int)]) -> [Int: [Int64]] {
            Dictionary(grouping: steps.filter { $0.step >= 0 }, by: \.step).mapValues { $0.map(\.time) }
        }
        XCTAssertEqual(bySession(run.steps), bySession(reference.steps), "\(label): each session's steps and their times", line: line)
        XCTAssertEqual(run.steps.filter { $0.step < 0 }.map(\.time), reference.steps.filter { $0.step < 0 }.map(\.time),
                       "\(label): the starts' and the backend's wake-ups' times", line: line)
        XCTAssertEqual(run.steps.filter { $0.step < 0 }.map(\.step), reference.steps.filter { $0.step < 0 }.map(\.step), label, line: line)
    }

    /// A session with no attempt unanswered runs ahead of the fleet; that changes only how
    /// independent steps interleave. Every session takes the same steps at the same times, the
    /// backend wakes at the same times and every outcome, the meter and the most sessions
    /// open at once are the same as one step at a time, with the fleet as pinned (refusals,
    /// retries, attempts given up, orphan replies) and with ties on ticks of 1 and 10 ms.
    func testRunningAheadTakesEverySessionsStepsAndChangesNothing() throws {
        for tick: Int64? in [nil, 1, 10] {
            let label = "tick \(tick.map(String.init) ?? "none")"
            let ahead = try Self.runPinnedFleet(inBursts: true, runsAhead: true, tickMilliseconds: tick)
            let single = try Self.runPinnedFleet(inBursts: false, tickMilliseconds: tick)
            Self.assertTheSame(ahead, single, label)
            let reordered = zip(ahead.steps, single.steps).filter { $0.0 != $0.1 }.count
            XCTAssertGreaterThan(reordered, single.steps.count / 10, "\(label): sessions ran ahead")
        }
    }

    /// Runs ahead taken on helper threads, while the fleet goes on, change nothing either:
    /// every session takes the same steps at the same times and every outcome is the same as
    /// when each run is taken at once, with one helper and with three, with the fleet taking
    /// back the runs no helper has started and with the helpers taking every one.
    func testRunsAheadOnHelperThreadsChangeNothing() throws {
        for tick: Int64? in [nil, 1, 10] {
            let inline = try Self.runPinnedFleet(tickMilliseconds: tick)
            for (helpers, takesBack) in [(1, true), (1, false), (3, true), (3, false)] {
                let label = "tick \(tick.map(String.init) ?? "none"), \(helpers) helpers, taking back \(takesBack)"
                let run = try Self.runPinnedFleet(tickMilliseconds: tick, helpers: helpers, takesBack: takesBack)
                Self.assertTheSame(run, inline, label)
            }
        }
    }

    /// A session that fails (its run limit reached) fails the fleet with the error one step
    /// at a time meets first, whether it failed in order, ahead, or ahead on a helper: a run
    /// ahead's error is rethrown when the fleet's order reaches the step that threw it.
    func testTheFirstFailureInTheFleetsOrderIsTheOneThrown() throws {
        func failure(_ run: () throws -> Void) -> String {
            do { try run() } catch { return "\(error)" }
            return "no failure"
        }
        // The first session fails late in its typing, and one that starts a second later
        // fails at once: the first fails first in the order of the steps taken (ahead), the
        // second in the fleet's.
        // The first session runs ahead through all its typing (its timer never fires) and
        // fails on its 100th event; one that starts less than a second later fails on its
        // third, earlier in the fleet's order. Taken at once, the first's failing step is
        // taken before the second even starts.
        let late = Self.plans[0]
        let early = Self.plans[1]
        XCTAssertLessThan(early.start, late.start + .seconds(1))
        let configure: (FleetSessionPlan, inout KeyboardConfig) -> Void = { plan, config in
            if plan == late {
                config.debounce = .fixed(delay: .seconds(60))
                config.limits.eventsMax = 100
            }
            if plan == early { config.limits.eventsMax = 3 }
        }
        let single = failure { _ = try Self.runPinnedFleet(inBursts: false, configure: configure) }
        XCTAssertTrue(single.contains("events"), single)
        XCTAssertEqual(failure { _ = try Self.runPinnedFleet(runsAhead: false, configure: configure) }, single, "in bursts")
        XCTAssertEqual(failure { _ = try Self.runPinnedFleet(configure: configure) }, single, "running ahead")
        for (helpers, takesBack) in [(1, true), (1, false), (3, true)] {
            XCTAssertEqual(failure { _ = try Self.runPinnedFleet(helpers: helpers, takesBack: takesBack, configure: configure) }, single,
                           "\(helpers) helpers, taking back \(takesBack)")
        }
    }
}
