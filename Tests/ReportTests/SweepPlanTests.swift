import Foundation
import XCTest

@testable import Report
import Scenarios
import Sim

/// The points of a sweep over policies and debounce kinds, each field where it applies.
final class SweepPlanTests: XCTestCase {
    func parameters(_ texts: String...) throws -> [SweepParameter] { try texts.map { try SweepParameter.parse($0) } }

    func testAKindAxisTakesEachKindsOwnFields() throws {
        let plan = try SweepPlan(path: Fixtures.scenarioPath, policies: [], parameters: try parameters(
            "debounce.policy=sentence-aware,adaptive", "debounce.otherwiseMs=1000,2000", "debounce.quantile=0.8,0.9",
            "debounce.sentenceEndMs=0"), seed: nil)
        XCTAssertEqual(plan.columns, ["debounce.policy", "debounce.otherwiseMs", "debounce.quantile"])
        XCTAssertEqual(plan.points.map(\.label), [
            "debounce.policy=sentence-aware, debounce.otherwiseMs=1000", "debounce.policy=sentence-aware, debounce.otherwiseMs=2000",
            "debounce.policy=adaptive, debounce.quantile=0.8", "debounce.policy=adaptive, debounce.quantile=0.9",
        ])
        // The fixed field goes to both kinds (both have it).
        XCTAssertEqual(plan.points[1].scenario.keyboard.debounce, .sentenceAware(sentenceEnd: .zero, otherwise: .milliseconds(2000)))
        var adaptive = AdaptiveDebounce.defaults
        adaptive.quantile = 0.9
        XCTAssertEqual(plan.points[3].scenario.keyboard.debounce, .adaptive(adaptive))
        XCTAssertEqual(plan.batches[2].settingsJSON, "{\"debounce.policy\":\"adaptive\",\"debounce.quantile\":0.8}")
    }

    func testPoliciesAreAnAxisOfTheirOwn() throws {
        let plan = try SweepPlan(path: Fixtures.scenarioPath, policies: ["seed", "fixed-1s"],
                                 parameters: try parameters("debounce.otherwiseMs=1000,3000", "network.roundTrip=80"), seed: 7)
        XCTAssertEqual(plan.columns, ["policy", "debounce.otherwiseMs"])
        // fixed-1s has no otherwiseMs: one point, with the fixed network everywhere.
        XCTAssertEqual(plan.points.map(\.label), ["policy=seed, debounce.otherwiseMs=1000", "policy=seed, debounce.otherwiseMs=3000",
                                                  "policy=fixed-1s"])
        XCTAssertEqual(plan.points.map(\.scenario.seed), [7, 7, 7])
        XCTAssertEqual(plan.points[2].scenario.keyboard.debounce, .fixed(delay: .milliseconds(1000)))
        XCTAssertTrue(plan.points.allSatisfy { $0.scenario.keyboard.network.goodRoundTrip == .constant(80) })
        XCTAssertEqual(plan.batches[2].settingsJSON, "{\"policy\":\"fixed-1s\"}")
        // One policy applies at every point and is no column.
        let one = try SweepPlan(path: Fixtures.scenarioPath, policies: ["fixed-1s"], parameters: try parameters("debounce.delayMs=500,700"), seed: nil)
        XCTAssertEqual(one.columns, ["debounce.delayMs"])
        XCTAssertEqual(one.points.map(\.label), ["debounce.delayMs=500", "debounce.delayMs=700"])
    }

    func testFieldsThatApplyNowhereAndShapesThatSweepNothing() throws {
        let cases: [([String], [String], String)] = [
            ([], ["debounce.quantile=0.8,0.9"], "--set debounce.quantile applies to no point: no debounce policy of the sweep has the field 'quantile'"),
            ([], ["debounce.otherwiseMs=1000,2000", "debounce.delayMs=500"], "--set debounce.delayMs applies to no point"),
            (["seed", "seed"], [], "--policy seed is given more than once"),
            (["seed"], ["debounce.delayMs=500,600"], "--set debounce.delayMs applies to no point"),
        ]
        for (policies, texts, message) in cases {
            XCTAssertThrowsError(try SweepPlan(path: Fixtures.scenarioPath, policies: policies,
                                               parameters: try texts.map { try SweepParameter.parse($0) }, seed: nil)) { error in
                XCTAssertTrue("\(error)".contains(message), "\(texts): \(error)")
            }
        }
        // Two policies of one point each are a sweep of two points.
        XCTAssertEqual(try SweepPlan(path: Fixtures.scenarioPath, policies: ["seed", "fixed-1s"], parameters: [], seed: nil).points.count, 2)
    }
}
