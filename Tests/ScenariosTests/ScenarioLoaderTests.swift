import Foundation
import XCTest
import Sim
@testable import Scenarios

/// A temporary folder with a trace in it, for scenarios to point at.
final class ScenarioFixture {
    private let folder: TemporaryFolder
    var directory: String { folder.url.path }

    init() throws {
        folder = try TemporaryFolder(prefix: "keysim-scenario")
        try write("trace.jsonl", """
        {"keysim":"trace","version":1,"name":"tiny"}
        {"t":0,"type":"key","text":"H"}
        {"t":120,"type":"key","text":"i"}
        {"t":260,"type":"key","text":"."}

        """)
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String { try folder.write(name, text) }

    func loadError(_ text: String) throws -> ConfigError? {
        let path = try write("s.json5", text)
        do {
            _ = try ScenarioLoader.load(path: path)
            return nil
        } catch {
            return error
        }
    }
}

final class ScenarioLoaderTests: XCTestCase {
    func testDefaultsAreTheSeedKeyboard() throws {
        let fixture = try ScenarioFixture()
        let path = try fixture.write("s.json5", "{traces: ['trace.jsonl']}")
        let scenario = try ScenarioLoader.load(path: path)
        XCTAssertEqual(scenario.name, "s")
        XCTAssertEqual(scenario.replications, 10)
        XCTAssertEqual(scenario.keyboard.debounce, .sentenceAware(sentenceEnd: .milliseconds(400), otherwise: .milliseconds(2000)))
        XCTAssertEqual(scenario.keyboard.budget(for: .key)?.limit, .milliseconds(10))
        XCTAssertEqual(scenario.keyboard.budget(for: .suggestion)?.limit, .milliseconds(200))
        XCTAssertEqual(scenario.traces, [fixture.directory + "/trace.jsonl"])
    }

    func testEveryDistributionKindDecodes() throws {
        let fixture = try ScenarioFixture()
        let kinds: [(String, Distribution)] = [
            ("3", .constant(3)),
            ("{type: 'constant', valueMs: 2}", .constant(2)),
            ("{type: 'uniform', minMs: 1, maxMs: 4}", .uniform(min: 1, max: 4)),
            ("{type: 'normal', meanMs: 5, stddevMs: 1}", .normal(mean: 5, stddev: 1)),
            ("{type: 'lognormal', medianMs: 3, p99Ms: 9}", .lognormal(median: 3, p99: 9)),
            ("{type: 'lognormal', mu: 1, sigma: 0.5}", .lognormal(mu: 1, sigma: 0.5)),
            ("{type: 'exponential', meanMs: 4}", .exponential(mean: 4)),
            ("{type: 'gamma', shape: 2, scaleMs: 3}", .gamma(shape: 2, scale: 3)),
            ("{type: 'pareto', scaleMs: 1, shape: 2.5}", .pareto(scale: 1, shape: 2.5)),
            ("{type: 'empirical', samplesMs: [1, 2, 3]}", .empirical(samples: [1, 2, 3])),
            ("{type: 'quantiles', table: [[0, 1], [0.5, 2], [1, 10]]}",
             .quantileTable([QuantilePoint(p: 0, value: 1), QuantilePoint(p: 0.5, value: 2), QuantilePoint(p: 1, value: 10)])),
            ("{type: 'mixture', components: [{weight: 9, distribution: 2}, {weight: 1, distribution: {type: 'exponential', meanMs: 50}}]}",
             .mixture([MixtureComponent(weight: 9, distribution: .constant(2)),
                       MixtureComponent(weight: 1, distribution: .exponential(mean: 50))])),
        ]
        for (text, expected) in kinds {
            let path = try fixture.write("s.json5", "{traces: ['trace.jsonl'], keyboard: {work: {key: {cost: \(text)}}}}")
            XCTAssertEqual(try ScenarioLoader.load(path: path).keyboard.config(for: .key).cost, expected, text)
        }
    }

    func testBadFieldsNameTheFileLineColumnAndPath() throws {
        let fixture = try ScenarioFixture()
        let cases: [(String, String)] = [
            ("{traces: ['trace.jsonl'],\n debounce: {otherwiseMS: 3}}", "s.json5:2:26: error: debounce.otherwiseMS: unknown field 'otherwiseMS'; did you mean 'otherwiseMs'?"),
            ("{traces: ['trace.jsonl'],\n debounce: {otherwiseMs: -3}}", "s.json5:2:26: error: debounce.otherwiseMs: must not be negative (got -3)"),
            ("{traces: ['missing.jsonl']}", "s.json5:1:11: error: traces[0]: trace file not found"),
            ("{traces: []}", "s.json5:1:10: error: traces: needs at least one trace"),
            ("{}", "s.json5:1:1: error: missing required field 'traces'"),
            ("{traces: ['trace.jsonl'], keyboard: {work: {check: {cost: {type: 'cauchy'}}}}}", "keyboard.work.check.cost.type: unknown value 'cauchy'"),
            ("{traces: ['trace.jsonl'], keyboard: {threads: {main: {cores: 0}}}}", "keyboard.threads.main.cores: must be between 1 and 1024 (got 0)"),
            ("{traces: ['trace.jsonl'], replications: 2.5}", "replications: expected a whole number, found 2.5"),
            ("{traces: ['trace.jsonl'], seed: 'x'}", "seed: expected a number, found a string"),
            ("{traces: ['trace.jsonl'], keyboard: {work: {check: {thread: 'gpu'}}}}", "keyboard.work.check.thread: no thread named 'gpu'; threads: main, background, model"),
            ("{traces: ['trace.jsonl'], debounce: {policy: 'edges'}}", "debounce: missing required field 'waitMs' for policy 'edges'"),
            ("{traces: ['trace.jsonl'], budgets: {key: {ms: 0}}}", "budgets.key.ms: must be greater than 0"),
            ("{traces: ['trace.jsonl'], underlines: {offsets: 'utf8'}}", "underlines.offsets: unknown value 'utf8'"),
            ("{traces: ['trace.jsonl'],\n network: {roundTrip: {type: 'uniform', minMs: 5, maxMs: 1}}}", "network.roundTrip.maxMs: must be at least minMs (5.0)"),
            ("{traces: ['trace.jsonl'], network: {offline: [[500, 100]]}}", "network.offline[0]: expected [startMs, endMs] with start < end"),
            ("{traces: ['trace.jsonl'], cloud: {service: {type: 'lognormal', medianMs: 300, p99Ms: 100}}}", "cloud.service.p99Ms: must be greater than medianMs"),
            ("{traces: ['trace.jsonl'],, }", "s.json5:1:26: error: unexpected ',', expected a key or '}'"),
            ("{traces: ['trace.jsonl'],\n cloud: {service: {type: 'lognormal'}}}",
             "s.json5:2:19: error: cloud.service: lognormal needs 'medianMs' and 'p99Ms' (or 'mu' and 'sigma')"),
            ("{traces: ['trace.jsonl'], cloud: {service: {type: 'lognormal', medianMs: 300}}}",
             "cloud.service: lognormal needs 'medianMs' and 'p99Ms' (or 'mu' and 'sigma')"),
            ("{traces: ['trace.jsonl'], cloud: {service: {type: 'lognormal', sigma: 0.5}}}",
             "cloud.service: lognormal needs 'medianMs' and 'p99Ms' (or 'mu' and 'sigma')"),
            ("{traces: ['trace.jsonl'], network: {roundTrip: {type: 'uniform', maxMs: 5}}}", "network.roundTrip: uniform needs 'minMs' and 'maxMs'"),
            ("{traces: ['trace.jsonl'], keyboard: {work: {key: {cost: {type: 'mixture', components: [{weight: 1, distribution: {type: 'gamma'}}]}}}}}",
             "keyboard.work.key.cost.components[0].distribution: gamma needs 'shape' and 'scaleMs'"),
        ]
        for (text, expected) in cases {
            guard let error = try fixture.loadError(text) else { XCTFail("accepted: \(text)"); continue }
            XCTAssertTrue(error.description.contains(expected), "\(text)\n got: \(error)\n want: \(expected)")
        }
    }

    /// A distribution without its fields names what its type needs, for every type.
    func testEveryDistributionKindNamesItsFieldsWhenTheyAreMissing() throws {
        let fixture = try ScenarioFixture()
        let needs = [
            "constant": "constant needs 'valueMs'", "uniform": "uniform needs 'minMs' and 'maxMs'",
            "normal": "normal needs 'meanMs' and 'stddevMs'", "lognormal": "lognormal needs 'medianMs' and 'p99Ms' (or 'mu' and 'sigma')",
            "exponential": "exponential needs 'meanMs'", "gamma": "gamma needs 'shape' and 'scaleMs'",
            "pareto": "pareto needs 'scaleMs' and 'shape'", "empirical": "empirical needs 'samplesMs'",
            "quantiles": "quantiles needs 'table'", "mixture": "mixture needs 'components'",
            "weibull": "weibull needs 'shape' and 'scaleMs'", "shifted": "shifted needs 'shiftMs' and 'distribution'",
            "measured": "measured needs 'trace' and 'kind'",
        ]
        XCTAssertEqual(Set(needs.keys), Set(Distribution.configKinds))
        for kind in Distribution.configKinds {
            guard let error = try fixture.loadError("{traces: ['trace.jsonl'], keyboard: {work: {key: {cost: {type: '\(kind)'}}}}}") else {
                XCTFail("accepted \(kind)"); continue
            }
            XCTAssertTrue(error.description.hasSuffix("error: keyboard.work.key.cost: \(needs[kind]!)"), "\(kind): \(error)")
        }
    }

    func testPoliciesAndOverridesApplyInOrder() throws {
        let fixture = try ScenarioFixture()
        let path = try fixture.write("s.json5", """
        {traces: ['trace.jsonl'], debounce: {otherwiseMs: 1500},
         policies: {slow: {debounce: {otherwiseMs: 5000}}, fixed: {debounce: {policy: 'fixed', delayMs: 700}}}}
        """)
        XCTAssertEqual(try ScenarioLoader.load(path: path).keyboard.debounce,
                       .sentenceAware(sentenceEnd: .milliseconds(400), otherwise: .milliseconds(1500)))
        let slow = try ScenarioLoader.load(path: path, policy: "slow")
        XCTAssertEqual(slow.keyboard.debounce, .sentenceAware(sentenceEnd: .milliseconds(400), otherwise: .milliseconds(5000)))
        XCTAssertEqual(slow.policy, "slow")
        XCTAssertEqual(slow.policyNames, ["fixed", "slow"])
        let overridden = try ScenarioLoader.load(path: path, policy: "slow", overrides: [
            .init(path: "debounce.otherwiseMs", value: ConfigValue(.number(250))),
        ])
        XCTAssertEqual(overridden.keyboard.debounce, .sentenceAware(sentenceEnd: .milliseconds(400), otherwise: .milliseconds(250)))
        XCTAssertEqual(try ScenarioLoader.load(path: path, policy: "fixed").keyboard.debounce, .fixed(delay: .milliseconds(700)))
        XCTAssertThrowsError(try ScenarioLoader.load(path: path, policy: "nope")) { error in
            XCTAssertTrue("\(error)".contains("no policy named 'nope'; known: fixed, slow"), "\(error)")
        }
        XCTAssertThrowsError(try ScenarioLoader.load(path: path, overrides: [.init(path: "debounce.nope", value: ConfigValue(.number(1)))])) { error in
            XCTAssertTrue("\(error)".contains("debounce.nope: unknown field 'nope'"), "\(error)")
        }
    }

    func testConfigHashIgnoresLayoutButNotValues() throws {
        let a = try JSON5Parser.parse("{a: 1, b: {c: 'x'}}")
        let b = try JSON5Parser.parse("{\n  b: {c: \"x\"},  // comment\n  a: 1.0,\n}")
        let c = try JSON5Parser.parse("{a: 2, b: {c: 'x'}}")
        XCTAssertEqual(ScenarioFingerprint.configHash(a), ScenarioFingerprint.configHash(b))
        XCTAssertNotEqual(ScenarioFingerprint.configHash(a), ScenarioFingerprint.configHash(c))
    }

    func testRelativeTracePathsResolveLexically() {
        XCTAssertEqual(ScenarioLoader.resolve("../traces/t.jsonl", besides: "scenarios/s.json5"), "traces/t.jsonl")
        XCTAssertEqual(ScenarioLoader.resolve("t.jsonl", besides: "s.json5"), "t.jsonl")
        XCTAssertEqual(ScenarioLoader.resolve("../t.jsonl", besides: "s.json5"), "../t.jsonl")
        XCTAssertEqual(ScenarioLoader.resolve("t.jsonl", besides: "/a/b/s.json5"), "/a/b/t.jsonl")
        XCTAssertEqual(ScenarioLoader.resolve("/abs/t.jsonl", besides: "x/s.json5"), "/abs/t.jsonl")
    }

    func testTraceReaderStreamsEventsAndNamesBadLines() throws {
        let fixture = try ScenarioFixture()
        var reader = try TraceFileReader(path: fixture.directory + "/trace.jsonl")
        XCTAssertEqual(reader.header.name, "tiny")
        var texts: [String] = []
        while let event = try reader.nextEvent() {
            if case .key(let text, _, _) = event.kind { texts.append(text) }
        }
        XCTAssertEqual(texts, ["H", "i", "."])
        let bad = try fixture.write("bad.jsonl", "{\"keysim\":\"trace\",\"version\":1}\n{\"t\":1,\"type\":\"key\",\"text\":\"a\"}\n{\"t\":2,\"type\":\"jump\"}\n")
        var badReader = try TraceFileReader(path: bad)
        XCTAssertNotNil(try badReader.nextEvent())
        XCTAssertThrowsError(try badReader.nextEvent()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix(bad + ":3:"), text)
            XCTAssertTrue(text.contains("jump"), text)
        }
        XCTAssertThrowsError(try TraceFileReader(path: fixture.directory + "/none.jsonl")) { error in
            XCTAssertEqual((error as? InputError)?.kind, .noSuchFile)
        }
    }
}
