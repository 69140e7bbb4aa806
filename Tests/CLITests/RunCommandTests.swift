import Foundation
import Report
import XCTest

/// Every row of a report that a deterministic run must reproduce: all tables, ordered by
/// their keys, without the wall-clock columns.
func deterministicRows(_ path: String) throws -> [String: [[SQLValue]]] {
    let database = try Database(path: path, readOnly: true)
    let queries = [
        "runs": "SELECT scenario_name, policy, seed, replication, trace_index, trace_path, scenario_hash, traces_hash, sim_end_ns, events, edits, requests, words, characters FROM runs ORDER BY run_id",
        "suggestions": "SELECT * FROM suggestions ORDER BY run_id, key_index",
        "underlines": "SELECT * FROM underlines ORDER BY run_id, underline_id",
        "threads": "SELECT * FROM threads ORDER BY run_id, thread",
        "budgets": "SELECT * FROM budgets ORDER BY run_id, metric",
        "keys": "SELECT * FROM keys ORDER BY run_id, key_index",
        "requests": "SELECT * FROM requests ORDER BY run_id, request_id",
        "tasks": "SELECT * FROM tasks ORDER BY run_id, seq",
        "budget_violations": "SELECT * FROM budget_violations ORDER BY run_id, budget, item_index",
    ]
    var rows: [String: [[SQLValue]]] = [:]
    for (table, sql) in queries { rows[table] = try database.query(sql) }
    return rows
}

final class RunCommandTests: XCTestCase {
    let scenario = "scenarios/default.json5"

    func testRunPrintsTheBudgetTableAndWritesTheReport() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("r.sqlite")
        let result = try KeysimProcess.run(["run", scenario, "--replications", "2", "--db", db])
        XCTAssertEqual(result.status, 0, result.stderr)
        for fragment in ["latency (ms)", "key ", "suggestion ", "p50", "p95", "p99", "max", "over", "requests ", "underlines ", "report: \(db)"] {
            XCTAssertTrue(result.stdout.contains(fragment), "missing '\(fragment)' in:\n\(result.stdout)")
        }
        let rows = try deterministicRows(db)
        XCTAssertEqual(rows["runs"]?.count, 2)
        XCTAssertGreaterThan(rows["keys"]?.count ?? 0, 1000)
        XCTAssertGreaterThan(rows["requests"]?.count ?? 0, 10)
    }

    func testSameSeedSameRowsOtherSeedOtherRowsAnyJobCount() throws {
        let folder = try TemporaryFolder()
        func run(_ name: String, _ extra: [String]) throws -> [String: [[SQLValue]]] {
            let db = folder.path(name)
            let result = try KeysimProcess.run(["run", scenario, "--replications", "4", "--db", db] + extra)
            XCTAssertEqual(result.status, 0, result.stderr)
            return try deterministicRows(db)
        }
        let first = try run("a.sqlite", ["--seed", "7", "--jobs", "1"])
        let again = try run("b.sqlite", ["--seed", "7", "--jobs", "1"])
        let parallel = try run("c.sqlite", ["--seed", "7", "--jobs", "2"])
        let otherSeed = try run("d.sqlite", ["--seed", "8", "--jobs", "2"])
        XCTAssertEqual(first, again, "the same seed must give the same rows")
        XCTAssertEqual(first, parallel, "--jobs 1 and --jobs 2 must give the same rows")
        XCTAssertNotEqual(first["keys"], otherSeed["keys"], "another seed must change the rows")
        XCTAssertNotEqual(first["requests"], otherSeed["requests"])
    }

    func testBadInputExitsWithTwoAndLeavesTheReportUntouched() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("r.sqlite")
        XCTAssertEqual(try KeysimProcess.run(["run", scenario, "--replications", "1", "--db", db]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let trace = KeysimProcess.packageRoot.appendingPathComponent("traces/english-typing.jsonl").path
        let cases: [(name: String, text: String, expected: String)] = [
            ("syntax.json5", "{traces: ['\(trace)'],\n  debounce: {otherwiseMs: 2000,,}}", "syntax.json5:2:32: error: unexpected ','"),
            ("unknown.json5", "{traces: ['\(trace)'],\n  network: {rtt: 5}}", "unknown.json5:2:18: error: network.rtt: unknown field 'rtt'"),
            ("negative.json5", "{traces: ['\(trace)'],\n  debounce: {sentenceEndMs: -400}}", "negative.json5:2:29: error: debounce.sentenceEndMs: must not be negative"),
            ("distribution.json5", "{traces: ['\(trace)'],\n  cloud: {service: {type: 'zipf'}}}", "cloud.service.type: unknown value 'zipf'"),
            ("missing.json5", "{traces: ['nowhere.jsonl']}", "missing.json5:1:11: error: traces[0]: trace file not found"),
        ]
        for (name, text, expected) in cases {
            let path = try folder.write(name, text)
            let result = try KeysimProcess.run(["run", path, "--db", db])
            XCTAssertEqual(result.status, 2, name)
            XCTAssertTrue(result.stderr.contains(expected), "\(name): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)")
            XCTAssertEqual(result.stdout, "", name)
        }
        let badTraces: [(name: String, text: String, expected: String)] = [
            ("backwards.jsonl", "{\"keysim\":\"trace\",\"version\":1}\n{\"t\":50,\"type\":\"key\",\"text\":\"a\"}\n{\"t\":40,\"type\":\"key\",\"text\":\"b\"}\n",
             "backwards.jsonl:3:6: error: time goes backwards"),
            ("broken.jsonl", "{\"keysim\":\"trace\",\"version\":1}\n{\"t\":50,\"type\":\"key\",\"text\":\"a\"\n", "broken.jsonl:2:"),
        ]
        for (name, text, expected) in badTraces {
            try folder.write(name, text)
            let path = try folder.write("s.json5", "{traces: ['\(name)']}")
            let result = try KeysimProcess.run(["run", path, "--db", db])
            XCTAssertEqual(result.status, 2, name)
            XCTAssertTrue(result.stderr.contains(expected), "\(name): \(result.stderr)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: db)), before, "a failed run must not change the report")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("never.sqlite")))
        let none = try KeysimProcess.run(["run", folder.path("unknown.json5"), "--db", folder.path("never.sqlite")])
        XCTAssertEqual(none.status, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("never.sqlite")), "no report for a bad scenario")
    }

    func testUsageErrorsAndHelp() throws {
        let help = try KeysimProcess.run(["run", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("OVERVIEW: Run a scenario"), help.stdout)
        XCTAssertTrue(help.stdout.contains("--replications <N|auto>"))
        let top = try KeysimProcess.run(["--help"])
        XCTAssertEqual(top.status, 0)
        XCTAssertTrue(top.stdout.contains("COMMANDS:"))
        let cases: [([String], String)] = [
            (["run"], "keysim run: error: missing <scenario>"),
            (["run", scenario, "--jobs", "0"], "--jobs must be a whole number from 1 to 256, not '0'"),
            (["run", scenario, "--bogus"], "unknown option '--bogus'"),
            (["run", scenario, "--seed"], "--seed needs a value <N>"),
            (["run", scenario, "--set", "nopath"], "--set needs PATH=VALUE"),
            (["fly"], "keysim: error: unknown command 'fly'"),
        ]
        for (arguments, expected) in cases {
            let result = try KeysimProcess.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
    }

    func testAnErrorInsideASetValueDoesNotPointIntoTheScenarioFile() throws {
        let folder = try TemporaryFolder()
        // The bad digest is at column 36 of the --set value, not of the scenario file.
        let result = try KeysimProcess.run(["run", "scenarios/language-files.json5", "--db", folder.path("r.sqlite"),
                                            "--set", "languages.manifest=[{language: 'ru', sizeBytes: 5, sha256: 'ab'}]"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr,
                       "scenarios/language-files.json5: error: languages.manifest[0].sha256: expected 64 lower-case hex digits\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("r.sqlite")))
    }

    func testCheckExitsWithOneWhenTheKeyBudgetIsBlown() throws {
        let folder = try TemporaryFolder()
        let result = try KeysimProcess.run(["run", scenario, "--replications", "1", "--db", folder.path("r.sqlite"), "--check",
                                            "--set", "keyboard.work.key.cost=12"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("budget check failed: key: 100.0% over 10 ms (allowed 1.0%)"), result.stderr)
        let fine = try KeysimProcess.run(["run", scenario, "--replications", "1", "--db", folder.path("r.sqlite"), "--check"])
        XCTAssertEqual(fine.status, 0, fine.stderr)
    }
}
