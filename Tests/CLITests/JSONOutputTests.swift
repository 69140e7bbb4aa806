import Foundation
import XCTest

/// Golden tests of every `--json` document (`docs/json-output.md`): the same inputs print
/// the same document, member for member. When a document changes on purpose,
/// `make golden` (KEYSIM_UPDATE_GOLDEN=1) rewrites the files in Tests/Golden/json.
final class JSONOutputTests: XCTestCase {
    static let goldenFolder = KeysimProcess.packageRoot.appendingPathComponent("Tests/Golden/json")
    let fast = ["--set", "traces=[\"../traces/fast-typist.jsonl\"]", "--replications", "2", "--jobs", "2"]

    func testRunJSON() throws {
        try check("run.json", ["run", "scenarios/default.json5"] + fast)
    }

    func testCompareJSON() throws {
        try check("compare.json", ["compare", "scenarios/default.json5", "--policy", "seed", "--policy", "fixed-1s", "--detect", "5%"] + fast)
    }

    func testGateJSON() throws {
        // Five pairs are enough for the key-latency regression rule to fail.
        try check("gate.json", ["gate", "scenarios/default.json5", "scenarios/checker-on-main.json5", "--rules", "docs/ci/gates.json5",
                                "--set", "traces=[\"../traces/fast-typist.jsonl\"]", "--replications", "5"], status: 1)
    }

    func testSweepJSON() throws {
        try check("sweep.json", ["sweep", "scenarios/default.json5", "--set", "debounce.otherwiseMs=500,2000",
                                 "--set", "traces=[\"../traces/fast-typist.jsonl\"]", "--replications", "2"])
    }

    func testTraceStatsJSON() throws {
        try check("trace-stats.jsonl", ["trace", "stats", "--json", "traces/fast-typist.jsonl", "traces/dictation.jsonl"], db: false)
    }

    /// Runs keysim with a report in a fresh folder, checks the exit status and that the
    /// output parses as JSON, and compares it (the folder's path replaced by `$TMP`) with
    /// the golden file.
    func check(_ name: String, _ arguments: [String], status: Int32 = 0, db: Bool = true) throws {
        let folder = try TemporaryFolder()
        let result = try runKeysim(arguments + (db ? ["--json", "--db", folder.path("report.sqlite")] : []))
        XCTAssertEqual(result.status, status, result.stderr)
        for line in name.hasSuffix(".jsonl") ? result.stdout.split(separator: "\n").map(String.init) : [result.stdout] {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            // keysim.compare is at version 2 (any number of policies); every other at 1.
            XCTAssertEqual(object?["schemaVersion"] as? Int, name == "compare.json" ? 2 : 1, line)
            XCTAssertTrue((object?["schema"] as? String)?.hasPrefix("keysim.") ?? false, line)
        }
        let output = result.stdout.replacingOccurrences(of: folder.url.path, with: "$TMP")
        let golden = Self.goldenFolder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["KEYSIM_UPDATE_GOLDEN"] == "1" {
            try output.write(to: golden, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        if output != expected {
            let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
            let wanted = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let first = (0..<min(lines.count, wanted.count)).first { lines[$0] != wanted[$0] } ?? min(lines.count, wanted.count)
            XCTFail("\(name) differs from the golden file at line \(first + 1): got '\(first < lines.count ? lines[first] : "")', expected '\(first < wanted.count ? wanted[first] : "")'; run make golden if the change is intended")
        }
    }
}
