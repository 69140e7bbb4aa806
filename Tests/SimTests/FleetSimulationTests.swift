import XCTest
@testable import Sim

/// Many keyboard sessions sharing one backend: the co-simulation's order, its streams, its
/// determinism and the contention it adds.
final class FleetSimulationTests: XCTestCase {
    /// Words of three or five letters and a space, a key every 100 ms and a pause of
    /// `pauseMs` after each word (long enough for a 400 ms debounce to send it).
    static func trace(words: Int, pauseMs: Double = 700) -> [TraceEvent] {
        var events: [TraceEvent] = []
        var ms = 0.0
        for word in 0..<words {
            for character in "w\(String(repeating: "ab", count: 1 + word % 2)) " {
                events.append(TraceEvent(time: SimTime(milliseconds: ms), kind: .key(text: String(character), touchUp: nil, point: nil)))
                ms += 100
            }
            ms += pauseMs
        }
        return events
    }

    /// What a session left: its plan, its totals and its observations.
    struct Closed {
        var plan: FleetSessionPlan
        var summary: ReplicationSummary
        var sink: ObservationBuffer
    }

    /// Runs a fleet of `plans`, each typing `trace`, on `backend`; the sessions in plan order.
    static func runFleet(_ plans: [FleetSessionPlan], backend: SharedBackendConfig, config: KeyboardConfig = .exact, seed: UInt64 = 1,
                         trace: @escaping (FleetSessionPlan) -> [TraceEvent] = { _ in FleetSimulationTests.trace(words: 12) })
    throws -> (sessions: [Closed], fleet: FleetSimulation<ArrayTraceSource, ObservationBuffer>) {
        var closed: [Closed] = []
        var fleet = FleetSimulation<ArrayTraceSource, ObservationBuffer>(
            backend: SharedBackend(config: backend), plans: plans,
            open: { plan, _ in
                try SessionRunner(simulation: FleetSimulation<ArrayTraceSource, ObservationBuffer>.makeSimulation(
                    config: config, seed: seed, replication: 0, plan: plan), source: ArrayTraceSource(trace(plan)), sink: ObservationBuffer())
            },
            close: { plan, summary, sink in closed.append(Closed(plan: plan, summary: summary, sink: sink)) })
        try fleet.run()
        let order = Dictionary(uniqueKeysWithValues: plans.enumerated().map { (FleetSessionKey(user: $1.user, session: $1.session), $0) })
        return (closed.sorted { order[FleetSessionKey(user: $0.plan.user, session: $0.plan.session)]!
                                < order[FleetSessionKey(user: $1.plan.user, session: $1.plan.session)]! }, fleet)
    }

    /// A slow backend: one replica, one request at a time, 50 ms an output token.
    static let slow = SharedBackendConfig(replicas: 1, maxBatch: 1,
                                          iteration: .init(baseNanos: 50_000_000, perRequestNanos: 0, perPrefillTokenNanos: 0),
                                          queueLimit: 100)
    /// A backend with room for everyone.
    static let ample = SharedBackendConfig(replicas: 64, maxBatch: 1,
                                           iteration: .init(baseNanos: 20_000_000, perRequestNanos: 0, perPrefillTokenNanos: 0),
                                           queueLimit: 100)

    func testOneSessionThroughTheFleetIsTheSessionWithTheBackendInside() throws {
        let plan = FleetSessionPlan(user: 0, session: 0, start: .zero)
        let fleet = try Self.runFleet([plan], backend: Self.slow)
        var simulation = KeyboardSimulation(config: .exact, seed: 1, replication: 0, traceKey: "user0/session0",
                                            backend: SharedBackend(config: Self.slow))
        var source = ArrayTraceSource(Self.trace(words: 12))
        var sink = ObservationBuffer()
        let summary = try simulation.run(&source, into: &sink)
        XCTAssertGreaterThan(sink.requests.count, 2)
        XCTAssertEqual(fleet.sessions[0].sink.requests, sink.requests)
        XCTAssertEqual(fleet.sessions[0].sink.underlines, sink.underlines)
        XCTAssertEqual(fleet.sessions[0].summary.endTime, summary.endTime)
    }

    func testASessionsTimeIsItsOwnWhenItStarts() throws {
        let early = try Self.runFleet([FleetSessionPlan(user: 3, session: 1, start: .zero)], backend: Self.slow)
        let late = try Self.runFleet([FleetSessionPlan(user: 3, session: 1, start: SimTime(milliseconds: 3_600_000))], backend: Self.slow)
        XCTAssertEqual(early.sessions[0].sink.requests, late.sessions[0].sink.requests)
        XCTAssertEqual(late.fleet.backend.clock.milliseconds, 3_600_000 + early.fleet.backend.clock.milliseconds, accuracy: 1e-6)
    }

    func testSessionsContendForAFiniteBackend() throws {
        let plans = (0..<4).map { FleetSessionPlan(user: $0, session: 0, start: SimTime(milliseconds: 10 * Double($0))) }
        let alone = try Self.runFleet([plans[3]], backend: Self.slow).sessions[0].sink.requests
        let fleet = try Self.runFleet(plans, backend: Self.slow)
        XCTAssertEqual(fleet.sessions.map(\.plan), plans, "every session opened and closed")
        let shared = fleet.sessions[3].sink.requests
        XCTAssertEqual(alone.map(\.queueWait).reduce(SimDuration.zero, +), .zero, "alone, nothing waits")
        XCTAssertGreaterThan(shared.map(\.queueWait).reduce(SimDuration.zero, +), .zero, "the fourth session waits behind the others")
        let meter = fleet.fleet.backend.meter(at: fleet.fleet.backend.clock)
        XCTAssertGreaterThan(meter.costPicoUSD, 0)
        XCTAssertEqual(meter.costPicoUSD, fleet.sessions.map { $0.sink.requests.map(\.costPicoUSD).reduce(0, +) }.reduce(0, +),
                       "every attempt the backend began is billed to its session")
        XCTAssertEqual(meter.outputTokens, Int64(fleet.sessions.map { $0.sink.requests.map(\.outputTokens).reduce(0, +) }.reduce(0, +)))
        XCTAssertEqual(fleet.fleet.sessionsOpenMax, 4)
    }

    func testRefusalsReachTheirSessionsAndAreCountedOnBothSides() throws {
        // Admission at 150 ms to the first token on the slow backend (50 ms a token): with
        // four sessions typing at once some requests are refused, and retried or carried.
        var backend = Self.slow
        backend.admission = .init(firstTokenTarget: .milliseconds(150))
        let plans = (0..<4).map { FleetSessionPlan(user: $0, session: 0, start: SimTime(milliseconds: 10 * Double($0))) }
        let fleet = try Self.runFleet(plans, backend: backend)
        let meter = fleet.fleet.backend.meter(at: fleet.fleet.backend.clock)
        let rows = fleet.sessions.flatMap(\.sink.requests)
        XCTAssertGreaterThan(meter.rejected(.admission), 0)
        XCTAssertEqual(rows.map(\.rejections).reduce(0, +), meter.rejected(.admission), "every refusal is on its request's row")
        XCTAssertTrue(rows.contains { $0.rejection == .admission })
        XCTAssertEqual(meter.arrivals, meter.admitted + meter.rejected.reduce(0, +))
    }

    func testAddingAUserNeverMovesAnotherUsersDraws() throws {
        // Keys' latencies come from each session's own streams, whatever the backend does.
        var config = KeyboardConfig.exact
        config.work[.key]!.cost = .lognormal(median: 3, p99: 9)
        let one = try Self.runFleet([FleetSessionPlan(user: 0, session: 0, start: .zero)], backend: Self.ample, config: config)
        let two = try Self.runFleet([FleetSessionPlan(user: 1, session: 0, start: .zero), FleetSessionPlan(user: 0, session: 0, start: .zero)],
                                    backend: Self.ample, config: config)
        XCTAssertEqual(Array(one.sessions[0].sink.keys), Array(two.sessions[1].sink.keys))
        XCTAssertEqual(one.sessions[0].sink.requests, two.sessions[1].sink.requests, "no contention on an ample backend")
        XCTAssertNotEqual(Array(two.sessions[0].sink.keys).map(\.latency), Array(two.sessions[1].sink.keys).map(\.latency),
                          "two users draw their own numbers")
    }

    func testTheSameSeedGivesTheSameOutcomes() throws {
        let plans = (0..<6).map { FleetSessionPlan(user: $0 / 2, session: $0 % 2, start: SimTime(milliseconds: 500 * Double($0 / 2))) }
        var config = KeyboardConfig.exact
        config.network.goodRoundTrip = .lognormal(median: 60, p99: 300)
        let first = try Self.runFleet(plans, backend: Self.slow, config: config, seed: 9)
        let second = try Self.runFleet(plans, backend: Self.slow, config: config, seed: 9)
        XCTAssertEqual(first.sessions.map(\.sink.requests), second.sessions.map(\.sink.requests))
        XCTAssertEqual(first.fleet.backend.meter(at: first.fleet.backend.clock), second.fleet.backend.meter(at: second.fleet.backend.clock))
        let other = try Self.runFleet(plans, backend: Self.slow, config: config, seed: 10)
        XCTAssertNotEqual(first.sessions.map(\.sink.requests), other.sessions.map(\.sink.requests))
    }
}
