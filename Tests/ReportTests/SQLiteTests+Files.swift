import Foundation
import XCTest

@testable import Report

/// The database as a file: one that is not SQLite, opening failures and read-only use,
/// the header's versions, WAL with a second writer, and the bulk insert path.
extension SQLiteTests {
    func testFileThatIsNotSQLiteFailsAtFirstQuery() throws {
        let path = temporaryPath("garbage.sqlite")
        var generator = SplitMix(seed: 7)
        let garbage = (0..<8192).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        try Data(garbage).write(to: URL(fileURLWithPath: path))
        let db = try Database(path: path)
        XCTAssertThrowsError(try db.query("SELECT count(*) FROM sqlite_master")) { error in
            guard let error = error as? SQLiteError else { return XCTFail("not a SQLiteError: \(error)") }
            XCTAssertTrue(error.isNotADatabase, error.description)
            XCTAssertEqual(error.codeName, "SQLITE_NOTADB")
            XCTAssertTrue(error.description.hasPrefix(path + ": "), error.description)
        }
        XCTAssertThrowsError(try db.userVersion()) { error in
            XCTAssertEqual((error as? SQLiteError)?.isNotADatabase, true)
        }
    }

    /// An immutable open names the file by a `file:` URI: a relative path is made absolute
    /// from the working directory, and bytes a URI reads otherwise are percent-encoded.
    func testTheURIPathOfAnImmutableOpen() throws {
        let directory = FileManager.default.currentDirectoryPath
        let encodedDirectory = Database.uriPath(directory)
        XCTAssertTrue(encodedDirectory.hasPrefix("/"), encodedDirectory)
        XCTAssertEqual(Database.uriPath("r 1#%?é.sqlite"), encodedDirectory + "/r%201%23%25%3F%C3%A9.sqlite")
        XCTAssertEqual(Database.uriPath("/abs/report.sqlite"), "/abs/report.sqlite")
        // And the database opens by it.
        let path = temporaryPath("immutable #1.sqlite")
        try Database(path: path).execute("CREATE TABLE t(x); INSERT INTO t VALUES (7)")
        let immutable = try Database(path: path, immutable: true)
        XCTAssertEqual(try immutable.query("SELECT x FROM t"), [[.integer(7)]])
    }

    func testOpeningFailuresAndReadOnly() throws {
        let missing = temporaryPath("no/such/dir/report.sqlite")
        XCTAssertThrowsError(try Database(path: missing)) { error in
            let error = error as? SQLiteError
            XCTAssertEqual(error?.isCannotOpen, true)
            XCTAssertEqual(error?.path, missing)
        }
        XCTAssertThrowsError(try Database(path: temporaryPath("absent.sqlite"), readOnly: true)) { error in
            XCTAssertEqual((error as? SQLiteError)?.isCannotOpen, true)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: temporaryPath("absent.sqlite")), "read-only never creates")

        let path = temporaryPath("ro.sqlite")
        try Database(path: path).execute("CREATE TABLE t(a); INSERT INTO t VALUES (1)")
        let reader = try Database(path: path, readOnly: true)
        XCTAssertTrue(reader.isReadOnly)
        XCTAssertEqual(try reader.query("SELECT a FROM t"), [[.integer(1)]])
        XCTAssertThrowsError(try reader.execute("INSERT INTO t VALUES (2)")) { error in
            XCTAssertEqual((error as? SQLiteError)?.isReadOnly, true)
        }
    }

    func testUserVersionAndApplicationIDPersist() throws {
        let path = temporaryPath("versions.sqlite")
        do {
            let db = try Database(path: path)
            XCTAssertEqual(try db.userVersion(), 0)
            XCTAssertEqual(try db.applicationID(), 0)
            try db.setUserVersion(42)
            try db.setApplicationID(0x4B53_494D)  // "KSIM"
            try db.setUserVersion(43)
            XCTAssertEqual(try db.userVersion(), 43)
        }
        let reopened = try Database(path: path, readOnly: true)
        XCTAssertEqual(try reopened.userVersion(), 43)
        XCTAssertEqual(try reopened.applicationID(), 0x4B53_494D)

        let memory = try Database(path: ":memory:")
        try memory.setUserVersion(-7)
        XCTAssertEqual(try memory.userVersion(), -7)
        try memory.setApplicationID(-1)
        XCTAssertEqual(try memory.applicationID(), -1)
    }

    func testWALAndSecondWriterWaitsOnBusyTimeout() throws {
        let path = temporaryPath("wal.sqlite")
        let setup = try Database(path: path)
        XCTAssertTrue(try setup.enableWAL())
        XCTAssertEqual(try setup.query("PRAGMA journal_mode"), [[.text("wal")]])
        try setup.execute("CREATE TABLE t(writer TEXT, n INTEGER)")
        XCTAssertFalse(try Database(path: ":memory:").enableWAL(), "in-memory databases cannot use WAL")

        let holdMs = 300
        let locked = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let firstWriterError = LockedBox<String?>(nil)
        let thread = Thread {
            do {
                // One connection per thread: this one is created and used only here.
                let first = try Database(path: path)
                try first.transaction {
                    try first.execute("INSERT INTO t VALUES ('first', 1)")
                    locked.signal()
                    Thread.sleep(forTimeInterval: Double(holdMs) / 1000)
                }
            } catch {
                firstWriterError.set("\(error)")
                locked.signal()
            }
            finished.signal()
        }
        thread.start()
        locked.wait()

        // A writer without patience fails at once with SQLITE_BUSY.
        let impatient = try Database(path: path, busyTimeoutMs: 0)
        XCTAssertThrowsError(try impatient.transaction { try impatient.execute("INSERT INTO t VALUES ('impatient', 0)") }) { error in
            XCTAssertEqual((error as? SQLiteError)?.isBusy, true, "\(error)")
        }
        // WAL lets a reader read while the writer holds its lock; it sees only committed rows.
        XCTAssertEqual(try impatient.query("SELECT count(*) FROM t"), [[.integer(0)]])

        // A patient writer waits for the lock and then succeeds.
        let second = try Database(path: path, busyTimeoutMs: 5_000)
        let waitStart = DispatchTime.now()
        try second.transaction { try second.execute("INSERT INTO t VALUES ('second', 2)") }
        let waitedMs = Double(DispatchTime.now().uptimeNanoseconds - waitStart.uptimeNanoseconds) / 1e6
        finished.wait()
        XCTAssertNil(firstWriterError.get())
        XCTAssertGreaterThan(waitedMs, Double(holdMs) / 3, "the second writer should have waited for the first")
        XCTAssertEqual(try second.query("SELECT writer, n FROM t ORDER BY n"),
                       [[.text("first"), .integer(1)], [.text("second"), .integer(2)]])
    }

    /// Measures the prepared-insert path the report writer uses. Prints rows per second;
    /// asserts only correctness, since timing depends on the machine and the build.
    func testBulkInsertThroughput() throws {
        let db = try Database(path: temporaryPath("bulk.sqlite"))
        try db.enableWAL()
        try db.execute("CREATE TABLE obs(replication INTEGER, time_ns INTEGER, kind INTEGER, value REAL, label TEXT)")
        let insert = try db.prepare("INSERT INTO obs VALUES (?, ?, ?, ?, ?)")
        let rowCount = 200_000
        let labels = ["key", "suggestion", "cloud"]
        let start = DispatchTime.now()
        try db.transaction {
            for i in 0..<rowCount {
                try insert.bind(Int64(i >> 16), at: 1)
                try insert.bind(Int64(i) * 1_000_003, at: 2)
                try insert.bind(Int64(i % 3), at: 3)
                try insert.bind(Double(i) * 0.5, at: 4)
                try insert.bind(labels[i % 3], at: 5)
                try insert.step()
                insert.reset()
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        print("bench sqlite_insert_rows_per_second \(Int(Double(rowCount) / seconds)) rows/s (5 columns, this build)")
        XCTAssertEqual(try db.query("SELECT count(*), sum(kind) FROM obs"),
                       [[.integer(Int64(rowCount)), .integer(Int64((0..<rowCount).reduce(0) { $0 + $1 % 3 }))]])
    }
}

/// A value shared with a test thread under a lock.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}
