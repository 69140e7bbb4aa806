import Foundation
import XCTest

/// Issue 29 #1 and #5 on the command line: ranges near the largest double, grids past any
/// count, `--set` on `policies` and `include`; each ends in exit 0 or 2, never a signal.
final class SweepRangeTests: XCTestCase {
    let scenario = "scenarios/default.json5"

    func testRangesThatOverflowAreRefusedWithTheOption() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("r.sqlite")
        let cases: [([String], String)] = [
            (["--set", "debounce.otherwiseMs=-1e308..1e308/1"],
             "keysim sweep: error: --set debounce.otherwiseMs=-1e308..1e308/1: more than 10000 values; at most 10000 per parameter\n"),
            (["--set", "debounce.otherwiseMs=0..1e308/1e304"],
             "keysim sweep: error: --set debounce.otherwiseMs=0..1e308/1e304: 10001 values; at most 10000 per parameter\n"),
            // Twenty-one points, each checked as the file's value would be: the first is negative.
            (["--set", "debounce.otherwiseMs=-1e308..1e308/1e307"],
             "scenarios/default.json5: error: debounce.otherwiseMs: must not be negative (got -1e+308)\n"),
            (["--set", "debounce.otherwiseMs=0..1e308/1e307"],
             "scenarios/default.json5: error: debounce.otherwiseMs: 1e+307 ms is out of range (at most 9007199254.740992 ms, about 104 days)\n"),
            (["--set", "debounce.otherwiseMs=1..5/1", "--set", "debounce.sentenceEndMs=1..100000/1"],
             "keysim sweep: error: --set debounce.sentenceEndMs=1..100000/1: 100000 values; at most 10000 per parameter\n"),
        ]
        for (extra, message) in cases {
            let result = try runKeysim(["sweep", scenario, "--db", db] + extra)
            XCTAssertEqual(result.status, 2, "\(extra): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").first.map { String($0) + "\n" }, message, "\(extra)")
        }
        // 70 parameters of two values: more points than an Int holds, still one clear line.
        let many = (0..<70).flatMap { ["--set", "p\($0)=1,2"] }
        let grid = try runKeysim(["sweep", scenario, "--db", db] + many)
        XCTAssertEqual(grid.status, 2, grid.stderr)
        XCTAssertTrue(grid.stderr.hasPrefix("keysim sweep: error: the grid has more than 100000 points; at most 100000\n"), grid.stderr)
        let wide = (0..<3).flatMap { ["--set", "p\($0)=1..100/1"] }
        XCTAssertTrue(try runKeysim(["sweep", scenario, "--db", db] + wide).stderr
            .hasPrefix("keysim sweep: error: the grid has 1000000 points; at most 100000\n"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: db), "no report for a refused sweep")
    }

    func testSetPoliciesAndIncludeWorkAsInTheFile() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("r.sqlite")
        let bad: [([String], String)] = [
            (["--set", "policies=[\"../traces\"]"], "scenarios/default.json5: error: policies: expected an object of named overlays, found an array\n"),
            (["--set", "policies={a: {bogus: 1}}"], "scenarios/default.json5: error: policies.a.bogus: unknown field 'bogus'; known fields: "),
            (["--set", "include=[\"nowhere.json5\"]"], "scenarios/default.json5: error: include: included file not found: scenarios/nowhere.json5\n"),
            (["--set", "include=/dev/zero"], "/dev/zero: error: "),
        ]
        for (extra, message) in bad {
            let result = try runKeysim(["run", scenario, "--db", db, "--replications", "1"] + extra)
            XCTAssertEqual(result.status, 2, "\(extra): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix(message), "\(extra): \(result.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))
        // A policy given on the command line runs, and an include applies its fields.
        try folder.write("fast.json5", "{debounce: {sentenceEndMs: 100, otherwiseMs: 300}}")
        let good = try runKeysim(["run", scenario, "--db", db, "--replications", "1", "--json", "--policy", "quick",
                                  "--set", "policies={quick: {include: \"\(folder.path("fast.json5"))\"}}"])
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertTrue(good.stdout.contains("\"policy\": \"quick\""), good.stdout)
    }
}
