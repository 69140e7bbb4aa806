import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest

@testable import Report
import Scenarios

final class ExportTests: XCTestCase {
    /// A report with a comparison and a sweep, plus a table another part of keysim might
    /// add, holding typed text.
    private static func makeReport(_ folder: ReportFolder) throws -> String {
        let path = folder.path("r.sqlite")
        _ = try JobRunner.run(try Fixtures.compareJob(replications: 2), shard: .whole, threads: 2, reportPath: path, busyTimeoutMs: 1000)
        _ = try JobRunner.run(try Fixtures.sweepJob(values: [500, 2000], replications: 1), shard: .whole, threads: 2,
                              reportPath: path, busyTimeoutMs: 1000)
        let database = try Database(path: path)
        try database.execute("""
            CREATE TABLE words_seen (run_id INTEGER NOT NULL, word_index INTEGER NOT NULL, typed_text TEXT, latency_ns INTEGER,
                                     PRIMARY KEY (run_id, word_index)) WITHOUT ROWID;
            INSERT INTO words_seen VALUES (1, 0, 'secret password', 4000000), (1, 1, 'hunter2', 12000000), (2, 0, 'x', 1000000);
            INSERT INTO budget_violations VALUES (1, 'words_seen', 1, 12000000, 8000000, 'slow');
            """)
        return path
    }

    func testCSVAndJSONHoldEveryTableButNoTypedTextUnlessAsked() throws {
        let folder = try ReportFolder()
        let path = try Self.makeReport(folder)
        let store = try ReportStore(path: path, readOnly: true)
        let files = try CSVExporter().export(ExportSource(store, options: ExportOptions()), to: .folder(folder.path("csv")))
        let names = Set(files.map { URL(fileURLWithPath: $0).lastPathComponent })
        for table in ["runs.csv", "keys.csv", "requests.csv", "tasks.csv", "budget_violations.csv", "comparisons.csv",
                      "sweep_points.csv", "words_seen.csv", "latency_per_policy.csv", "requests_per_batch.csv"] {
            XCTAssertTrue(names.contains(table), "missing \(table) in \(names.sorted())")
        }
        let words = try String(contentsOfFile: folder.path("csv/words_seen.csv"), encoding: .utf8)
        XCTAssertEqual(words, "run_id,word_index,latency_ns\r\n1,0,4000000\r\n1,1,12000000\r\n2,0,1000000\r\n")
        let keys = try String(contentsOfFile: folder.path("csv/keys.csv"), encoding: .utf8)
        let keyCount = try store.database.query("SELECT COUNT(*) FROM keys")[0][0].integerValue
        XCTAssertEqual(keys.split(separator: "\r\n").count, Int(keyCount) + 1)
        // Internal tables stay out; index.csv says what each file holds, its rows and units.
        XCTAssertFalse(names.contains("key_rows.csv") || names.contains("task_rows.csv") || names.contains("job_runs.csv"), "\(names.sorted())")
        let indexLines = try String(contentsOfFile: folder.path("csv/index.csv"), encoding: .utf8).components(separatedBy: "\r\n")
        XCTAssertEqual(indexLines[0], "file,kind,one_row_per,written_at,rows,units,about")
        XCTAssertEqual(indexLines.count - 2, files.count - 1, "a line per file, and the header")
        let keysLine = try XCTUnwrap(indexLines.first { $0.hasPrefix("keys.csv,") })
        XCTAssertTrue(keysLine.hasPrefix("keys.csv,view,\"edit (key, backspace, paste, picked suggestion)\",,\(keyCount),"), keysLine)
        XCTAssertTrue(keysLine.contains("latency_ns=ns"), keysLine)
        let runCount = try store.database.query("SELECT COUNT(*) FROM runs")[0][0].integerValue
        let runsLine = try XCTUnwrap(indexLines.first { $0.hasPrefix("runs.csv,table,") })
        XCTAssertTrue(runsLine.contains(",\(runCount),"), runsLine)

        let withText = try CSVExporter().export(ExportSource(store, options: ExportOptions(includeText: true)), to: .folder(folder.path("csv-text")))
        XCTAssertEqual(withText.count, files.count)
        XCTAssertTrue(try String(contentsOfFile: folder.path("csv-text/words_seen.csv"), encoding: .utf8).contains("secret password"))

        let jsonPath = folder.path("r.json")
        try JSONExporter().write(ExportSource(store, options: ExportOptions()), to: try ReportOutput.file(jsonPath))
        let text = try String(contentsOfFile: jsonPath, encoding: .utf8)
        XCTAssertFalse(text.contains("secret password"))
        XCTAssertFalse(text.contains("hunter2"))
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let tables = try Self.rowObjects(document["tables"])
        XCTAssertEqual(tables["words_seen"]?.count, 3)
        XCTAssertEqual(tables["words_seen"]?.last?["latency_ns"] as? Int, 1_000_000)
        XCTAssertEqual(tables["comparisons"]?.first?["label_b"] as? String, "fixed-1s")
        XCTAssertEqual(document["omitted_text_columns"] as? [String], ["words_seen.typed_text"])
        XCTAssertNotNil((document["views"] as? [String: Any])?["key_latency_per_run"])
        // The index: what each holds, its rows and units; internal tables left out.
        let index = try XCTUnwrap(document["index"] as? [[String: Any]])
        let keysEntry = try XCTUnwrap(index.first { $0["name"] as? String == "keys" })
        XCTAssertEqual(keysEntry["kind"] as? String, "view")
        XCTAssertEqual(keysEntry["rows"] as? Int, Int(keyCount))
        XCTAssertEqual((keysEntry["units"] as? [String: String])?["latency_ns"], "ns")
        XCTAssertNil(tables["key_rows"], "the compact table is read through its views")
        XCTAssertFalse(index.contains { $0["name"] as? String == "key_rows" })

        // One run: only its rows and its batch's.
        let runJSON = folder.path("run.json")
        try JSONExporter().write(ExportSource(store, options: ExportOptions(runID: 2)), to: try ReportOutput.file(runJSON))
        let run = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: runJSON))) as? [String: Any])
        let runTables = try Self.rowObjects(run["tables"])
        XCTAssertEqual(runTables["runs"]?.count, 1)
        XCTAssertEqual(runTables["words_seen"]?.count, 1)
        XCTAssertEqual(runTables["batches"]?.count, 1)
        XCTAssertNil(runTables["metrics"], "tables of neither a run nor a batch are left out of a one-run export")
    }

    /// The JSON export's tables (`{"columns": [...], "data": [[row], …]}` each) as row objects.
    static func rowObjects(_ group: Any?) throws -> [String: [[String: Any]]] {
        let tables = try XCTUnwrap(group as? [String: [String: Any]])
        return try tables.mapValues { table in
            let columns = try XCTUnwrap(table["columns"] as? [String])
            let data = try XCTUnwrap(table["data"] as? [[Any]])
            return data.map { Dictionary(uniqueKeysWithValues: zip(columns, $0)) }
        }
    }

    func testMarkdownSummarisesBatchesComparisonsAndSweeps() throws {
        let folder = try ReportFolder()
        let store = try ReportStore(path: try Self.makeReport(folder), readOnly: true)
        let markdown = MarkdownExporter.render(try ReportDigest(store, options: ExportOptions()))
        for fragment in ["# keysim report", "## Batches", "| 1 | compare | default | seed |", "## Key latency, touch to inserted (ms)",
                         "## Cloud requests", "## Budget violations", "### seed vs fixed-1s — default, 2 pairs",
                         "| cloud requests per 100 words |", "### default: debounce.otherwiseMs, 2 points",
                         "time to verdict (confirm or retract)", "| ---: |"] {
            XCTAssertTrue(markdown.contains(fragment), "missing '\(fragment)' in:\n\(markdown)")
        }
        let run = MarkdownExporter.render(try ReportDigest(store, options: ExportOptions(runID: 3)))
        XCTAssertTrue(run.contains("Run 3: scenario default, policy fixed-1s, replication 0"), run)
        XCTAssertFalse(run.contains("## Comparisons"))
        XCTAssertThrowsError(try ReportDigest(store, options: ExportOptions(runID: 99))) { error in
            XCTAssertTrue("\(error)".contains("no run 99; runs are 1…6"), "\(error)")
        }
    }

    func testHTMLIsOnePageWithChartsAndNothingToFetch() throws {
        let folder = try ReportFolder()
        let store = try ReportStore(path: try Self.makeReport(folder), readOnly: true)
        let path = folder.path("r.html")
        try HTMLExporter.write(store, options: ExportOptions(), to: try ReportOutput.file(path))
        let html = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(html.hasSuffix("</html>\n"))
        for absent in ["<script", "src=", "href=", "url(", "@import", "secret password"] {
            XCTAssertFalse(html.contains(absent), "the page must not contain '\(absent)'")
        }
        XCTAssertTrue(html.contains("default-src 'none'"))
        for fragment in ["Key latency, touch to inserted: cumulative distribution", "Key latency, touch to inserted: tail, share above (log scale)",
                         "Cloud request round trip: cumulative distribution", "budget 10 ms", "Words seen latency: histogram",
                         "budget 8 ms", "Trade-off: cloud requests per 100 words against time to verdict (confirm or retract), mean (ms)", "not separable",
                         "seed vs fixed-1s"] {
            XCTAssertTrue(html.contains(fragment), "missing '\(fragment)'")
        }
        // Four batches: 7 per-batch charts (time to verdict p50, p95 and p99, verdict coverage,
        // dollars and requests per words, cost against delay); CDF, tail
        // and a histogram per batch for 3 latency series, and for words_seen (one batch has
        // rows); the comparison's differences; 1 sweep chart.
        XCTAssertEqual(html.components(separatedBy: "<svg").count - 1, 7 + 3 * (2 + 4) + (2 + 1) + 1 + 1)
        // Well-formed SVG: every chart parses as XML.
        var rest = Substring(html)
        while let start = rest.range(of: "<svg"), let end = rest.range(of: "</svg>", range: start.upperBound..<rest.endIndex) {
            let svg = String(rest[start.lowerBound..<end.upperBound])
            XCTAssertNoThrow(try XMLDocument(xmlString: svg), String(svg.prefix(200)))
            rest = rest[end.upperBound...]
        }
    }

    func testChromeTraceOfOneReplication() throws {
        let folder = try ReportFolder()
        let store = try ReportStore(path: try Self.makeReport(folder), readOnly: true)
        let path = folder.path("trace.json")
        try ChromeTraceExporter.write(store, options: ExportOptions(runID: 1), to: try ReportOutput.file(path))
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let events = try XCTUnwrap(document["traceEvents"] as? [[String: Any]])
        let trackNames = events.filter { $0["name"] as? String == "thread_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        for track in ["main thread", "keys (touch → inserted)", "cloud requests", "debounce timer (armed → fired, re-armed or cancelled)",
                      "debounce timer: arm, re-arm, cancel, fire", "budget violations"] {
            XCTAssertTrue(trackNames.contains(track), "missing track \(track) in \(trackNames)")
        }
        let slices = events.filter { $0["ph"] as? String == "X" }
        let keys = try store.database.query("SELECT COUNT(*) FROM keys WHERE run_id = 1")[0][0].integerValue
        XCTAssertEqual(slices.filter { $0["cat"] as? String == "key" }.count, Int(keys))
        let tasks = try store.database.query("SELECT COUNT(*) FROM tasks WHERE run_id = 1 AND cancelled = 0")[0][0].integerValue
        XCTAssertEqual(slices.filter { $0["cat"] as? String == "task" }.count, Int(tasks), "one slice per task on every thread")
        var byTrack: [Int: [(Double, Double)]] = [:]
        for slice in slices {
            let ts = try XCTUnwrap(slice["ts"] as? Double), dur = try XCTUnwrap(slice["dur"] as? Double)
            XCTAssertGreaterThanOrEqual(dur, 0)
            byTrack[try XCTUnwrap(slice["tid"] as? Int), default: []].append((ts, ts + dur))
        }
        for (tid, intervals) in byTrack {
            let sorted = intervals.sorted { $0.0 < $1.0 }
            for (a, b) in zip(sorted, sorted.dropFirst()) {
                XCTAssertLessThanOrEqual(a.1, b.0 + 1e-6, "slices overlap on track \(tid)")
            }
        }
        // Slices are in microseconds: the first key's slice starts at its touch.
        let firstTouch = try store.database.query("SELECT MIN(touch_ns) FROM keys WHERE run_id = 1")[0][0].integerValue
        let firstKey = slices.filter { $0["cat"] as? String == "key" }.compactMap { $0["ts"] as? Double }.min()
        XCTAssertEqual(firstKey, Double(firstTouch) / 1000)
        XCTAssertEqual((document["otherData"] as? [String: Any])?["run_id"] as? Int, 1)

        // The timer: an instant per record, a slice per arming; a fire that sent each request.
        let timer = events.filter { $0["cat"] as? String == "timer" }
        func count(_ sql: String) throws -> Int { Int(try store.database.query(sql)[0][0].integerValue) }
        XCTAssertEqual(timer.filter { $0["ph"] as? String == "i" }.count, try count("SELECT COUNT(*) FROM debounce_events WHERE run_id = 1"))
        XCTAssertEqual(timer.filter { $0["ph"] as? String == "X" }.count,
                       try count("SELECT COUNT(*) FROM debounce_events WHERE run_id = 1 AND event IN ('arm', 'rearm')"))
        XCTAssertEqual(timer.filter { $0["name"] as? String == "fire → request" }.count, try count("SELECT COUNT(*) FROM requests WHERE run_id = 1"))
        // Flows: each key's chain starts (`s`) at its key, passes (`t`) its tasks and ends
        // (`f`) at its last stage; every flow event sits at the start of a slice of its track
        // (so a viewer binds it there), and a flow runs forward in time.
        let flowEvents = events.filter { ["s", "t", "f"].contains($0["ph"] as? String) }
        let byFlow = Dictionary(grouping: flowEvents) { $0["id"] as? Int ?? -1 }
        XCTAssertEqual(flowEvents.filter { $0["ph"] as? String == "s" }.count, byFlow.count)
        XCTAssertEqual(flowEvents.filter { $0["ph"] as? String == "f" }.count, byFlow.count)
        XCTAssertTrue(flowEvents.filter { $0["ph"] as? String == "f" }.allSatisfy { $0["bp"] as? String == "e" })
        XCTAssertEqual(byFlow.values.filter { $0.first?["name"] as? String == "key → suggestions" }.count, Int(keys))
        let starts = Set(events.filter { ["X", "i"].contains($0["ph"] as? String) }.compactMap { event -> String? in
            guard let tid = event["tid"] as? Int, let ts = event["ts"] as? Double else { return nil }
            return "\(tid)@\(ts)"
        })
        for (id, steps) in byFlow {
            XCTAssertEqual(steps.map { $0["ph"] as? String ?? "" }, ["s"] + Array(repeating: "t", count: steps.count - 2) + ["f"], "flow \(id)")
            let times = steps.compactMap { $0["ts"] as? Double }
            XCTAssertEqual(times, times.sorted(), "flow \(id)")
            for step in steps {
                XCTAssertTrue(starts.contains("\(step["tid"] as? Int ?? -1)@\(step["ts"] as? Double ?? -1)"), "flow \(id) binds to no slice")
            }
        }
        let firstChain = try XCTUnwrap(byFlow.values.first { ($0.first?["ts"] as? Double) == Double(firstTouch) / 1000 })
        XCTAssertEqual(firstChain.count, 5, "touch → key task → lookup → re-rank → draw")
    }
}
