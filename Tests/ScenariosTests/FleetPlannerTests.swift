import XCTest
@testable import Scenarios
@testable import Sim

/// The planner: sessions follow the activity curve, counts follow their distributions, and
/// every user's draws are the user's own.
final class FleetPlannerTests: XCTestCase {
    static func fleet(_ body: String) throws -> FleetConfig {
        try XCTUnwrap(try FleetRunnerTests.scenario(body + ", " + FleetConfigTests.typists).fleet)
    }

    func testStartsFollowTheActivityCurve() throws {
        // 2,000 users × 5 sessions: per-hour counts against the curve, a chi-square bound.
        let fleet = try Self.fleet("users: 2000, sessions: { perUserDay: { fixed: 5 } }")
        for seed: UInt64 in 1...3 {
            let plans = FleetPlanner(fleet: fleet, seed: seed).plans(ofUsers: 0..<2000)
            XCTAssertEqual(plans.count, 10_000, "seed \(seed): a whole day keeps every session")
            var perHour = Array(repeating: 0, count: 24)
            for plan in plans { perHour[Int(plan.start.nanoseconds / FleetPlanner.hourNanos)] += 1 }
            var chiSquare = 0.0
            for hour in 0..<24 {
                let expected = Double(plans.count) * fleet.day.share(ofHour: hour)
                chiSquare += (Double(perHour[hour]) - expected) * (Double(perHour[hour]) - expected) / expected
            }
            // 23 degrees of freedom: P(χ² > 49.7) = 0.001.
            XCTAssertLessThan(chiSquare, 49.7, "seed \(seed): per hour \(perHour)")
            XCTAssertEqual(plans, plans.sorted { ($0.start, $0.user, $0.session) < ($1.start, $1.user, $1.session) })
        }
    }

    func testTheBusyHourKeepsItsShareOfTheDay() throws {
        let fleet = try Self.fleet("users: 4000, day: { activity: 'busy-hour' }, sessions: { perUserDay: 10 }")
        let plans = FleetPlanner(fleet: fleet, seed: 3).plans(ofUsers: 0..<4000)
        let expected = 4000 * 10 * fleet.day.spanShare
        // Poisson: the standard deviation is √expected (about 52 here); 4 of them.
        XCTAssertEqual(Double(plans.count), expected, accuracy: 4 * expected.squareRoot())
        XCTAssertTrue(plans.allSatisfy { $0.start.nanoseconds < FleetPlanner.hourNanos })
    }

    func testCountsFollowTheirDistributions() throws {
        for (count, mean, sd) in [(FleetConfig.Count.poisson(mean: 3.5), 3.5, 3.5.squareRoot()),
                                  (.poisson(mean: 800), 800, 800.squareRoot()),
                                  (.geometric(mean: 2.5), 2.5, (2.5 * 1.5).squareRoot()), (.fixed(4), 4, 0)] {
            var random = RandomStream(seed: 1, replication: 0, name: "test")
            let draws = (0..<20_000).map { _ in Double(FleetPlanner.draw(count, &random)) }
            let sampleMean = draws.reduce(0, +) / Double(draws.count)
            XCTAssertEqual(sampleMean, mean, accuracy: 4 * sd / Double(draws.count).squareRoot() + 1e-12, "\(count)")
            XCTAssertGreaterThanOrEqual(draws.min()!, count == .geometric(mean: 2.5) ? 1 : 0)
        }
    }

    func testAddingUsersNeverMovesAnotherUsersDraws() throws {
        let small = FleetPlanner(fleet: try Self.fleet("users: 10, networks: { wifi: 1, lte: 1 }"), seed: 9)
        let large = FleetPlanner(fleet: try Self.fleet("users: 30, networks: { wifi: 1, lte: 1 }"), seed: 9)
        let few = small.plans(ofUsers: 0..<10)
        XCTAssertEqual(few, large.plans(ofUsers: 0..<30).filter { $0.user < 10 })
        XCTAssertEqual(few.map(small.session), few.map(large.session))
        let other = FleetPlanner(fleet: try Self.fleet("users: 10, networks: { wifi: 1, lte: 1 }"), seed: 10)
        XCTAssertNotEqual(few, other.plans(ofUsers: 0..<10), "another seed, another day")
    }

    func testSessionsDrawTypistsNetworksAndMessages() throws {
        let fleet = try XCTUnwrap(try FleetRunnerTests.scenario("""
            users: 500, networks: { wifi: 0.6, lte: 0.35, poor: 0.05 }, sessions: { length: { fixed: 3 } },
            typists: [{ typist: 'chat', weight: 3 }, { typist: 'copying', weight: 1 }],
            texts: ['../traces/text/chat-session.txt', '../traces/text/short-messages.txt']
            """).fleet)
        let planner = FleetPlanner(fleet: fleet, seed: 4)
        let sessions = planner.plans(ofUsers: 0..<500).map(planner.session)
        XCTAssertGreaterThan(sessions.count, 3_000)
        let share = { (preset: NetworkPreset) in Double(sessions.filter { $0.network == preset }.count) / Double(sessions.count) }
        XCTAssertEqual(share(.wifi), 0.6, accuracy: 0.03)
        XCTAssertEqual(share(.lte), 0.35, accuracy: 0.03)
        XCTAssertEqual(share(.poor), 0.05, accuracy: 0.015)
        XCTAssertEqual(Double(sessions.filter { $0.typist == 0 }.count) / Double(sessions.count), 0.75, accuracy: 0.03)
        // A session types its messages in the text's order from its first, wrapping around.
        let session = sessions[0]
        let all = FleetPlanner.messages(of: session.text.script)
        let script = planner.script(of: session)
        XCTAssertEqual(script.segments.count, 3)
        XCTAssertEqual(script.segments, (0..<3).map { all[(session.firstMessage + $0) % all.count] })
        XCTAssertTrue(all.allSatisfy { if case .typed(let line) = $0 { line.filter { $0 == "\n" }.count <= 1 } else { true } })
        XCTAssertEqual(all.map { if case .typed(let line) = $0 { line } else { "" } }.joined(),
                       session.text.script.intendedText, "the messages are the text, cut at its line breaks")
    }
}
