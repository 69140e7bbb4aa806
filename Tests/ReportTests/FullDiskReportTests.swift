import Foundation
import XCTest

@testable import Report
import Scenarios

/// A run that fails on a full disk leaves the report's bytes as they were: no space taken
/// in the file, no log left beside it (issue 29; `docs/report-schema.md`, "The file").
final class FullDiskReportTests: XCTestCase {
    private static func runJob(replications: Int, seed: UInt64) throws -> Job {
        try Job(command: "run", batches: [JobBatch(label: "", scenario: try Fixtures.scenario())], seed: seed, replications: replications)
    }

    func testAFailedRunOnAFullDiskLeavesTheReportAsItWas() throws {
        let disk = try SmallDisk(megabytes: 24)
        let report = disk.path + "/r.sqlite"
        _ = try JobRunner.run(try Self.runJob(replications: 1, seed: 1), shard: .whole, threads: 2, reportPath: report, busyTimeoutMs: 1000)
        var batches: Int64 = 1
        var failures = 0
        for spareKiB in [4000, 2000, 1200, 600, 300, 100] {
            let before = try XCTUnwrap(FileManager.default.contents(atPath: report))
            disk.fill(leaving: spareKiB)
            do {
                _ = try JobRunner.run(try Self.runJob(replications: 4, seed: UInt64(spareKiB)), shard: .whole, threads: 2,
                                      reportPath: report, busyTimeoutMs: 1000)
                batches += 1
            } catch {
                failures += 1
                XCTAssertTrue("\(error)".contains("disk full"), "spare \(spareKiB) KiB: \(error)")
                XCTAssertEqual(FileManager.default.contents(atPath: report), before, "spare \(spareKiB) KiB: the report's bytes")
            }
            disk.empty()
            for suffix in ["-wal", "-shm"] {
                XCTAssertFalse(FileManager.default.fileExists(atPath: report + suffix), "spare \(spareKiB) KiB: \(suffix) left beside the report")
            }
            let reader = try ReportStore(path: report, readOnly: true)
            XCTAssertEqual(try reader.database.query("PRAGMA integrity_check"), [["ok"]], "spare \(spareKiB) KiB")
            XCTAssertEqual(try reader.database.query("SELECT COUNT(*) FROM batches"), [[.integer(batches)]], "spare \(spareKiB) KiB")
        }
        XCTAssertGreaterThan(failures, 0, "the disk never filled up: the test tests nothing")
    }
}

/// The space a batch's pages take in the report file: allocated ahead only when the disk
/// can take it, and given back when the batch fails after all.
final class ReportSpaceTests: XCTestCase {
    /// A report on `disk` with everything folded into its file, and a write transaction
    /// holding about `megabytes` of new pages, all in the log.
    private static func pendingBatch(on disk: SmallDisk, megabytes: Int) throws -> (ReportStore, Int64) {
        let store = try ReportStore(path: disk.path + "/r.sqlite")
        _ = try store.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
        let before = try XCTUnwrap(store.database.mainFileBytes)
        try store.database.execute("BEGIN IMMEDIATE")
        let insert = try store.database.prepare("INSERT INTO run_metrics (run_id, metric, value) VALUES (?, ?, ?)")
        for run in 0..<Int64(megabytes * 8_000) {
            try insert.execute([.integer(run), .text("metric with a long name \(run)"), .real(Double(run))])
        }
        try store.database.flushCacheToLog()
        return (store, before)
    }

    func testTheSpaceOfABatchThatFailsIsGivenBack() throws {
        let disk = try SmallDisk(megabytes: 16)
        let (store, before) = try Self.pendingBatch(on: disk, megabytes: 2)
        disk.fill(leaving: 6_000)
        try store.database.reserveSpaceForPages()
        XCTAssertGreaterThan(try XCTUnwrap(store.database.mainFileBytes), before, "allocated ahead on a disk short of space")
        try store.database.execute("ROLLBACK")
        try store.database.releaseSpace(downTo: before)
        XCTAssertEqual(store.database.mainFileBytes, before)
    }

    func testADiskTooFullForTheBatchIsRefusedBeforeTheFileGrows() throws {
        let disk = try SmallDisk(megabytes: 16)
        let (store, before) = try Self.pendingBatch(on: disk, megabytes: 2)
        disk.fill(leaving: 400)
        XCTAssertThrowsError(try store.database.reserveSpaceForPages()) { error in
            XCTAssertTrue((error as? SQLiteError)?.isFull == true, "\(error)")
        }
        XCTAssertEqual(store.database.mainFileBytes, before)
        try store.database.execute("ROLLBACK")
    }
}
