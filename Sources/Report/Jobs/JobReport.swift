import Foundation
import Scenarios

/// The report file a job writes into: checked before the job runs, written by `JobRunner`,
/// and read back for what the commands print — the comparison, the sweep, a batch's metric
/// means — without the caller writing SQL.
public struct JobReport: Sendable {
    /// The report file, as the user named it (a shard's own file for `--shard`).
    public let path: String
    /// How long to wait for another process's lock on it.
    public let busyTimeoutMs: Int

    /// The wait for a lock when the environment does not set one: long enough for another
    /// keysim to commit a large batch.
    public static let busyTimeoutMsDefault = 30_000

    /// Names the report file.
    public init(path: String, busyTimeoutMs: Int = busyTimeoutMsDefault) {
        self.path = path
        self.busyTimeoutMs = busyTimeoutMs
    }

    /// The lock wait `KEYSIM_BUSY_TIMEOUT_MS` asks for (a whole number of milliseconds), or
    /// `busyTimeoutMsDefault`, within 0…`Database.busyTimeoutMsMax`. Past it a command fails
    /// with "locked" and changes nothing.
    public static func busyTimeoutMs(environment: [String: String]) -> Int {
        let fromEnvironment = environment["KEYSIM_BUSY_TIMEOUT_MS"].flatMap { Int($0) }
        return min(max(fromEnvironment ?? busyTimeoutMsDefault, 0), Database.busyTimeoutMsMax)
    }

    /// Checks, before any work, that the file can take the runs: an existing file is a keysim
    /// report of this schema and not locked; a missing one (created with the first batch)
    /// has an existing folder. The file is not changed.
    /// - Throws: `ReportError` naming the file, or the store's error opening it.
    public func preflight() throws {
        guard FileManager.default.fileExists(atPath: path) else {
            try Self.checkFolder(of: path)
            return
        }
        // Opening reads the header and the schema: a file of another tool or version, or one
        // locked past the timeout, fails here.
        _ = try ReportStore(path: path, readOnly: true, busyTimeoutMs: busyTimeoutMs)
    }

    /// Fails when the folder an output file would go into does not exist, so that a
    /// command fails before its work rather than after it.
    /// - Throws: `ReportError` "no such folder".
    public static func checkFolder(of path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            throw ReportError(file: path, message: "no such folder: \(folder)")
        }
    }

    /// Runs `job` into the file after `preflight()`, keeping `detail` (nil: each scenario's),
    /// reporting finished work items to `progress`.
    public func run(_ job: Job, shard: Shard, threads: Int, detail: ReportDetail?,
                    progress: ((Int, Int) -> Void)? = nil) throws -> JobOutcome {
        try preflight()
        return try JobRunner.run(job, shard: shard, threads: threads, reportPath: path, busyTimeoutMs: busyTimeoutMs,
                                 detail: detail, progress: progress)
    }

    /// The file opened read-only.
    public func open() throws -> ReportStore {
        try ReportStore(path: path, readOnly: true, busyTimeoutMs: busyTimeoutMs)
    }

    /// The comparison job `jobID` stored (its first, as `compare` and `gate` store one).
    /// - Throws: `ReportError` when the job stored none.
    public func comparison(jobID: Int64) throws -> Comparison {
        guard let comparison = try Comparison.load(open().database, jobID: jobID).first else {
            throw ReportError(file: path, message: "the comparison was not stored")
        }
        return comparison
    }

    /// The sweep job `jobID` stored.
    /// - Throws: `ReportError` when the job stored none.
    public func sweep(jobID: Int64) throws -> Sweep {
        guard let sweep = try Sweep.load(open().database, jobID: jobID).first else {
            throw ReportError(file: path, message: "the sweep was not stored")
        }
        return sweep
    }

    /// Every comparison and sweep of the jobs, in job order: what `merge` prints.
    public func analyses(jobIDs: [Int64]) throws -> [(comparisons: [Comparison], sweeps: [Sweep])] {
        let store = try open()
        return try jobIDs.map { jobID in
            (try Comparison.load(store.database, jobID: jobID), try Sweep.load(store.database, jobID: jobID))
        }
    }

    /// The batches of job `jobID`, in batch order.
    public func batchIDs(jobID: Int64) throws -> [Int64] {
        try open().database.query("SELECT batch_id FROM job_batches WHERE job_id = ? ORDER BY batch_index", [.integer(jobID)])
            .compactMap { row in if case .integer(let id)? = row.first { id } else { nil } }
    }

    /// Each run metric's mean (with its 95 % half-width) over the first batch of job
    /// `jobID`, as `run --json` lists them; nil when the job stored no batch.
    public func metricMeans(jobID: Int64) throws -> JSONTree? {
        guard let batchID = try batchIDs(jobID: jobID).first else { return nil }
        return try JSONOutput.metricMeans(open().database, batchID: batchID)
    }
}
