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
        let cases: [([String], [String: String], String)] = [
            (["fleet", "scenarios/default.json5", "--db", db], [:], "the scenario has no 'fleet' section"),
            (["fleet", "scenarios/default.json5", "--user", "3", "--db", db], [:], "keysim fleet: error: unknown option '--user'; did you mean '--users'?"),
            (["fleet", "scenarios/default.json5", "--users", "0", "--db", db], [:], "keysim fleet: error: --users must be"),
            (["fleet", "scenarios/default.json5", "--shard", "3/2", "--db", db], [:], "keysim fleet: error: --shard 3/2: shard 3 is out of range 1...2"),
            (["fleet", "scenarios/default.json5", "--db", db], ["JOB_COMPLETION_INDEX": "1"], "KEYSIM_SHARD_COUNT is not"),
            (["fleet", "scenarios/nope.json5", "--db", db], [:], "nope.json5"),
            (["fleet"], [:], "keysim fleet: error: missing <scenario>"),
        ]
        for (arguments, environment, message) in cases {
            let result = try runKeysim(arguments, environment: environment)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(try folder.contents(), [], "no file written")
    }
}
