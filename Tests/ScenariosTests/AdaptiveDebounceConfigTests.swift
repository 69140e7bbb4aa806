import XCTest
import Sim
@testable import Scenarios

/// `debounce: {policy: "adaptive", …}` as scenario files write it.
final class AdaptiveDebounceConfigTests: XCTestCase {
    func testDefaultsAndEveryField() throws {
        let fixture = try ScenarioFixture()
        let plain = try fixture.write("a.json5", "{traces: ['trace.jsonl'], debounce: {policy: 'adaptive'}}")
        XCTAssertEqual(try ScenarioLoader.load(path: plain).keyboard.debounce, .adaptive(.defaults))
        let full = try fixture.write("b.json5", """
        {traces: ['trace.jsonl'], debounce: {policy: 'adaptive', quantile: 0.8, scale: 2, minMs: 300, maxMs: 2500,
                                              window: 32, warmup: 5, sentenceEndMs: 100}}
        """)
        XCTAssertEqual(try ScenarioLoader.load(path: full).keyboard.debounce, .adaptive(AdaptiveDebounce(
            quantile: 0.8, scale: 2, minimum: .milliseconds(300), maximum: .milliseconds(2500), window: 32, warmup: 5,
            sentenceEnd: .milliseconds(100))))
        // A policy overlay switching to it drops the seed policy's fields.
        let overlay = try fixture.write("c.json5", """
        {traces: ['trace.jsonl'], debounce: {sentenceEndMs: 400, otherwiseMs: 2000},
         policies: {learn: {debounce: {policy: 'adaptive', quantile: 0.95}}}}
        """)
        var expected = AdaptiveDebounce.defaults
        expected.quantile = 0.95
        XCTAssertEqual(try ScenarioLoader.load(path: overlay, policy: "learn").keyboard.debounce, .adaptive(expected))
    }

    func testBadValuesNameTheField() throws {
        let fixture = try ScenarioFixture()
        let cases: [(String, String)] = [
            ("quantile: 0", "debounce.quantile: must be between 0.01 and 1 (got 0)"),
            ("quantile: 1.5", "debounce.quantile: must be between 0.01 and 1 (got 1.5)"),
            ("scale: 0", "debounce.scale: must be between 0.1 and 20 (got 0)"),
            ("minMs: 3000", "debounce.minMs: minMs (3000) must not exceed maxMs (2000)"),
            ("minMs: 500, maxMs: 300", "debounce.maxMs: minMs (500) must not exceed maxMs (300)"),
            ("window: 0", "debounce.window: must be between 1 and 4096 (got 0)"),
            ("window: 8, warmup: 9", "debounce.warmup: must be between 0 and 8 (got 9)"),
            ("otherwiseMs: 2000", "debounce.otherwiseMs: unknown field 'otherwiseMs'"),
        ]
        for (fields, message) in cases {
            guard let error = try fixture.loadError("{traces: ['trace.jsonl'], debounce: {policy: 'adaptive', \(fields)}}") else {
                XCTFail("accepted \(fields)"); continue
            }
            XCTAssertTrue(error.description.contains("error: \(message)"), "\(fields): \(error)")
        }
    }
}

/// `--set debounce.policy=…` switches the kind whatever the order of the `--set`s.
final class DiscriminatorOverrideTests: XCTestCase {
    func testSettingAKindDropsTheOldKindsFields() throws {
        let fixture = try ScenarioFixture()
        let path = try fixture.write("s.json5", "{traces: ['trace.jsonl'], debounce: {sentenceEndMs: 300, otherwiseMs: 1500}}")
        func load(_ sets: [(String, ConfigValue)]) throws -> DebouncePolicy {
            try ScenarioLoader.load(path: path, overrides: sets.map { ScenarioLoader.Override(path: $0.0, value: $0.1) }).keyboard.debounce
        }
        let fixed = ("debounce.policy", ConfigValue(.string("fixed"))), delay = ("debounce.delayMs", ConfigValue(.number(700)))
        XCTAssertEqual(try load([fixed, delay]), .fixed(delay: .milliseconds(700)))
        XCTAssertEqual(try load([delay, fixed]), .fixed(delay: .milliseconds(700)))
        // The same kind keeps the file's fields (the file names none: sentence-aware).
        XCTAssertEqual(try load([("debounce.policy", ConfigValue(.string("sentence-aware")))]),
                       .sentenceAware(sentenceEnd: .milliseconds(300), otherwise: .milliseconds(1500)))
        XCTAssertEqual(try load([("debounce.policy", ConfigValue(.string("adaptive")))]), .adaptive(.defaults))
        XCTAssertThrowsError(try load([fixed])) { error in
            XCTAssertTrue("\(error)".contains("missing required field 'delayMs' for policy 'fixed'"), "\(error)")
        }
        // A distribution's type too.
        let network = try ScenarioLoader.load(path: path, overrides: [
            .init(path: "network.roundTrip.valueMs", value: ConfigValue(.number(80))),
            .init(path: "network.roundTrip.type", value: ConfigValue(.string("constant"))),
        ]).keyboard.network
        XCTAssertEqual(network.goodRoundTrip, .constant(80))
    }
}

/// `ScenarioLoader.debounceFields`, which sweeps read, against what the loader takes.
final class DebounceFieldTableTests: XCTestCase {
    func testEachKindTakesItsFieldsAndNoOther() throws {
        let fixture = try ScenarioFixture()
        let values: [String: String] = ["leading": "true", "trailing": "true", "on": "'word'", "quantile": "0.9", "scale": "1.5",
                                        "window": "64", "warmup": "10"]
        let every = Set(ScenarioLoader.debounceFields.flatMap(\.fields))
        for (kind, fields) in ScenarioLoader.debounceFields {
            let body = fields.map { "\($0): \(values[$0] ?? "500")" }.joined(separator: ", ")
            XCTAssertNil(try fixture.loadError("{traces: ['trace.jsonl'], debounce: {policy: '\(kind)', \(body)}}"), kind)
            for other in every.subtracting(fields).sorted() {
                let error = try fixture.loadError("{traces: ['trace.jsonl'], debounce: {policy: '\(kind)', \(body), \(other): \(values[other] ?? "500")}}")
                XCTAssertTrue(error?.description.contains("unknown field '\(other)'") ?? false, "\(kind) takes \(other)?")
            }
        }
    }
}
