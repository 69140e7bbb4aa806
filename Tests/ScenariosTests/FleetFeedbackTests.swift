import XCTest
@testable import Scenarios
@testable import Sim

/// Feedback through a shared backend, with real synthesised typing: a shorter debounce
/// sends more requests from every user at once, and near saturation every user's verdicts
/// come later.
final class FleetFeedbackTests: XCTestCase {
    static let text = "hey are we still on for tonight? i think the place opens at seven so we could meet a bit before. "
        + "let me know if that works, otherwise tomorrow is fine too and i can bring the book back then."

    /// Per user: requests sent and the mean time from a request's sending to its end, ms.
    static func runFleet(users: Int, debounceMs: Int64, backend: SharedBackendConfig) throws -> [(requests: Int, meanMs: Double)] {
        var config = KeyboardConfig()
        config.debounce = .fixed(delay: .milliseconds(debounceMs))
        let typist = HumanTypist(profile: .chat)
        let script = SynthScript(segments: [.typed(text)])
        // Users start 2 s apart, each typing the same message in their own rhythm.
        let plans = (0..<users).map { FleetSessionPlan(user: $0, session: 0, start: .zero + .milliseconds(2_000 * Int64($0))) }
        var perUser = Array(repeating: (requests: 0, meanMs: 0.0), count: users)
        var fleet = FleetSimulation<ArrayTraceSource, ObservationBuffer>(
            backend: SharedBackend(config: backend), plans: plans,
            open: { plan, _ in
                let events = typist.synthesize(script, seed: UInt64(100 + plan.user))
                return try SessionRunner(simulation: .init(config: config, seed: 5, replication: 0, traceKey: "user\(plan.user)/session0",
                                                           header: TraceHeader(intendedText: text), user: plan.user, session: 0,
                                                           backend: SessionPort()),
                                         source: ArrayTraceSource(events), sink: ObservationBuffer(keepsTasks: false))
            },
            close: { plan, _, sink in
                let times = sink.requests.map { ($0.end - $0.sent).milliseconds }
                perUser[plan.user] = (sink.requests.count, times.reduce(0, +) / Double(max(1, times.count)))
            })
        try fleet.run()
        return perUser
    }

    func testAShorterDebounceSendsMoreAndNearSaturationEveryUsersVerdictComesLater() throws {
        // One replica serving one request at a time: 300 input tokens prefilled in 30 ms,
        // then 20 ms a token.
        let backend = SharedBackendConfig(replicas: 1, maxBatch: 1,
                                          iteration: .init(baseNanos: 20_000_000, perRequestNanos: 0, perPrefillTokenNanos: 100_000),
                                          queueLimit: 1_000)
        let long = try Self.runFleet(users: 8, debounceMs: 1_000, backend: backend)
        let short = try Self.runFleet(users: 8, debounceMs: 400, backend: backend)
        print("requests per user, 1,000 ms: \(long.map(\.requests)); 400 ms: \(short.map(\.requests))")
        print("mean verdict ms, 1,000 ms: \(long.map { Int($0.meanMs) }); 400 ms: \(short.map { Int($0.meanMs) })")
        for user in 0..<8 {
            XCTAssertGreaterThan(short[user].requests, long[user].requests, "user \(user) sends more")
            XCTAssertGreaterThan(short[user].meanMs, long[user].meanMs, "user \(user) waits longer for a verdict")
        }
    }
}
