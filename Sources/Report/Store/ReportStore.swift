import Foundation
import Scenarios
import Sim

/// The version of keysim, written into every report.
public enum KeysimVersion {
    /// Semantic version of this build.
    public static let current = "0.1.0"
}

/// An error about a report file: not SQLite, another tool's, an older schema, locked, full.
public struct ReportError: Error, CustomStringConvertible, Sendable {
    /// The report file.
    public var file: String
    /// What is wrong, for the user.
    public var message: String
    /// Creates an error.
    public init(file: String, message: String) { self.file = file; self.message = message }
    public var description: String { "\(file): error: \(message)" }
}

/// What a batch of runs was: one `keysim run`, one side of a comparison, one sweep point.
public struct BatchInfo: Sendable {
    /// "run", "compare", "sweep"…
    public var command: String
    /// The scenario (after policy and overrides).
    public var scenario: Scenario
    /// SHA-256 of the resolved scenario configuration.
    public var scenarioHash: String
    /// SHA-256 over the trace files' bytes, in scenario order.
    public var tracesHash: String
    /// Wall-clock seconds of the whole batch.
    public var wallSeconds: Double

    /// Creates a batch description.
    public init(command: String, scenario: Scenario, scenarioHash: String, tracesHash: String, wallSeconds: Double) {
        self.command = command
        self.scenario = scenario
        self.scenarioHash = scenarioHash
        self.tracesHash = tracesHash
        self.wallSeconds = wallSeconds
    }
}

/// A keysim report file: opens or creates it, checks it is a keysim report of this schema,
/// and writes runs so that each batch is wholly in the file or not at all.
public final class ReportStore {
    /// The underlying connection.
    public let database: Database
    /// The file.
    public let path: String

    /// The page cache of a writing connection, in KiB. Runs stream into a batch's transaction
    /// as they finish, so a long batch spills pages to the WAL before it commits; a cache
    /// much larger than this only grows the process (it held whole batches when they were
    /// written at once).
    static let writeCacheKiB = 8_192
    /// Reports survive a killed keysim (a run is wholly in the file or not at all) but are not
    /// synced to the disk: a report can always be made again from its scenario and seed, and
    /// syncing the millions of rows of a long run costs more than writing them.
    static let durability = Database.Durability.processCrashSafe
    /// The page size of new report files, in bytes: large pages mean fewer WAL frames,
    /// system calls and b-tree splits for the bulk tables.
    static let pageSize = 65_536

    /// Opens (or creates) a report. Refuses files that are not SQLite, belong to another
    /// tool, or were written with another schema version — without changing them.
    public init(path: String, readOnly: Bool = false, busyTimeoutMs: Int = 5000) throws(ReportError) {
        self.path = path
        if readOnly, path != ":memory:", !FileManager.default.fileExists(atPath: path) {
            throw ReportError(file: path, message: "no such report file")
        }
        do {
            database = try readOnly ? Self.openForReading(path, busyTimeoutMs: busyTimeoutMs)
                : Database(path: path, busyTimeoutMs: busyTimeoutMs)
            try Self.checkOrCreate(database, readOnly: readOnly, path: path)
            if !readOnly { try database.execute("PRAGMA cache_size = -\(Self.writeCacheKiB)") }
            // Every connection that may fold the log into the file (a writer, or a reader
            // closing) allocates the space first (`Database.setChunkSize`).
            if path != ":memory:" {
                try database.setChunkSize(Int32(Self.pageSize))
                // Writers fold the log themselves, space allocated first (`JobWriter.checkpoint`).
                if !readOnly { try database.execute("PRAGMA wal_autocheckpoint = 0") }
            }
        } catch let error as ReportError {
            throw error
        } catch let error as SQLiteError {
            throw Self.describe(error, path: path)
        } catch {
            throw ReportError(file: path, message: "\(error)")
        }
    }

    /// A connection that cannot change the data: read-write but `query_only` where the file
    /// allows it, so that closing it folds the WAL back into the file and removes the
    /// `-wal` and `-shm` files, as a plain read-only connection cannot; read-only otherwise.
    private static func openForReading(_ path: String, busyTimeoutMs: Int) throws(SQLiteError) -> Database {
        let database: Database
        if path != ":memory:", let writable = try? Database(path: path, busyTimeoutMs: busyTimeoutMs, create: false) {
            try writable.execute("PRAGMA query_only = 1")
            database = writable
        } else {
            database = try Database(path: path, readOnly: true, busyTimeoutMs: busyTimeoutMs)
        }
        // A report in a folder the user cannot write: SQLite cannot make the `-shm` file a
        // connection to a WAL file needs. With no `-wal` there is nothing in a log to read,
        // so the file is read as it stands.
        if path != ":memory:", !FileManager.default.fileExists(atPath: path + "-wal") {
            do {
                _ = try database.query("SELECT COUNT(*) FROM sqlite_master")
            } catch where error.isReadOnly || error.isCannotOpen {
                return try Database(path: path, busyTimeoutMs: busyTimeoutMs, immutable: true)
            }
        }
        return database
    }

    /// Maps a SQLite error to a message a user can act on.
    static func describe(_ error: SQLiteError, path: String) -> ReportError {
        if error.isNotADatabase { return ReportError(file: path, message: "not a SQLite file (is it a keysim report?)") }
        if error.isBusy || error.isLocked {
            return ReportError(file: path, message: "the report is locked by another process and stayed locked past the busy timeout")
        }
        if error.isFull { return ReportError(file: path, message: "disk full while writing the report; the earlier runs in it are intact") }
        if error.isCannotOpen { return ReportError(file: path, message: "cannot open the report file (\(error.message))") }
        if error.isReadOnly { return ReportError(file: path, message: "the report file is read-only") }
        return ReportError(file: path, message: "SQLite error: \(error)")
    }

    private static func checkOrCreate(_ db: Database, readOnly: Bool, path: String) throws {
        let tables = try db.query("SELECT COUNT(*) FROM sqlite_master")
        let applicationID = try db.applicationID()
        let isEmpty = tables.first?.first == .integer(0)
        if isEmpty && applicationID == 0 {
            guard !readOnly else { throw ReportError(file: path, message: "the file is empty, not a keysim report") }
            // Set before the first table exists (and before WAL, which fixes it).
            try db.execute("PRAGMA page_size = \(Self.pageSize)")
            if path != ":memory:" { _ = try db.enableWAL(durability: Self.durability) }
            try db.transaction {
                try db.setApplicationID(ReportSchema.applicationID)
                try db.setUserVersion(ReportSchema.version)
                try db.execute(ReportSchema.createSQL)
            }
            return
        }
        guard applicationID == ReportSchema.applicationID else {
            throw ReportError(file: path, message: "a SQLite file, but not a keysim report (application_id \(applicationID))")
        }
        let version = try db.userVersion()
        if version < ReportSchema.version {
            throw ReportError(file: path, message: "written by an older keysim (report schema \(version); this keysim reads \(ReportSchema.version)); write a new report file")
        }
        if version > ReportSchema.version {
            throw ReportError(file: path, message: "written by a newer keysim (report schema \(version); this keysim reads \(ReportSchema.version))")
        }
        if !readOnly && path != ":memory:" { _ = try db.enableWAL(durability: Self.durability) }
    }

    /// Writes a batch and its runs in one transaction and returns the new run ids, in the
    /// order of `results`. On any error nothing of the batch stays in the file.
    @discardableResult
    public func write(_ batch: BatchInfo, results: [RunResult]) throws(ReportError) -> [Int64] {
        do {
            return try database.transaction { () throws -> [Int64] in try insert(batch, results: results) }
        } catch let error as SQLiteError {
            throw Self.describe(error, path: path)
        } catch let error as ReportError {
            throw error
        } catch {
            throw ReportError(file: path, message: "\(error)")
        }
    }

    /// Inserts a batch and its runs inside the caller's transaction; returns the run ids.
    func insert(_ batch: BatchInfo, results: [RunResult]) throws -> [Int64] {
        let batchID = try insertBatchRow(batch, replications: Set(results.map(\.item.replication)).count)
        var writer = RunRowWriter(database)
        var runIDs: [Int64] = []
        runIDs.reserveCapacity(results.count)
        for result in results {
            runIDs.append(try writer.write(result, batchID: batchID, batch: batch))
        }
        return runIDs
    }

    /// Inserts a batch's row inside the caller's transaction; returns its id.
    func insertBatchRow(_ batch: BatchInfo, replications: Int) throws -> Int64 {
        let scenario = batch.scenario
        let b = ReportTables.batches
        var rows = BulkInsert(database, b.table)
        try rows.insertRow { row in
            try row.set(b.command, batch.command)
            try row.set(b.scenarioName, scenario.name)
            try row.set(b.scenarioPath, scenario.path)
            try row.set(b.scenarioHash, batch.scenarioHash)
            try row.set(b.tracesHash, batch.tracesHash)
            try row.set(b.policy, scenario.policy)
            try row.set(b.seed, Int64(bitPattern: scenario.seed))
            try row.set(b.replications, replications)
            try row.set(b.keysimVersion, KeysimVersion.current)
            try row.set(b.createdAt, Self.timestamp())
            try row.set(b.wallSeconds, batch.wallSeconds)
        }
        return database.lastInsertRowID
    }

    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }
}
