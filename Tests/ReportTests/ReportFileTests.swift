import Foundation
import XCTest

@testable import Report
import Scenarios

/// The report file as a shared, durable artefact: refused when it is not ours, whole
/// batches or nothing, several writers at once.
final class ReportFileTests: XCTestCase {
    private func results(replications: Int) throws -> (BatchInfo, [RunResult]) {
        let scenario = try Fixtures.scenario()
        let items = ScenarioRunner.workItems(replications: replications, traceCount: scenario.traces.count)
        let results = try ScenarioRunner.run(scenario, items: items, jobs: 2)
        return (BatchInfo(command: "test", scenario: scenario, scenarioHash: "h", tracesHash: "t", wallSeconds: 0), results)
    }

    func testFilesThatAreNotKeysimReportsOfThisSchemaAreRefusedUnchanged() throws {
        let folder = try ReportFolder()
        let text = folder.path("notes.txt")
        try "hello, not a database at all, but long enough to have a header....................".write(toFile: text, atomically: true, encoding: .utf8)
        let other = folder.path("other.sqlite")
        try Database(path: other).execute("CREATE TABLE photos(id INTEGER PRIMARY KEY)")
        let older = folder.path("older.sqlite")
        _ = try ReportStore(path: older)
        try Database(path: older).setUserVersion(0)
        let newer = folder.path("newer.sqlite")
        _ = try ReportStore(path: newer)
        try Database(path: newer).setUserVersion(ReportSchema.version + 1)
        let cases: [(String, String)] = [
            (text, "not a SQLite file"),
            (other, "a SQLite file, but not a keysim report"),
            (older, "written by an older keysim (report schema 0"),
            (newer, "written by a newer keysim"),
        ]
        for (path, message) in cases {
            let before = Fixtures.bytes(path)
            for readOnly in [false, true] {
                XCTAssertThrowsError(try ReportStore(path: path, readOnly: readOnly)) { error in
                    XCTAssertTrue("\(error)".hasPrefix("\(path): error: "), "\(error)")
                    XCTAssertTrue("\(error)".contains(message), "\(path): \(error)")
                }
            }
            XCTAssertEqual(Fixtures.bytes(path), before, "\(path) must not change")
        }
    }

    func testALockedReportFailsAfterTheBusyTimeout() throws {
        let folder = try ReportFolder()
        let path = folder.path("r.sqlite")
        let store = try ReportStore(path: path)
        let (batch, results) = try results(replications: 1)
        try store.write(batch, results: results)
        let writer = try ReportStore(path: path, busyTimeoutMs: 150)
        let holder = try Database(path: path)
        try holder.execute("BEGIN IMMEDIATE")
        let started = Date()
        XCTAssertThrowsError(try writer.write(batch, results: results)) { error in
            XCTAssertTrue("\(error)".contains("locked by another process and stayed locked past the busy timeout"), "\(error)")
        }
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.1)
        try holder.execute("ROLLBACK")
        try writer.write(batch, results: results)
        XCTAssertEqual(try writer.database.query("SELECT COUNT(*) FROM batches"), [[2]])
    }

    func testAFullDiskKeepsTheEarlierBatchesAndTheFileReadable() throws {
        let folder = try ReportFolder()
        let path = folder.path("r.sqlite")
        let store = try ReportStore(path: path)
        let (batch, results) = try results(replications: 2)
        try store.write(batch, results: Array(results.prefix(1)))
        let pages = try store.database.query("PRAGMA page_count")[0][0].integerValue
        // A database that may not grow is what a full disk looks like to SQLite.
        try store.database.execute("PRAGMA max_page_count = \(pages + 2)")
        XCTAssertThrowsError(try store.write(batch, results: results)) { error in
            XCTAssertTrue("\(error)".contains("disk full"), "\(error)")
        }
        let reader = try ReportStore(path: path, readOnly: true)
        XCTAssertEqual(try reader.database.query("SELECT COUNT(*) FROM batches"), [[1]])
        XCTAssertEqual(try reader.database.query("SELECT COUNT(*) FROM runs"), [[1]])
        XCTAssertEqual(try reader.database.query("PRAGMA integrity_check"), [["ok"]])
    }

    func testSeveralWritersAtOnceEachWriteWholeBatches() throws {
        let folder = try ReportFolder()
        let path = folder.path("r.sqlite")
        _ = try ReportStore(path: path)
        let (batch, results) = try results(replications: 2)
        let failures = FailureBox()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let store = try ReportStore(path: path, busyTimeoutMs: 20_000)
                for _ in 0..<2 { try store.write(batch, results: results) }
            } catch {
                failures.add("\(error)")
            }
        }
        XCTAssertEqual(failures.all, [])
        let reader = try ReportStore(path: path, readOnly: true)
        XCTAssertEqual(try reader.database.query("SELECT COUNT(*) FROM batches"), [[8]])
        // Each batch's runs are contiguous: a batch is one transaction.
        XCTAssertEqual(try reader.database.query("SELECT COUNT(*) FROM (SELECT batch_id FROM runs GROUP BY batch_id HAVING MAX(run_id) - MIN(run_id) = 1 AND COUNT(*) = 2)"), [[8]])
        XCTAssertEqual(try reader.database.query("PRAGMA journal_mode"), [["wal"]])
    }

    func testReadersLeaveNoWriteAheadFilesBehind() throws {
        let folder = try ReportFolder()
        let path = folder.path("r.sqlite")
        do {
            let store = try ReportStore(path: path)
            let (batch, results) = try results(replications: 1)
            try store.write(batch, results: results)
        }
        do {
            let reader = try ReportStore(path: path, readOnly: true)
            XCTAssertThrowsError(try reader.database.execute("DELETE FROM runs"), "a reader cannot write")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-shm"))
    }

    func testNewReportsUseLargePagesAndWAL() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("keysim-pages-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try ReportStore(path: path)
        XCTAssertEqual(try store.database.query("PRAGMA page_size"), [[.integer(Int64(ReportStore.pageSize))]])
        XCTAssertEqual(try store.database.query("PRAGMA journal_mode"), [[.text("wal")]])
        XCTAssertEqual(try store.database.query("PRAGMA synchronous"), [[0]], "reports are not synced (see docs/report-schema.md)")
    }
}
