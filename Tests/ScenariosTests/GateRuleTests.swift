import Foundation
import XCTest
import Sim
@testable import Scenarios

final class GateRuleTests: XCTestCase {
    func testAScenariosGatesAreReadWithPoliciesAndLeftOutOfItsHash() throws {
        let fixture = try ScenarioFixture()
        let plain = try fixture.write("plain.json5", "{ traces: ['trace.jsonl'] }")
        let gated = try fixture.write("gated.json5", """
            {
              traces: ['trace.jsonl'],
              gates: [
                { metric: "key_latency_p99_ms", max: 10, maxRegression: 0.5 },
                { metric: "requests_per_100_words", maxRegression: "5 %", confidence: 0.99, name: "cloud cost" },
              ],
              policies: { strict: { gates: [ { metric: "key_latency_p99_ms", max: 8 } ] } },
            }
            """)
        let scenario = try ScenarioLoader.load(path: gated)
        XCTAssertEqual(scenario.gates.map(\.metric), ["key_latency_p99_ms", "key_latency_p99_ms", "requests_per_100_words"])
        XCTAssertEqual(scenario.gates.map(\.bound), [.atMost(10), .regression(0.5), .relativeRegression(0.05)])
        XCTAssertEqual(scenario.gates.map(\.confidence), [0.95, 0.95, 0.99])
        XCTAssertEqual(scenario.gates[2].name, "cloud cost")
        XCTAssertEqual(scenario.gates[0].origin.line, 4)
        XCTAssertEqual(try ScenarioLoader.load(path: gated, policy: "strict").gates.map(\.bound), [.atMost(8)])
        // Rules do not change what a run measures: the resolved configuration (and so the
        // scenario's hash in every report) is that of the same file without them.
        var withoutPolicies = try ScenarioLoader.load(path: plain).resolvedConfig
        withoutPolicies = withoutPolicies.unpositioned
        let resolved = scenario.resolvedConfig.unpositioned
        XCTAssertNil(resolved["gates"])
        XCTAssertEqual(resolved["traces"], withoutPolicies["traces"])
        XCTAssertTrue(try ScenarioLoader.load(path: plain).gates.isEmpty)
        let gatedOnly = try fixture.write("gated-only.json5", "{ traces: ['trace.jsonl'], gates: [ { metric: 'key_latency_p99_ms', max: 1 } ] }")
        XCTAssertEqual(ScenarioFingerprint.configHash(try ScenarioLoader.load(path: gatedOnly).resolvedConfig),
                       ScenarioFingerprint.configHash(try ScenarioLoader.load(path: plain).resolvedConfig))
    }

    func testBadGatesAreErrorsAtTheirPlace() throws {
        let fixture = try ScenarioFixture()
        let cases: [(String, String)] = [
            ("gates: { metric: 'x' }", "gates: expected an array, found an object"),
            ("gates: [ { max: 3 } ]", "gates[0]: missing required field 'metric'"),
            ("gates: [ { metric: 'x', confidence: 0.2, max: 1 } ]", "gates[0].confidence: must be between 0.5 and 0.999"),
            ("gates: [ { metric: 'x', maxRegression: -1 } ]", "gates[0].maxRegression: must not be negative"),
            ("gates: [ { metric: 'x', maxRegression: '-5%' } ]", "gates[0].maxRegression: expected a number in the metric's unit or a percentage"),
            ("gates: [ { metric: 'x', max: 'ten' } ]", "gates[0].max: expected a number, found a string"),
            ("gates: [ { metric: 'x', maks: 10 } ]", "gates[0].maks: unknown field 'maks'; known fields: confidence, max, maxRegression, metric, min, name"),
            ("gates: [ { metric: 'x' } ]", "gates[0]: needs a bound: max, min or maxRegression"),
        ]
        for (field, message) in cases {
            let path = try fixture.write("bad.json5", "{ traces: ['trace.jsonl'], \(field) }")
            XCTAssertThrowsError(try ScenarioLoader.load(path: path), field) { error in
                XCTAssertTrue("\(error)".contains(message), "\(field): \(error)")
                XCTAssertTrue("\(error)".hasPrefix("\(path):1:"), "\(field): positioned: \(error)")
            }
        }
        let rules = try fixture.write("rules.json5", "{ gates: [ { metric: 'key_latency_p99_ms', min: 1 } ] }")
        XCTAssertEqual(try GateRuleFile.load(path: rules).map(\.bound), [.atLeast(1)])
        let noGates = try fixture.write("none.json5", "{ rules: [] }")
        XCTAssertThrowsError(try GateRuleFile.load(path: noGates)) { error in
            XCTAssertEqual("\(error)", "\(noGates):1:1: error: missing required field 'gates'")
        }
    }
}
