import Foundation
import Scenarios
import Sim

/// Writes a job's batches as their runs stream in, keeping the job's row id between them.
///
/// A batch is one transaction: `begin` opens it with the batch's row, `add` writes each run
/// as it is ready, `end` commits it; `abandon` rolls it back. When the report is missing,
/// it is first made — its schema — under a private name beside it
/// (`.NAME.keysim-new-PID-N`) and put in place with `link(2)`: that fails when the name
/// exists, so of several processes creating one report at once exactly one publishes its
/// file, whole, and every other writes into that one. No process ever removes the report;
/// a job that fails in its first batch leaves a report without that batch (and without
/// any, if it made it).
struct JobWriter {
    let job: Job
    let shard: Shard
    let reportPath: String
    let busyTimeoutMs: Int
    private(set) var store: ReportStore?
    private(set) var jobID: Int64?
    /// The job's row id as of the last committed batch (nil before the first commit).
    private var committedJobID: Int64?
    /// The batch being written: its index, row id, row writers, description and start.
    private var open: (batch: Int, batchID: Int64, rows: RunRowWriter, metrics: RunMetricWriter, info: BatchInfo,
                       started: UInt64)?
    /// The report file's size before the open batch's space was allocated: what a failed
    /// commit gives the space back down to.
    private var reservedFrom: Int64?

    init(job: Job, shard: Shard, reportPath: String, busyTimeoutMs: Int) {
        self.job = job
        self.shard = shard
        self.reportPath = reportPath
        self.busyTimeoutMs = busyTimeoutMs
    }

    /// Opens batch `batch`'s transaction and writes its batch row (and the job's row, the
    /// first time).
    mutating func begin(batch: Int, replications: Int) throws {
        try writing { writer, database in
            let spec = writer.job.batches[batch]
            let info = BatchInfo(command: writer.job.command, scenario: spec.scenario, scenarioHash: spec.scenarioHash,
                                 tracesHash: spec.tracesHash, wallSeconds: 0)
            try database.execute("BEGIN IMMEDIATE")
            try ReportSchema.ensureAnalysisTables(database)
            let id = try writer.jobID ?? JobRows.insertJob(database, writer.job, shard: writer.shard)
            writer.jobID = id
            let batchID = try writer.store!.insertBatchRow(info, replications: replications)
            try JobRows.insertJobBatch(database, batchID: batchID, jobID: id, index: Int64(batch), label: spec.label,
                                       settings: spec.settingsJSON)
            try RunMetricWriter.writeCatalog(database)
            writer.open = (batch, batchID, RunRowWriter(database), RunMetricWriter(database), info,
                           DispatchTime.now().uptimeNanoseconds)
        }
    }

    /// Writes one run of the open batch: its rows, its job bookkeeping and its metrics.
    mutating func add(_ run: StreamedRun, position: Int) throws {
        try writing { writer, database in
            guard var open = writer.open, let jobID = writer.jobID else { preconditionFailure("a run outside a batch") }
            let runID = try open.rows.write(run.result, batchID: open.batchID, batch: open.info, detail: run.detail,
                                            derived: run.derived)
            try open.metrics.write(runID: runID, jobID: jobID, position: position, values: run.metrics)
            writer.open = open
        }
    }

    /// Finishes the open batch: its wall time, the job's analysis after the last batch, and
    /// the commit.
    mutating func end(isLast: Bool) throws {
        try writing { writer, database in
            guard let open = writer.open, let jobID = writer.jobID else { preconditionFailure("no batch is open") }
            let wall = Double(DispatchTime.now().uptimeNanoseconds - open.started) / 1e9
            try database.prepare("UPDATE batches SET wall_seconds = ? WHERE batch_id = ?").execute([.real(wall), .integer(open.batchID)])
            if isLast { try JobAnalysis.finish(database, jobID: jobID) }
            // The batch's pages go to the log first, then its space in the report file is
            // allocated, before it counts: a disk too full for either fails the batch here,
            // whole, with the report file as it was, instead of the fold after the commit.
            try database.flushCacheToLog()
            writer.reservedFrom = database.mainFileBytes
            try database.reserveSpaceForPages()
            try database.execute("COMMIT")
            writer.reservedFrom = nil
            writer.open = nil
            writer.committedJobID = jobID
        }
        // The log is folded after every batch, space first, rather than by SQLite's own
        // automatic checkpoints, which would not allocate it (`ReportStore` turns them off).
        if !isLast, let store { try Self.checkpoint(store, reportPath: reportPath, mode: "PASSIVE") }
    }

    /// Rolls back the batch being written, if any, and leaves the report as the last commit
    /// left it: the committed batches, the file's space as before the failed batch
    /// (`Database.releaseSpace`), and the log folded in and removed on close — or, when the
    /// disk is too full to fold it whole, kept beside the report for the next keysim that
    /// opens it (`docs/report-schema.md`, "The file").
    mutating func abandon() {
        open = nil
        jobID = committedJobID
        guard let store else { return }
        let database = store.database
        if database.isInTransaction { _ = try? database.execute("ROLLBACK") }
        if let reservedFrom { try? database.releaseSpace(downTo: reservedFrom) }
        reservedFrom = nil
        // Batches committed before the failure may be in the log only; folding it on close
        // could stop part way on a full disk, so it is folded here, its space allocated
        // first, and kept on close when that cannot be done whole.
        if (try? Self.checkpoint(store, reportPath: reportPath, mode: "PASSIVE")) != true {
            database.keepLogOnClose()
        }
    }

    /// Records a shard that holds none of the job's work items, so that merging still
    /// finds every shard.
    mutating func writeEmptyShard() throws {
        try writing { writer, database in
            try database.transaction {
                try ReportSchema.ensureAnalysisTables(database)
                let id = try JobRows.insertJob(database, writer.job, shard: writer.shard)
                try JobAnalysis.finish(database, jobID: id)
                writer.jobID = id
            }
            writer.committedJobID = writer.jobID
        }
    }

    /// Folds the write-ahead log into the report before the command says it is done, so
    /// that a disk too full to take the pages fails the command instead of leaving a main
    /// file that is not whole without its `-wal`.
    func finish() throws(ReportError) {
        guard let store else { return }
        try Self.checkpoint(store, reportPath: reportPath)
    }

    // MARK: - Opening

    /// Runs `body` on the report (made and published first when missing), mapping SQLite
    /// errors to report errors; on any error the open batch is rolled back.
    private mutating func writing(_ body: (inout JobWriter, Database) throws -> Void) throws {
        do {
            if store == nil { store = try openOrCreate() }
            try body(&self, store!.database)
        } catch {
            abandon()
            if let error = error as? SQLiteError { throw ReportStore.describe(error, path: reportPath) }
            throw error
        }
    }

    /// The report, made whole under a private name and linked into place first when it is
    /// missing (another process may win that race: its report is then the one opened).
    private func openOrCreate() throws -> ReportStore {
        if !FileManager.default.fileExists(atPath: reportPath) {
            let privatePath = ReportStore.privatePath(besides: reportPath)
            defer { ReportStore.removeFiles(of: privatePath) }
            do {
                // The new report's connection is released at the end of this block.
                let fresh = try ReportStore(path: privatePath, busyTimeoutMs: busyTimeoutMs)
                try Self.checkpoint(fresh, reportPath: reportPath)
            } catch {
                throw ReportError(file: reportPath, message: error.message)
            }
            // Published, or another process's report is there already, or the file system
            // cannot link (the report is then made in place): in every case, open the name.
            _ = try ReportStore.publish(privatePath, at: reportPath)
        }
        return try ReportStore(path: reportPath, busyTimeoutMs: busyTimeoutMs)
    }

    /// `PRAGMA wal_checkpoint(TRUNCATE)`: a busy result (another process reads or writes the
    /// report, and folds the log itself later) is fine; an error is not. The space the
    /// folded file needs is allocated first (`Database.reserveSpaceForPages`), so a disk too
    /// full fails here before a page of the log lands in the file: the report stays whole
    /// on its own, with the runs that did not fit in its `-wal`.
    /// - Returns: whether the whole log is now in the report file.
    @discardableResult
    static func checkpoint(_ store: ReportStore, reportPath: String, mode: String = "TRUNCATE") throws(ReportError) -> Bool {
        guard store.path != ":memory:" else { return true }
        do {
            try store.database.reserveSpaceForPages()
            let result = try store.database.query("PRAGMA wal_checkpoint(\(mode))").first ?? []
            // (busy, frames in the log, frames folded): -1 for both without a log.
            return result.count == 3 && result[1] == result[2]
        } catch {
            store.database.keepLogOnClose()
            if error.isFull || error.isIOError {
                throw ReportError(file: reportPath, message: "disk full while folding the write-ahead log into the report (\(error.message)); "
                                  + "the runs are in \(store.path)-wal: keep it beside the report and free some space")
            }
            throw ReportStore.describe(error, path: reportPath)
        }
    }
}
