import XCTest

@testable import Report
import Scenarios

/// `debounce_events` of a real run: kept with the tasks (replication 0 at `default`), every
/// request sent by a fire at its sending time, and every arming ended by the next record.
final class DebounceEventsTableTests: XCTestCase {
    func testTheTimerRecordsOfTheRunsThatKeepATimeline() throws {
        let folder = try ReportFolder()
        let path = folder.path("r.sqlite")
        var scenario = try Fixtures.scenario(policy: "seed")
        scenario.detail = .default
        _ = try JobRunner.run(try Job(command: "run", batches: [JobBatch(label: "seed", scenario: scenario)], seed: 42, replications: 2),
                              shard: .whole, threads: 2, reportPath: path, busyTimeoutMs: 1000)
        let db = try ReportStore(path: path, readOnly: true).database
        func integer(_ sql: String) throws -> Int64 { if case .integer(let n) = try db.query(sql)[0][0] { n } else { -1 } }
        XCTAssertEqual(try db.query("SELECT DISTINCT run_id FROM debounce_events ORDER BY 1").map(\.[0]),
                       try db.query("SELECT DISTINCT run_id FROM task_rows ORDER BY 1").map(\.[0]), "kept where the tasks are")
        XCTAssertEqual(try integer("SELECT COUNT(DISTINCT run_id) FROM debounce_events"), 1)
        let run = try integer("SELECT MIN(run_id) FROM debounce_events")
        // The seed policy sends only from its timer: a fire per request, at its sending time.
        XCTAssertEqual(try integer("SELECT COUNT(*) FROM debounce_events WHERE run_id = \(run) AND request_id IS NOT NULL"),
                       try integer("SELECT COUNT(*) FROM requests WHERE run_id = \(run)"))
        XCTAssertGreaterThan(try integer("SELECT COUNT(*) FROM requests WHERE run_id = \(run)"), 10)
        XCTAssertEqual(try integer("""
            SELECT COUNT(*) FROM debounce_events d JOIN requests q ON q.run_id = d.run_id AND q.request_id = d.request_id
            WHERE d.run_id = \(run) AND (q.sent_ns <> d.time_ns OR q."trigger" <> d."trigger" OR d.event <> 'fire')
            """), 0)
        // A fire names the key whose edit armed the timer last, and that key landed then.
        XCTAssertEqual(try integer("""
            SELECT COUNT(*) FROM debounce_events f WHERE f.run_id = \(run) AND f.event = 'fire' AND f.key_index IS NOT
                (SELECT a.key_index FROM debounce_events a WHERE a.run_id = f.run_id AND a.seq < f.seq AND a.event IN ('arm', 'rearm')
                 ORDER BY a.seq DESC LIMIT 1)
            """), 0)
        XCTAssertEqual(try integer("""
            SELECT COUNT(*) FROM debounce_events d JOIN keys k ON k.run_id = d.run_id AND k.key_index = d.key_index
            WHERE d.run_id = \(run) AND d.event IN ('arm', 'rearm') AND k.inserted_ns <> d.time_ns
            """), 0)
        // An arm finds the timer idle (after a fire or cancel, or first); a re-arm finds it armed.
        XCTAssertEqual(try integer("""
            SELECT COUNT(*) FROM debounce_events d WHERE d.run_id = \(run) AND d.event IN ('arm', 'rearm')
              AND (d.event = 'rearm') <> COALESCE((SELECT p.event IN ('arm', 'rearm') FROM debounce_events p
                                                  WHERE p.run_id = d.run_id AND p.seq = d.seq - 1), 0)
            """), 0)
        XCTAssertGreaterThan(try integer("SELECT COUNT(*) FROM debounce_events WHERE run_id = \(run) AND event = 'rearm'"),
                             try integer("SELECT COUNT(*) FROM debounce_events WHERE run_id = \(run) AND event = 'arm'"))
    }
}
