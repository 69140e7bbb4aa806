import XCTest
@testable import Scenarios
@testable import Sim

/// A fleet run end to end: small fleets of synthesised chat sessions on a shared backend.
final class FleetRunnerTests: XCTestCase {
    /// A scenario file's text with a `fleet` section (`fleet` is its body), placed among the
    /// package's scenarios so that `../traces/text/…` resolves.
    static func scenario(_ fleet: String, extra: String = "", overrides: [ScenarioLoader.Override] = []) throws -> Scenario {
        let text = """
        {
          name: "fleet-test", seed: 7,
          debounce: { policy: "sentence-aware", sentenceEndMs: 400, otherwiseMs: 2000 },
          \(extra)
          fleet: { \(fleet) },
        }
        """
        return try ScenarioLoader.parse(text, path: PackageRoot.path + "/scenarios/fleet-test.json5", overrides: overrides)
    }

    /// A busy hour of `users` chat typists on a backend of `replicas`.
    static let busyHour = """
        users: 40, represents: 4000,
        day: { activity: "busy-hour" },
        sessions: { perUserDay: 12, length: 2 },
        typists: [{ typist: "chat", weight: 3, wpm: { mean: 36.2, sd: 13.2 } }, { typist: "copying", weight: 1 }],
        texts: ["../traces/text/chat-session.txt", "../traces/text/short-messages.txt"],
        networks: { wifi: 0.6, lte: 0.35, poor: 0.05 },
        backend: { preset: "self-hosted-small", replicas: 1 },
        """

    func testATinyFleetRunsEndToEnd() throws {
        let scenario = try Self.scenario(Self.busyHour)
        let result = try FleetRunner.run(scenario)
        let summary = result.summary
        print("sessions \(result.sessions), minutes \(result.minutes.count), arrivals \(summary.arrivals), keys \(summary.keys), "
              + "cost/day \(summary.costUSDPerDay), busiest \(String(describing: summary.busiestHour)), p95 verdict \(String(describing: summary.verdictP95Ms))")
        XCTAssertGreaterThan(result.sessions, 0)
        XCTAssertGreaterThanOrEqual(result.minutes.count, 60)
        XCTAssertEqual(result.minutes.map(\.minute), Array(0..<result.minutes.count))
        XCTAssertEqual(result.minutes.map(\.sessionsStarted).reduce(0, +), result.sessions)
        XCTAssertEqual(result.minutes.prefix(60).map(\.sessionsStarted).reduce(0, +), result.sessions, "sessions start within the span")
        XCTAssertGreaterThan(summary.keys, 0)
        XCTAssertGreaterThan(summary.arrivals, 0)
        XCTAssertEqual(summary.arrivals, summary.admitted + summary.rejected.map(\.count).reduce(0, +))
        XCTAssertGreaterThan(summary.costUSD, 0)
        XCTAssertEqual(summary.busiestHour, 21)
        XCTAssertNotNil(summary.verdictCoverage)
    }
}
