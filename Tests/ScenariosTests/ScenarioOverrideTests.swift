import Foundation
import Sim
import XCTest
@testable import Scenarios

/// `--set` on the fields a scenario file sets: each value checked exactly as the same value
/// written in the file (issue 29 #5), and long names reported in one short line (#3).
final class ScenarioOverrideTests: XCTestCase {
    let base = "{traces: ['trace.jsonl'], debounce: {otherwiseMs: 2000}, policies: {slow: {debounce: {otherwiseMs: 3000}}}}"

    private func load(_ fixture: ScenarioFixture, text: String? = nil, policy: String? = nil,
                      _ overrides: [(String, String)]) throws -> Scenario {
        let path = try fixture.write("s.json5", text ?? base)
        return try ScenarioLoader.load(path: path, policy: policy, overrides: try overrides.map { try ScenarioLoader.Override.parse("\($0.0)=\($0.1)") })
    }

    private func loadError(_ fixture: ScenarioFixture, text: String? = nil, policy: String? = nil,
                           _ overrides: [(String, String)]) throws -> String {
        do {
            _ = try load(fixture, text: text, policy: policy, overrides)
            XCTFail("\(overrides) loaded")
            return ""
        } catch let error as ConfigError {
            return error.description
        }
    }

    private func otherwise(_ scenario: Scenario) -> SimDuration? {
        if case .sentenceAware(_, let otherwise) = scenario.keyboard.debounce { return otherwise }
        return nil
    }

    func testSetPoliciesReplacesTheFilesPoliciesAndChecksThemAsTheFileWould() throws {
        let fixture = try ScenarioFixture()
        let fast = try load(fixture, policy: "fast", [("policies", "{fast: {debounce: {otherwiseMs: 500}}}")])
        XCTAssertEqual(otherwise(fast), .milliseconds(500))
        XCTAssertEqual(fast.policyNames, ["fast"])
        let edited = try load(fixture, policy: "slow", [("policies.slow.debounce.otherwiseMs", "4500")])
        XCTAssertEqual(otherwise(edited), .milliseconds(4500))
        // The same bad values in the file and on the command line: the same errors.
        let file = try fixture.write("bad.json5", "{traces: ['trace.jsonl'], policies: {a: {bogus: 1}}}")
        XCTAssertThrowsError(try ScenarioLoader.load(path: file)) {
            XCTAssertTrue("\($0)".hasSuffix("error: policies.a.bogus: unknown field 'bogus'; known fields: budgets, checker, cloud, debounce, description, detail, dictation, fleet, gates, keyboard, languages, limits, memory, name, network, policies, replications, seed, token, traces, typing, underlines"), "\($0)")
        }
        let path = fixture.directory + "/s.json5"
        XCTAssertEqual(try loadError(fixture, [("policies", "{a: {bogus: 1}}")]),
                       "\(path): error: policies.a.bogus: unknown field 'bogus'; known fields: budgets, checker, cloud, debounce, description, detail, dictation, fleet, gates, keyboard, languages, limits, memory, name, network, policies, replications, seed, token, traces, typing, underlines")
        XCTAssertEqual(try loadError(fixture, [("policies", "[\"../traces\"]")]),
                       "\(path): error: policies: expected an object of named overlays, found an array")
        XCTAssertEqual(try loadError(fixture, [("policies.slow", "\"../traces\"")]),
                       "\(path): error: policies.slow: expected an object that overrides scenario fields")
        XCTAssertEqual(try loadError(fixture, [("policies.slow.debounce.otherwiseMs", "-1")]),
                       "\(path): error: policies.slow.debounce.otherwiseMs: must not be negative (got -1)")
        XCTAssertEqual(try loadError(fixture, policy: "slow", [("policies", "{}")]),
                       "\(path): error: policies: no policy named 'slow'; the file defines none")
    }

    func testSetIncludeIncludesAsTheFileWould() throws {
        let fixture = try ScenarioFixture()
        try fixture.write("costs.json5", "{debounce: {otherwiseMs: 750}}")
        XCTAssertEqual(otherwise(try load(fixture, [("include", "[\"costs.json5\"]")])), .milliseconds(750))
        XCTAssertEqual(otherwise(try load(fixture, [("include", "costs.json5")])), .milliseconds(750), "a plain name")
        // A --set of a field still applies last, over the include.
        XCTAssertEqual(otherwise(try load(fixture, [("debounce.otherwiseMs", "900"), ("include", "costs.json5")])), .milliseconds(900))
        XCTAssertEqual(otherwise(try load(fixture, policy: "slow", [("policies.slow.include", "costs.json5")])), .milliseconds(750))
        let path = fixture.directory + "/s.json5"
        XCTAssertEqual(try loadError(fixture, [("include", "[\"missing.json5\"]")]),
                       "\(path): error: include: included file not found: \(fixture.directory)/missing.json5")
        XCTAssertEqual(try loadError(fixture, [("include", "[1]")]), "\(path): error: include: expected a file name, found a number")
        XCTAssertEqual(try loadError(fixture, [("include", "{a: 1}")]),
                       "\(path): error: include: expected a file name or an array of file names, found an object")
        try fixture.write("traces.json5", "{traces: ['x.jsonl']}")
        XCTAssertEqual(try loadError(fixture, [("include", "traces.json5")]),
                       "\(fixture.directory)/traces.json5:1:10: error: traces: an included file cannot set 'traces'; set it in the scenario")
        // A device is refused, not read forever.
        XCTAssertTrue(try loadError(fixture, [("include", "/dev/zero")]).hasPrefix("/dev/zero: error: "))
    }

    func testADurationPastTheClocksLimitIsRefused() throws {
        let fixture = try ScenarioFixture()
        let longest = try XCTUnwrap(otherwise(try load(fixture, [("debounce.otherwiseMs", "9007199254.740992")])))
        XCTAssertEqual(Double(longest.nanoseconds), Double(SimDuration.maxNanoseconds), accuracy: 1, "the longest duration is taken")
        let path = fixture.directory + "/s.json5"
        XCTAssertEqual(try loadError(fixture, [("debounce.otherwiseMs", "1e308")]),
                       "\(path): error: debounce.otherwiseMs: 1e+308 ms is out of range (at most 9007199254.740992 ms, about 104 days)")
        let file = try fixture.write("far.json5", "{traces: ['trace.jsonl'],\n debounce: {otherwiseMs: 1e12}}")
        XCTAssertThrowsError(try ScenarioLoader.load(path: file)) {
            XCTAssertEqual("\($0)", "\(file):2:26: error: debounce.otherwiseMs: 1000000000000 ms is out of range (at most 9007199254.740992 ms, about 104 days)")
        }
    }

    func testPolicyNamesAreReadInFileOrder() throws {
        let fixture = try ScenarioFixture()
        let path = try fixture.write("p.json5", "{traces: ['trace.jsonl'], policies: {zeta: {}, alpha: {seed: 2}}}")
        XCTAssertEqual(try ScenarioLoader.policyNames(path: path), ["zeta", "alpha"])
        XCTAssertEqual(try ScenarioLoader.policyNames(path: try fixture.write("n.json5", "{traces: ['trace.jsonl']}")), [])
        XCTAssertThrowsError(try ScenarioLoader.policyNames(path: fixture.directory + "/none.json5"))
        XCTAssertThrowsError(try ScenarioLoader.load(path: path, policy: "alpah")) {
            XCTAssertEqual("\($0)", "\(path): error: policies: no policy named 'alpah'; did you mean 'alpha'?")
        }
    }

    /// Issue 29 #3: a 5 MB field name once took minutes (an edit distance per character)
    /// and printed itself twice. Now: one short line; the time bound is a loose sanity check
    /// (CPU time of this thread, so a busy machine does not fail it): the work is linear.
    func testAFiveMegabyteFieldNameIsReportedInOneShortLine() throws {
        let fixture = try ScenarioFixture()
        let name = String(repeating: "k", count: 5 << 20)
        for text in ["{traces: ['trace.jsonl'], debounce: {\(name): 1}}", "{traces: ['trace.jsonl'], policies: {\(name): {bogus: 1}}}"] {
            let path = try fixture.write("long.json5", text)
            let started = Self.threadCPUSeconds()
            XCTAssertThrowsError(try ScenarioLoader.load(path: path)) { error in
                let message = "\(error)"
                XCTAssertLessThan(message.utf8.count, 600, message)
                XCTAssertTrue(message.contains("kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk…(5242880 bytes)"), message)
            }
            XCTAssertLessThan(Self.threadCPUSeconds() - started, 5)
        }
    }

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
