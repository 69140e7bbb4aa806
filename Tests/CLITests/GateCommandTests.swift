import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Report
import XCTest

final class GateCommandTests: XCTestCase {
    /// The checker on the main thread against the default keyboard, on the fast typist.
    let failingPair = ["scenarios/default.json5", "scenarios/checker-on-main.json5", "--set", "traces=[\"../traces/fast-typist.jsonl\"]"]

    func testCheckerOnMainFailsTheGateAndTheJUnitFileReadsBack() throws {
        let folder = try TemporaryFolder()
        let junit = folder.path("junit.xml"), summary = folder.path("summary.md")
        let result = try runKeysim(["gate"] + failingPair + ["--rules", "docs/ci/gates.json5", "--replications", "5",
                                                             "--db", folder.path("g.sqlite"), "--junit", junit, "--summary", summary])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("keysim gate scenarios/default.json5 scenarios/checker-on-main.json5: default (A) vs checker-on-main (B), seed 42, 5 replication(s) × 1 trace(s)\n"), result.stdout)
        let failed = "keysim gate: failed: key_latency_p99_ms at most 0.25 ms worse than the baseline (95% confidence): candidate "
        XCTAssertTrue(result.stderr.contains(failed), result.stderr)
        XCTAssertTrue(result.stderr.contains(" ms worse than the baseline (95% interval of how much worse: ["), result.stderr)
        XCTAssertTrue(result.stderr.contains(": over it by at least "), "says by how much: \(result.stderr)")
        XCTAssertTrue(result.stdout.contains("\nFAIL  key_latency_p99_ms at most 0.25 ms worse"), result.stdout)
        XCTAssertTrue(result.stdout.contains("\npass  budget key: at most 1.0% over 10 ms: "), result.stdout)
        XCTAssertTrue(result.stdout.contains("\ngate failed: "), result.stdout)
        // The p99 rule is judged on its upper bound; where it and the key budget disagree, one line says why.
        XCTAssertTrue(result.stdout.contains("\nFAIL  key_latency_p99_ms ≤ 10 ms: candidate mean "), result.stdout)
        XCTAssertTrue(result.stdout.contains(", upper 95% bound "), result.stdout)
        let note = try XCTUnwrap(result.stdout.split(separator: "\n").first { $0.hasPrefix("note  ") })
        XCTAssertTrue(note.hasPrefix("note  key_latency_p99_ms ≤ 10 ms fails but budget key holds: the rule bounds the mean of each run's p99 (upper 95% bound "), "\(note)")
        XCTAssertTrue(try String(contentsOfFile: summary, encoding: .utf8).contains("\nNote: key\\_latency\\_p99\\_ms ≤ 10 ms fails but budget key holds"))

        // JUnit: testsuites > testsuite > testcase (> failure), counts that add up.
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: junit))
        let root = try XCTUnwrap(document.rootElement())
        XCTAssertEqual(root.name, "testsuites")
        let suites = root.elements(forName: "testsuite")
        XCTAssertEqual(suites.count, 1)
        let cases = suites[0].elements(forName: "testcase")
        XCTAssertEqual(cases.count, 4 + 3, "four rules and the three budgets of the candidate")
        XCTAssertEqual(root.attribute(forName: "tests")?.stringValue, "\(cases.count)")
        XCTAssertEqual(suites[0].attribute(forName: "tests")?.stringValue, "\(cases.count)")
        let failures = cases.flatMap { $0.elements(forName: "failure") }
        XCTAssertGreaterThanOrEqual(failures.count, 1)
        XCTAssertEqual(root.attribute(forName: "failures")?.stringValue, "\(failures.count)")
        XCTAssertEqual(suites[0].attribute(forName: "failures")?.stringValue, "\(failures.count)")
        for testcase in cases {
            XCTAssertNotNil(testcase.attribute(forName: "name")?.stringValue)
            XCTAssertTrue(testcase.attribute(forName: "classname")?.stringValue?.hasPrefix("keysim.gate.") ?? false)
        }
        let regression = try XCTUnwrap(cases.first { $0.attribute(forName: "name")?.stringValue?.hasPrefix("key_latency_p99_ms at most") ?? false })
        let failure = try XCTUnwrap(regression.elements(forName: "failure").first)
        XCTAssertEqual(failure.attribute(forName: "type")?.stringValue, "rule")
        XCTAssertTrue(failure.attribute(forName: "message")?.stringValue?.contains("over it by at least") ?? false)
        let figures = failure.stringValue ?? ""
        for line in ["metric: key_latency_p99_ms", "measured: ", "limit: ", "excess: ", "baseline: ", "candidate: ",
                     "interval low: ", "interval high: ", "confidence: 0.95", "pairs: 5", "unit: ms"] {
            XCTAssertTrue(figures.contains(line), "missing '\(line)' in \(figures)")
        }

        // When, where and how long: on the suite only, so nothing else loses determinism.
        XCTAssertEqual(suites[0].attribute(forName: "hostname")?.stringValue, ProcessInfo.processInfo.hostName)
        let timestamp = try XCTUnwrap(suites[0].attribute(forName: "timestamp")?.stringValue)
        XCTAssertNotNil(timestamp.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"#, options: .regularExpression), timestamp)
        let seconds = try XCTUnwrap(Double(try XCTUnwrap(suites[0].attribute(forName: "time")?.stringValue)))
        XCTAssertGreaterThan(seconds, 0)
        XCTAssertEqual(root.attribute(forName: "time")?.stringValue, suites[0].attribute(forName: "time")?.stringValue)
        // A budget nothing was measured against is skipped, not passed.
        let skipped = cases.filter { !$0.elements(forName: "skipped").isEmpty }
        XCTAssertEqual(suites[0].attribute(forName: "skipped")?.stringValue, "\(skipped.count)")
        XCTAssertEqual(skipped.map { $0.attribute(forName: "name")?.stringValue ?? "" }, ["budget dictation-stop-to-text: at most 5.0% over 100 ms"])
        XCTAssertEqual(skipped.first?.elements(forName: "skipped").first?.attribute(forName: "message")?.stringValue, "no samples in the candidate's runs")
        PythonScript.validateJUnit([junit])

        let markdown = try String(contentsOfFile: summary, encoding: .utf8)
        XCTAssertTrue(markdown.hasPrefix("### keysim gate ❌ failed: "), markdown)
        XCTAssertTrue(markdown.contains("| **FAIL** | key_latency_p99_ms at most 0.25 ms worse than the baseline (95% confidence) | "), markdown)
        // The summary is appended, as CI step-summary files expect.
        _ = try runKeysim(["gate"] + failingPair + ["--rules", "docs/ci/gates.json5", "--replications", "2",
                                                    "--db", folder.path("g.sqlite"), "--summary", summary])
        XCTAssertEqual(try String(contentsOfFile: summary, encoding: .utf8).components(separatedBy: "### keysim gate").count, 3)
    }

    func testMovingTheCheckerOffTheMainThreadPasses() throws {
        let folder = try TemporaryFolder()
        let result = try runKeysim(["gate", "scenarios/checker-on-main.json5", "--policy", "on-main", "--policy", "background",
                                    "--set", "traces=[\"../traces/fast-typist.jsonl\"]", "--rules", "docs/ci/gates.json5",
                                    "--replications", "3", "--db", folder.path("g.sqlite"), "--junit", folder.path("j.xml")])
        XCTAssertEqual(result.status, 0, result.stderr + result.stdout)
        XCTAssertTrue(result.stdout.contains("\ngate passed: 7 check(s) hold\n"), result.stdout)
        XCTAssertFalse(result.stderr.contains("failed"), result.stderr)
        let junit = try String(contentsOfFile: folder.path("j.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("<testsuites name=\"keysim gate\" tests=\"7\" failures=\"0\" errors=\"0\" time=\""), junit)
        XCTAssertFalse(junit.contains("<failure"))
    }

    /// Without a `gates` section or rules file, the budgets still gate: the candidate breaks
    /// a budget the baseline keeps.
    func testBudgetsAreRulesAndAGatesSectionIsRead() throws {
        let folder = try TemporaryFolder()
        let budget = ["--set", "budgets.key={ms: 10, allowedShare: 0.004}", "--replications", "4", "--db", folder.path("g.sqlite")]
        let broken = try runKeysim(["gate"] + failingPair + budget)
        XCTAssertEqual(broken.status, 1, broken.stderr)
        XCTAssertTrue(broken.stderr.contains("keysim gate: failed: budget key: at most 0.4% over 10 ms: candidate "), broken.stderr)
        XCTAssertTrue(broken.stderr.contains("above the allowed 0.4% by "), broken.stderr)
        // The other way round the baseline breaks it: not the candidate's doing.
        let reversed = try runKeysim(["gate", failingPair[1], failingPair[0]] + Array(failingPair[2...]) + budget)
        XCTAssertEqual(reversed.status, 0, reversed.stderr)

        let trace = KeysimProcess.packageRoot.appendingPathComponent("traces/fast-typist.jsonl").path
        let scenario = try folder.write("gated.json5", """
            {
              traces: ['\(trace)'],
              replications: 3,
              gates: [
                { metric: "key_latency_mean_ms", max: 1, name: "mean key latency under 1 ms" },
                { metric: "keystroke_savings", min: 0.1 },
              ],
              policies: { slow: { network: { roundTrip: 900 } } },
            }
            """)
        let gated = try runKeysim(["gate", scenario, "--policy", "slow", "--policy", "slow2"])
        XCTAssertEqual(gated.status, 2, "an unknown policy is bad input")
        let same = try folder.write("same.json5", try String(contentsOfFile: scenario, encoding: .utf8))
        let result = try runKeysim(["gate", scenario, same, "--db", folder.path("g.sqlite")])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("keysim gate: failed: mean key latency under 1 ms: candidate mean "), result.stderr)
        XCTAssertTrue(result.stderr.contains("keysim gate: failed: keystroke_savings ≥ 0.1: not measured in any pair of runs"), result.stderr)
    }

    func testBadRulesAndOptionsExitWithTwoAndRunNothing() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("g.sqlite")
        let unknown = try folder.write("unknown.json5", "{\n  gates: [\n    { metric: \"key_latency_p98_ms\", max: 10 },\n  ],\n}\n")
        let cases: [([String], String)] = [
            (["--rules", unknown], "\(unknown):3:5: error: gates[0]: unknown metric 'key_latency_p98_ms'; known: key_latency_mean_ms, "),
            (["--rules", folder.path("missing.json5")], "missing.json5: error: no such file"),
            (["--max-replications", "9"], "keysim gate: error: --max-replications goes with --replications auto"),
            (["--replications", "auto", "--precision", "fast"], "--precision fast: give a percentage (5%) or an amount in a metric's unit (0.2ms)"),
            (["--replications", "lots"], "--replications must be a whole number from 1 to 100000 or auto, not 'lots'"),
            (["--junit", folder.path("no/such/j.xml")], "no such folder: "),
            (["--shard", "1/2"], "unknown option '--shard'"),
        ]
        for (arguments, message) in cases {
            let result = try runKeysim(["gate"] + failingPair + arguments + ["--db", db])
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): expected '\(message)' in \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: db), "bad input runs nothing")
    }

    /// `--replications auto` stops at the same count on every run, within its maximum, and
    /// the report holds that many pairs.
    func testAutoReplicationsStopAtTheSameCountWithinTheMaximum() throws {
        let folder = try TemporaryFolder()
        var counts: [String] = []
        for (index, jobs) in ["1", "2"].enumerated() {
            let result = try runKeysim(["compare"] + failingPair + ["--replications", "auto", "--max-replications", "6",
                                                                    "--precision", "0.5ms", "--jobs", jobs, "--json",
                                                                    "--db", folder.path("c\(index).sqlite")])
            XCTAssertEqual(result.status, 0, result.stderr)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let search = try XCTUnwrap(object["replicationSearch"] as? [String: Any])
            let replications = try XCTUnwrap(search["replications"] as? Int)
            XCTAssertLessThanOrEqual(replications, 6)
            XCTAssertEqual(object["replications"] as? Int, replications)
            XCTAssertEqual(object["pairs"] as? Int, replications)
            XCTAssertEqual(search["rounds"] as? [Int], Array([5, 6].prefix { $0 <= replications }))
            counts.append("\(replications) \(search["imprecise"] ?? "")")
        }
        XCTAssertEqual(counts[0], counts[1], "the same inputs stop at the same count with any --jobs")
    }

    func testRunWithAutoReplicationsSaysWhereItStopped() throws {
        let folder = try TemporaryFolder()
        let text = try runKeysim(["run", "scenarios/default.json5", "--set", "traces=[\"../traces/fast-typist.jsonl\"]",
                                  "--replications", "auto", "--max-replications", "6", "--precision", "1%", "--db", folder.path("r.sqlite")])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("seed 42, 6 replication(s) × 1 trace(s)\nreplications auto: stopped at the maximum 6 (rounds 5, 6); still wider than 1%: "), text.stdout)
    }

    func testSweepWithAutoReplicationsHoldsEveryPointsAxesToThePrecision() throws {
        let folder = try TemporaryFolder()
        let result = try runKeysim(["sweep", "scenarios/default.json5", "--set", "debounce.otherwiseMs=500,2000",
                                    "--set", "traces=[\"../traces/fast-typist.jsonl\"]", "--replications", "auto",
                                    "--max-replications", "6", "--precision", "0.0001", "--json", "--db", folder.path("s.sqlite")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let search = try XCTUnwrap(object["replicationSearch"] as? [String: Any])
        XCTAssertEqual(search["rounds"] as? [Int], [5, 6])
        XCTAssertEqual(search["reachedTarget"] as? Bool, false)
        let imprecise = try XCTUnwrap(search["imprecise"] as? [String])
        XCTAssertFalse(imprecise.isEmpty)
        XCTAssertTrue(Set(imprecise).isSubset(of: ["requests_per_100_words", "underline_verdict_mean_ms"]), "only the axes: \(imprecise)")
        let points = try XCTUnwrap(object["points"] as? [[String: Any]])
        XCTAssertEqual(points.map { $0["runs"] as? Int }, [6, 6])
    }

    func testCompareSaysHowManyPairsWouldDetectADifference() throws {
        let folder = try TemporaryFolder()
        let result = try runKeysim(["compare"] + failingPair + ["--replications", "4", "--detect", "0.5ms", "--db", folder.path("c.sqlite")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let header = try XCTUnwrap(lines.first { $0.hasPrefix("metric") && $0.contains("pairs needed (80% power)") })
        XCTAssertTrue(header.contains("difference to detect"), header)
        let p99 = try XCTUnwrap(lines.last { $0.hasPrefix("key latency, p99 (ms)") })
        let fields = p99.split(separator: " ").map(String.init)
        XCTAssertEqual(fields.last, "4", "pairs run: \(p99)")
        XCTAssertNotNil(Int(fields[fields.count - 2]), p99)
        XCTAssertFalse(lines.contains { $0.hasPrefix("keys over budget (share)") && $0.contains("0.50") }, "a unit-bound effect skips other units")
        let bad = try runKeysim(["compare"] + failingPair + ["--detect", "lots", "--db", folder.path("c.sqlite")])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--detect lots: give a percentage"), bad.stderr)
    }
}
