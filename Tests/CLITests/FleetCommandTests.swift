import Foundation
import Report
import XCTest

/// `keysim fleet`: its help, its usage errors (exit 2, nothing written), and a small fleet run
/// whole, with other `--jobs`, and as shards merged, all to the same report rows.
final class FleetCommandTests: XCTestCase {
    func testHelpUsageErrorsAndAScenarioWithNoFleet() throws {
        let folder = try TemporaryFolder()
        let help = try runKeysim(["fleet", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("OVERVIEW: Run a scenario's fleet: many users through a day against shared backends"), help.stdout)
        for option in ["--users N", "--shard K/N", "--jobs N", "--db FILE", "--json", "--set PATH=VALUE", "--seed N"] {
            XCTAssertTrue(help.stdout.contains(option), option)
        }
        let db = folder.path("r.sqlite")
        let texts = KeysimProcess.packageRoot.appendingPathComponent("traces/text/chat-session.txt").path
        let bad = try folder.write("bad.json5", "{ name: \"bad\", fleet: { users: 10, typists: [{ typist: \"chat\" }], texts: [\"\(texts)\"], day: { hours: 30 } } }")
        let cases: [([String], [String: String], String)] = [
            (["fleet", "scenarios/default.json5", "--db", db], [:], "the scenario has no 'fleet' section"),
            (["fleet", "scenarios/default.json5", "--user", "3", "--db", db], [:], "keysim fleet: error: unknown option '--user'; did you mean '--users'?"),
            (["fleet", "scenarios/default.json5", "--users", "0", "--db", db], [:], "keysim fleet: error: --users must be"),
            (["fleet", "scenarios/default.json5", "--shard", "3/2", "--db", db], [:], "keysim fleet: error: --shard 3/2: shard 3 is out of range 1...2"),
            (["fleet", "scenarios/default.json5", "--db", db], ["JOB_COMPLETION_INDEX": "1"], "KEYSIM_SHARD_COUNT is not"),
            (["fleet", "scenarios/nope.json5", "--db", db], [:], "nope.json5"),
            (["fleet"], [:], "keysim fleet: error: missing <scenario>"),
            (["fleet", "scenarios/fleet/small.json5", "--set", "fleet.users=0", "--db", db], [:],
             "scenarios/fleet/small.json5: error: fleet.users: must be between 1 and"),
            (["fleet", bad, "--db", db], [:], "bad.json5:1:"),
            (["fleet", bad, "--db", db], [:], "error: fleet.day.hours: must be between 1 and 24 (got 30)"),
            // A fleet-only scenario has nothing for `run` to replay: it says where to go.
            (["run", "scenarios/fleet/small.json5", "--db", db], [:],
             "scenarios/fleet/small.json5: error: the scenario has no traces to replay; its fleet runs with 'keysim fleet scenarios/fleet/small.json5'"),
        ]
        for (arguments, environment, message) in cases {
            let result = try runKeysim(arguments, environment: environment)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(try folder.contents(), ["bad.json5"], "no report written")
    }

    /// The small fleet at 16 users: a few seconds a run.
    static let small = ["fleet", "scenarios/fleet/small.json5", "--users", "16"]

    func testShardsMergeIntoTheReportOfOneMachineForAnyJobs() throws {
        let folder = try TemporaryFolder()
        let whole = try runKeysim(Self.small + ["--jobs", "2", "--db", folder.path("whole.sqlite")])
        XCTAssertEqual(whole.status, 0, whole.stderr)
        XCTAssertTrue(whole.stdout.contains("keysim fleet scenarios/fleet/small.json5: seed 42, 16 user(s) for 1600 daily users, 4 partition(s)"), whole.stdout)
        XCTAssertTrue(whole.stdout.contains("busiest hour first token p95 (ms)"), whole.stdout)
        let oneJob = try runKeysim(Self.small + ["--jobs", "1", "--db", folder.path("one-job.sqlite")])
        XCTAssertEqual(oneJob.status, 0, oneJob.stderr)
        // Shard 1 by option, shard 2 by Slurm's variables.
        let first = try runKeysim(Self.small + ["--shard", "1/2", "--db", folder.path("fleet.sqlite")])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("shard 1/2: partition(s) 0, 2 of 4; combine the shards with keysim merge"), first.stdout)
        let second = try runKeysim(Self.small + ["--db", folder.path("fleet.sqlite")],
                                   environment: ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "2", "SLURM_ARRAY_TASK_MIN": "1"])
        XCTAssertEqual(second.status, 0, second.stderr)
        let shards = [folder.path("fleet.shard-2-of-2.sqlite"), folder.path("fleet.shard-1-of-2.sqlite")]
        let merge = try runKeysim(["merge", folder.path("merged.sqlite")] + shards)
        XCTAssertEqual(merge.status, 0, merge.stderr)
        XCTAssertTrue(merge.stdout.contains("keysim merge: 2 file(s), the fleet of scenario 'small-fleet' (seed 42, 16 user(s), 4 partition(s))"), merge.stdout)

        func digest(_ name: String) throws -> ReportRowDigest {
            try ReportRowDigest(database: Database(path: folder.path(name), readOnly: true, create: false))
        }
        let expected = try digest("whole.sqlite")
        XCTAssertEqual(try digest("one-job.sqlite"), expected, "--jobs 1 and 2")
        XCTAssertEqual(try digest("merged.sqlite"), expected, "shards merged")
        XCTAssertGreaterThan(expected.tables.first { $0.name == "fleet_minutes" }?.rows ?? 0, 59)
        XCTAssertGreaterThan(expected.tables.first { $0.name == "fleet_histograms" }?.rows ?? 0, 0)

        // A shard of another seed is refused, and nothing is written.
        let other = try runKeysim(Self.small + ["--shard", "2/2", "--seed", "7", "--db", folder.path("other.sqlite")])
        XCTAssertEqual(other.status, 0, other.stderr)
        let refused = try runKeysim(["merge", folder.path("refused.sqlite"), shards[1], folder.path("other.shard-2-of-2.sqlite")])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("other.shard-2-of-2.sqlite: error: is not a shard of the fleet in"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("different seeds: 42 and 7"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("refused.sqlite")))
        let incomplete = try runKeysim(["merge", folder.path("refused.sqlite"), shards[1]])
        XCTAssertEqual(incomplete.status, 2)
        XCTAssertTrue(incomplete.stderr.contains("partition(s) 1, 3 of 0…3 missing"), incomplete.stderr)
    }

    func testTheJSONDocumentIsTheDaysFigures() throws {
        let folder = try TemporaryFolder()
        let result = try runKeysim(Self.small + ["--json", "--db", folder.path("r.sqlite")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["schema"] as? String, "keysim.fleet")
        XCTAssertEqual(object["users"] as? Int, 16)
        let summary = try XCTUnwrap(object["summary"] as? [String: Any])
        let store = try ReportStore(path: folder.path("r.sqlite"), readOnly: true)
        let row = try store.database.query("SELECT arrivals, cost_usd_per_day, busiest_hour FROM fleet_summary")[0]
        guard case .integer(let arrivals) = row[0], case .real(let cost) = row[1], case .integer(let hour) = row[2] else {
            return XCTFail("\(row)")
        }
        XCTAssertEqual(summary["requests"] as? Int, Int(arrivals))
        XCTAssertEqual(summary["cost_usd_per_day"] as? Double, cost)
        XCTAssertEqual(summary["busiest_hour"] as? Int, Int(hour))
        XCTAssertEqual((object["hours"] as? [Any])?.count, 1, "the busy hour")
    }
}
