import Foundation
import Report
import XCTest

/// `keysim report --batch/--policy/--comparison/--sweep/--run`: what each picks, the one line
/// on standard error that says so, every format keeping only the selected rows, a timeline
/// drawing the selection's first run, and bad names and ids refused with the nearest name.
final class ReportSelectorTests: XCTestCase {
    /// A report of a comparison (batches 1, 2: seed, fixed-1s; runs 1–4) and a two-point
    /// sweep (batches 3, 4; runs 5, 6), made once.
    nonisolated(unsafe) private static let report: (folder: TemporaryFolder, db: String) = {
        let folder = try! TemporaryFolder()
        let db = folder.path("r.sqlite")
        for arguments in [["compare", "scenarios/default.json5", "--policy", "seed", "--policy", "fixed-1s", "--replications", "2", "--db", db],
                          ["sweep", "scenarios/default.json5", "--set", "debounce.otherwiseMs=500,2000", "--replications", "1", "--db", db]] {
            let result = try! runKeysim(arguments)
            precondition(result.status == 0, result.stderr)
        }
        made = true
        return (folder, db)
    }()
    /// Whether `report` was made (so that the class's tear-down removes it, and only then).
    nonisolated(unsafe) private static var made = false

    override class func tearDown() {
        if made { try? FileManager.default.removeItem(at: report.folder.url) }
        super.tearDown()
    }

    func testEachSelectorSaysWhatItPickedOnOneLine() throws {
        let db = Self.report.db
        let cases: [([String], String)] = [
            (["--batch", "2"], "keysim report: batch 2 (policy fixed-1s, 2 runs)\n"),
            (["--batch", "seed"], "keysim report: batch 1 (policy seed, 2 runs)\n"),
            (["--batch", "debounce.otherwiseMs=500"], "keysim report: batch 3 (debounce.otherwiseMs=500, 1 run)\n"),
            (["--policy", "fixed-1s"], "keysim report: policy fixed-1s: batch 2 (2 runs)\n"),
            (["--comparison", "1"], "keysim report: comparison 1: seed vs fixed-1s (batches 1, 2; 4 runs)\n"),
            (["--sweep", "1"], "keysim report: sweep 1: default, debounce.otherwiseMs, 2 points (2 runs)\n"),
            (["--run", "3"], "keysim report: run 3 (batch 2, policy fixed-1s, replication 0, trace 0)\n"),
            (["--batch", "2", "--format", "chrome-trace"], "keysim report: batch 2 (policy fixed-1s, 2 runs); drawing run 3, its first\n"),
        ]
        for (arguments, line) in cases {
            let result = try runKeysim(["report", db] + arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr, line, "\(arguments)")
        }
        let whole = try runKeysim(["report", db])
        XCTAssertEqual(whole.stderr, "", "nothing selected, nothing said")
    }

    func testBadNamesAndIdsAreRefusedWithTheNearestName() throws {
        let db = Self.report.db
        let cases: [([String], String)] = [
            (["--batch", "sed"], "r.sqlite: error: no batch labelled 'sed'; did you mean 'seed'?"),
            (["--batch", "nothing-like-it"], "r.sqlite: error: no batch labelled 'nothing-like-it'; labels: debounce.otherwiseMs=2000, debounce.otherwiseMs=500, fixed-1s, seed"),
            (["--batch", "9"], "r.sqlite: error: no batch 9; batches are 1…4"),
            (["--policy", "fixd-1s"], "r.sqlite: error: no batch ran policy 'fixd-1s'; did you mean 'fixed-1s'?"),
            (["--comparison", "2"], "r.sqlite: error: no comparison 2; the report has comparison 1 only"),
            (["--sweep", "7"], "r.sqlite: error: no sweep 7; the report has sweep 1 only"),
            (["--run", "99"], "r.sqlite: error: no run 99; runs are 1…6"),
            (["--comparison", "0"], "--comparison must be a whole number from 1"),
            (["--batch", "1", "--policy", "seed"], "keysim report: error: give at most one of --batch, --policy, --comparison, --sweep and --run"),
        ]
        for (arguments, message) in cases {
            let result = try runKeysim(["report", db] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
    }

    func testEveryFormatKeepsOnlyTheSelectedRows() throws {
        let (folder, db) = Self.report
        // CSV and JSON: the batch's runs and rows only, its job, no comparison of another side.
        let csv = try runKeysim(["report", db, "--batch", "2", "--format", "csv", "--out", folder.path("csv-2")])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        func column(_ file: String, _ name: String) throws -> [String] {
            let lines = try String(contentsOfFile: folder.path("csv-2/\(file)"), encoding: .utf8).split(separator: "\r\n").map(String.init)
            let index = try XCTUnwrap(lines[0].split(separator: ",").firstIndex(of: Substring(name)), "\(file) has no \(name)")
            return lines.dropFirst().map { String($0.split(separator: ",", omittingEmptySubsequences: false)[index]) }
        }
        XCTAssertEqual(try column("runs.csv", "run_id"), ["3", "4"])
        XCTAssertEqual(Set(try column("keys.csv", "run_id")), ["3", "4"])
        XCTAssertEqual(try column("batches.csv", "batch_id"), ["2"])
        XCTAssertEqual(try column("jobs.csv", "job_id"), ["1"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("csv-2/comparisons.csv")), "one side of a comparison holds no comparison")

        let json = try runKeysim(["report", db, "--comparison", "1", "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tables = try XCTUnwrap(document["tables"] as? [String: Any])
        func rows(_ name: String) throws -> [[Any]] { try XCTUnwrap((tables[name] as? [String: Any])?["data"] as? [[Any]], name) }
        XCTAssertEqual(try rows("runs").map { $0[0] as? Int }, [1, 2, 3, 4])
        XCTAssertEqual(try rows("comparisons").count, 1)
        XCTAssertNil(tables["sweeps"], "a comparison holds no sweep")
        XCTAssertEqual((document["selection"] as? String), "comparison 1: seed vs fixed-1s (batches 1, 2; 4 runs)")

        // Markdown and HTML: the batch's tables only, and what was selected.
        let markdown = try runKeysim(["report", db, "--sweep", "1", "--format", "md-full"])
        XCTAssertEqual(markdown.status, 0, markdown.stderr)
        XCTAssertTrue(markdown.stdout.contains("Selected: sweep 1: default, debounce.otherwiseMs, 2 points (2 runs)."), markdown.stdout)
        XCTAssertTrue(markdown.stdout.contains("| 3 | sweep | default | debounce.otherwiseMs=500 |"), markdown.stdout)
        XCTAssertFalse(markdown.stdout.contains("| 1 | compare |"), markdown.stdout)
        XCTAssertTrue(markdown.stdout.contains("### default: debounce.otherwiseMs, 2 points"), markdown.stdout)
        XCTAssertFalse(markdown.stdout.contains("seed vs fixed-1s"), markdown.stdout)
        let html = try runKeysim(["report", db, "--policy", "seed", "--format", "html"])
        XCTAssertEqual(html.status, 0, html.stderr)
        XCTAssertTrue(html.stdout.contains("batch 1: seed ("), "the latency charts draw the batch")
        XCTAssertFalse(html.stdout.contains("batch 2: fixed-1s"), "and no other")

        // A timeline draws the first run of the batch asked for.
        let trace = try runKeysim(["report", db, "--policy", "fixed-1s", "--format", "chrome-trace"])
        XCTAssertEqual(trace.status, 0, trace.stderr)
        let events = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(trace.stdout.utf8)) as? [String: Any])?["traceEvents"] as? [[String: Any]])
        XCTAssertTrue(events.contains { ($0["args"] as? [String: Any])?["name"] as? String == "keysim run 3: default / fixed-1s, replication 0, trace 0" })
    }
}
