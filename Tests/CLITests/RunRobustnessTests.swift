import Foundation
@testable import Report
import XCTest

/// `keysim run` on scenarios and traces that once crashed it or ran without end: each now
/// gives a correct result or a clear error, exit 0 or 2, in bounded time.
final class RunRobustnessTests: XCTestCase {
    let header = #"{"keysim": "trace", "version": 1, "name": "t", "language": "en"}"#

    private func runScenario(_ folder: TemporaryFolder, trace lines: [String], extra: String = "") throws -> (KeysimProcess.Output, String) {
        try folder.write("t.jsonl", ([header] + lines).joined(separator: "\n") + "\n")
        let scenario = try folder.write("s.json5", #"{ name: "s", seed: 1, replications: 1, traces: ["t.jsonl"] \#(extra) }"#)
        let db = folder.path("r.sqlite")
        return (try KeysimProcess.run(["run", scenario, "--db", db]), db)
    }

    func testADictationNeverStoppedIsStoppedAtTheEndOfTheTrace() throws {
        let folder = try TemporaryFolder()
        let (result, db) = try runScenario(folder, trace: [
            #"{"t": 1000.0, "type": "key", "text": "a"}"#,
            #"{"t": 2000.0, "type": "dictation.start", "onsetMs": 200, "lengthMs": 900, "transcript": "cut off"}"#,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let database = try Database(path: db, readOnly: true)
        XCTAssertEqual(try database.query("SELECT COUNT(*) FROM dictations")[0][0].integerValue, 1)
    }

    /// `trace validate` refuses a second start during a dictation, and so does every reader
    /// of traces (`TraceRules`): the run stops with the same error and writes no report.
    func testASecondStartDuringADictationIsRefusedAsTraceValidateRefusesIt() throws {
        let folder = try TemporaryFolder()
        let (result, db) = try runScenario(folder, trace: [
            #"{"t": 2000.0, "type": "dictation.start", "onsetMs": 0, "lengthMs": 500}"#,
            #"{"t": 2001.0, "type": "dictation.start", "onsetMs": 0, "lengthMs": 500}"#,
        ])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("t.jsonl:3:1: error: dictation.start while the dictation started on line 2 is still running"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db), "a failed run leaves no report")
    }

    /// Costs the validator accepts but that no keyboard has: the run stops at the limit of
    /// simulated time, long before the clock could overflow.
    func testHugeCostsStopAtTheSimulatedTimeLimit() throws {
        let trace = try String(contentsOf: KeysimProcess.packageRoot.appendingPathComponent("traces/english-typing.jsonl"), encoding: .utf8)
        let keys = trace.split(separator: "\n").dropFirst().prefix(1500).map(String.init)
        // 9007199254.740992 ms is the longest duration any input may hold (ValueLimits).
        for cost in [#"{ type: "constant", valueMs: 5e9 }"#, #"{ type: "constant", valueMs: 9007199254.740992 }"#, #"{ type: "pareto", scaleMs: 1, shape: 0.02 }"#] {
            let folder = try TemporaryFolder()
            let (result, db) = try runScenario(folder, trace: keys,
                                               extra: #", keyboard: { work: { key: { thread: "main", priority: 10, cost: \#(cost) } } }"#)
            XCTAssertEqual(result.status, 2, "cost \(cost): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("s.json5: error: limits: "), result.stderr)
            XCTAssertTrue(result.stderr.contains("limits.simulatedHoursMax"), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: db), "a failed run leaves no report")
        }
    }

    func testATokenRefreshThatNeverCatchesUpEndsWithAClearError() throws {
        let folder = try TemporaryFolder()
        let trace = try String(contentsOf: KeysimProcess.packageRoot.appendingPathComponent("traces/english-typing.jsonl"), encoding: .utf8)
        let keys = trace.split(separator: "\n").dropFirst().prefix(600).map(String.init)
        let (result, _) = try runScenario(folder, trace: keys, extra: """
            , token: { rotationPeriodMs: 30000, graceMs: 1000, refresh: { type: "constant", valueMs: 60000 } },
            limits: { simulatedHoursMax: 48 }
            """)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("limit of 48 hours of simulated time"), result.stderr)
    }

    func testTheEventLimitIsConfigurable() throws {
        let folder = try TemporaryFolder()
        let keys = (0..<50).map { #"{"t": \#(1000 + 100 * $0).0, "type": "key", "text": "a"}"# }
        let (result, _) = try runScenario(folder, trace: keys, extra: ", limits: { eventsMax: 20 }")
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("limit of 20 events"), result.stderr)
        let (bad, _) = try runScenario(folder, trace: keys, extra: ", limits: { eventsMax: 0 }")
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("s.json5:1:"), bad.stderr)
        XCTAssertTrue(bad.stderr.contains("limits.eventsMax"), bad.stderr)
    }

    /// Thousands of keys at one instant once cost O(n²) (a scan of the queue per key, a
    /// search of the records per budget violation): now linear.
    func testManyKeysAtOneInstantRunInLinearTime() throws {
        let folder = try TemporaryFolder()
        let keys = (0..<8_000).map { #"{"t": 1000.0, "type": "key", "text": "\#($0 % 2 == 0 ? " " : "a")"}"# }
        let started = Date()
        let (result, db) = try runScenario(folder, trace: keys)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "8 000 keys at one instant took too long")
        let database = try Database(path: db, readOnly: true)
        XCTAssertEqual(try database.query("SELECT COUNT(*) FROM keys")[0][0].integerValue, 8_000)
    }
}
