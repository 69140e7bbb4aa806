import Foundation
import Report
import XCTest

final class ReportCommandTests: XCTestCase {
    let scenario = "scenarios/default.json5"

    private func makeReport(_ folder: TemporaryFolder) throws -> String {
        let db = folder.path("r.sqlite")
        let result = try runKeysim(["compare", scenario, "--policy", "seed", "--policy", "fixed-1s", "--replications", "2", "--db", db])
        XCTAssertEqual(result.status, 0, result.stderr)
        return db
    }

    func testEveryFormat() throws {
        let folder = try TemporaryFolder()
        let db = try makeReport(folder)
        let markdown = try runKeysim(["report", db])
        XCTAssertEqual(markdown.status, 0, markdown.stderr)
        XCTAssertTrue(markdown.stdout.hasPrefix("# keysim report\n"), markdown.stdout)
        // The compact form: one summary table open, the comparison folded.
        XCTAssertTrue(markdown.stdout.contains("| batch | policy / point | runs | key p99 (ms) | keys over budget | requests per 100 words"), markdown.stdout)
        XCTAssertTrue(markdown.stdout.contains("<details><summary>Comparison: seed vs fixed-1s — default, 2 pairs, "), markdown.stdout)
        XCTAssertFalse(markdown.stdout.contains("### seed vs fixed-1s"), "no section is open but the summary")
        XCTAssertFalse(markdown.stdout.contains("Touch boundaries"), "no touches, no section")
        let full = try runKeysim(["report", db, "--format", "md-full"])
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertTrue(full.stdout.contains("### seed vs fixed-1s — default, 2 pairs"), full.stdout)
        XCTAssertFalse(full.stdout.contains("<details>"), full.stdout)

        let html = try runKeysim(["report", db, "--format", "html", "--out", folder.path("r.html")])
        XCTAssertEqual(html.status, 0, html.stderr)
        XCTAssertEqual(html.stdout, "")
        let page = try String(contentsOfFile: folder.path("r.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("<svg") && !page.contains("<script"))

        let json = try runKeysim(["report", db, "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["keysim"] as? String, "report")

        let csv = try runKeysim(["report", db, "--format", "csv", "--out", folder.path("csv")])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.path("csv/runs.csv")))
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.path("csv/comparison_metrics.csv")))

        let trace = try runKeysim(["report", db, "--format", "chrome-trace", "--run", "2"])
        XCTAssertEqual(trace.status, 0, trace.stderr)
        let events = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(trace.stdout.utf8)) as? [String: Any])?["traceEvents"] as? [[String: Any]])
        XCTAssertTrue(events.contains { ($0["args"] as? [String: Any])?["name"] as? String == "keysim run 2: default / seed, replication 1, trace 0" })
        XCTAssertTrue(events.contains { $0["ph"] as? String == "X" })
    }

    /// The touch-boundary table of a real report: one row per batch, figures as the `touches`
    /// table gives them, in Markdown and HTML, for the whole report and for one run.
    func testTouchBoundariesSection() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("touch.sqlite")
        for policy in ["no-shift", "slow-predictor"] {
            let run = try runKeysim(["run", "scenarios/touch-boundaries.json5", "--policy", policy, "--replications", "1", "--db", db])
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        let store = try ReportStore(path: db, readOnly: true)
        let figures = try store.database.query("""
            SELECT r.batch_id, COUNT(*), AVG(plain_typo), AVG(shifted_typo), SUM(plain_typo AND NOT shifted_typo),
                   SUM(shifted_typo AND NOT plain_typo), 1.0 - AVG(ready), AVG(CASE WHEN NOT ready THEN late_ns END) / 1e6
            FROM touches JOIN runs r USING (run_id) GROUP BY r.batch_id ORDER BY r.batch_id
            """)
        XCTAssertEqual(figures.count, 2)
        func number(_ value: SQLValue) -> Double? {
            switch value {
            case .integer(let n): return Double(n)
            case .real(let x): return x
            default: return nil
            }
        }
        func row(_ f: [SQLValue], _ label: String) -> [String] {
            let n = f.map(number)
            func percent(_ share: Double?) -> String { TextTable.fixed(share! * 100, 2) + "%" }
            return [TextTable.fixed(n[0]!, 0), label, "1", TextTable.fixed(n[1]!, 0), percent(n[2]), percent(n[3]),
                    TextTable.fixed(n[4]!, 0), TextTable.fixed(n[5]!, 0), percent(n[6]), n[7].map { TextTable.fixed($0, 1) } ?? "–"]
        }
        let noShift = row(figures[0], "no-shift"), slow = row(figures[1], "slow-predictor")
        XCTAssertEqual(noShift[6], "0", "without a shift nothing is fixed")
        XCTAssertEqual(noShift[7], "0", "without a shift nothing is caused")
        XCTAssertNotEqual(slow[6], "0", "the shift fixes some typos")
        XCTAssertNotEqual(slow[9], "–", "the slow predictor is late")

        let markdown = try runKeysim(["report", db, "--format", "md-full"])
        XCTAssertEqual(markdown.status, 0, markdown.stderr)
        XCTAssertTrue(markdown.stdout.contains("""
            ## Touch boundaries

            | batch | policy / point | runs | touches | typo rate, drawn | typo rate, shifted | fixed by the shift | caused by the shift | predictions late | mean late (ms) |
            | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
            | \(noShift.joined(separator: " | ")) |
            | \(slow.joined(separator: " | ")) |

            """), markdown.stdout)

        let oneRun = try runKeysim(["report", db, "--run", "2", "--format", "md-full"])
        XCTAssertEqual(oneRun.status, 0, oneRun.stderr)
        XCTAssertTrue(oneRun.stdout.contains("| \(slow.joined(separator: " | ")) |\n\n"), oneRun.stdout)
        XCTAssertFalse(oneRun.stdout.contains("| no-shift |"), oneRun.stdout)

        let html = try runKeysim(["report", db, "--format", "html"])
        XCTAssertEqual(html.status, 0, html.stderr)
        XCTAssertTrue(html.stdout.contains("<h2>Touch boundaries</h2>"), html.stdout)
        XCTAssertTrue(html.stdout.contains("<td class=\"num\">\(slow[3])</td><td class=\"num\">\(slow[4])</td>"), html.stdout)
    }

    func testReportErrorsExitWithTwo() throws {
        let folder = try TemporaryFolder()
        let db = try makeReport(folder)
        let text = try folder.write("notes.txt", "these are notes, not a database; long enough to fill a SQLite header.....")
        let other = folder.path("other.sqlite")
        try Database(path: other).execute("CREATE TABLE songs(title TEXT)")
        let older = folder.path("older.sqlite")
        try FileManager.default.copyItem(atPath: db, toPath: older)
        try Database(path: older).setUserVersion(0)
        let cases: [([String], String)] = [
            (["report", text], "notes.txt: error: not a SQLite file"),
            (["report", other], "other.sqlite: error: a SQLite file, but not a keysim report"),
            (["report", older], "older.sqlite: error: written by an older keysim (report schema 0; this keysim reads \(ReportSchema.version))"),
            (["report", folder.path("missing.sqlite")], "missing.sqlite: error: no such report file"),
            (["report", db, "--format", "pdf"], "keysim report: error: unknown --format 'pdf'"),
            (["report", db, "--format", "csv"], "--format csv writes one file per table: give --out FOLDER"),
            (["report", db, "--run", "99"], "r.sqlite: error: no run 99; runs are 1…4"),
            (["report", db, "--run", "0"], "--run must be a whole number from 1"),
            (["report"], "keysim report: error: missing <db>"),
        ]
        for (arguments, message) in cases {
            let result = try runKeysim(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("missing.sqlite")), "reading never creates a report")
        let help = try runKeysim(["report", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--include-text") && help.stdout.contains("chrome-trace"), help.stdout)
    }

    func testALockedReportFailsPastTheBusyTimeout() throws {
        let folder = try TemporaryFolder()
        let db = try makeReport(folder)
        let before = FileManager.default.contents(atPath: db)
        // A writer holding the lock: keysim waits for the timeout, then says so and changes nothing.
        let holder = try Database(path: db)
        try holder.execute("BEGIN IMMEDIATE")
        let result = try runKeysim(["run", scenario, "--replications", "1", "--db", db], environment: ["KEYSIM_BUSY_TIMEOUT_MS": "200"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("r.sqlite: error: the report is locked by another process and stayed locked past the busy timeout"), result.stderr)
        try holder.execute("ROLLBACK")
        XCTAssertEqual(try ReportStore(path: db, readOnly: true).database.query("SELECT COUNT(*) FROM batches"), [[2]])
        _ = before
    }
}
