import Foundation
import Scenarios
import Sim

/// Writes a job's batches, keeping the job's row id between them.
///
/// When the report is missing, the first batch goes into a new report under a private name
/// beside it (`.NAME.keysim-new-PID-N`), which is then put in place with `link(2)`: that
/// fails when the name exists, so of several processes creating one report at once exactly
/// one publishes its file, whole, and every other writes its batch into that one. No
/// process ever removes the report: a failing job removes only its private file, which no
/// other process has seen.
struct JobWriter {
    let job: Job
    let shard: Shard
    let reportPath: String
    let busyTimeoutMs: Int
    private(set) var store: ReportStore?
    private(set) var jobID: Int64?

    init(job: Job, shard: Shard, reportPath: String, busyTimeoutMs: Int) {
        self.job = job
        self.shard = shard
        self.reportPath = reportPath
        self.busyTimeoutMs = busyTimeoutMs
    }

    /// Writes one batch's runs (positions are their work-item indices) in one transaction.
    mutating func write(batch: Int, results: [RunResult], positions: [Int], wallSeconds: Double, isLast: Bool) throws {
        try withStore { writer, store, jobID throws -> Int64 in
            try writer.writeBatch(into: store, jobID: jobID, batch: batch, results: results, positions: positions,
                                  wallSeconds: wallSeconds, isLast: isLast)
        }
    }

    /// Records a shard that holds none of the job's work items, so that merging still
    /// finds every shard.
    mutating func writeEmptyShard() throws {
        try withStore { writer, store, _ throws -> Int64 in try writer.writeJobOnly(into: store) }
    }

    /// Folds the write-ahead log into the report before the command says it is done, so
    /// that a disk too full to take the pages fails the command instead of leaving a main
    /// file that is not whole without its `-wal`.
    func finish() throws(ReportError) {
        guard let store else { return }
        try Self.checkpoint(store, reportPath: reportPath)
    }

    // MARK: - Opening

    /// Runs `body` (one transaction, returning the job's row id) on the report. The first
    /// time, when the report is missing, on a new report that is then published.
    private mutating func withStore(_ body: (JobWriter, ReportStore, Int64?) throws -> Int64) throws {
        if let store {
            jobID = try body(self, store, jobID)
            return
        }
        if !FileManager.default.fileExists(atPath: reportPath), try createAndPublish(body) { return }
        let opened = try ReportStore(path: reportPath, busyTimeoutMs: busyTimeoutMs)
        store = opened
        jobID = try body(self, opened, nil)
    }

    /// Writes the first batch into a private new report and links it into place. `false`
    /// when another process published the report first (the batch is then still to write,
    /// into theirs) or the file system cannot link (the report is then made in place).
    private mutating func createAndPublish(_ body: (JobWriter, ReportStore, Int64?) throws -> Int64) throws -> Bool {
        let privatePath = ReportStore.privatePath(besides: reportPath)
        defer { ReportStore.removeFiles(of: privatePath) }
        let id: Int64
        do {
            // The store is closed (its connection released) at the end of this block.
            let fresh = try ReportStore(path: privatePath, busyTimeoutMs: busyTimeoutMs)
            id = try body(self, fresh, nil)
            try Self.checkpoint(fresh, reportPath: reportPath)
        } catch let error as ReportError {
            throw ReportError(file: reportPath, message: error.message)
        }
        guard try ReportStore.publish(privatePath, at: reportPath) == .published else { return false }
        store = try ReportStore(path: reportPath, busyTimeoutMs: busyTimeoutMs)
        jobID = id
        return true
    }

    /// `PRAGMA wal_checkpoint(TRUNCATE)`: a busy result (another process reads or writes the
    /// report, and folds the log itself later) is fine; an error is not.
    static func checkpoint(_ store: ReportStore, reportPath: String) throws(ReportError) {
        guard store.path != ":memory:" else { return }
        do {
            _ = try store.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch {
            if error.isFull || error.isIOError {
                throw ReportError(file: reportPath, message: "disk full while folding the write-ahead log into the report (\(error.message)); "
                                  + "the runs are in \(store.path)-wal: keep it beside the report and free some space")
            }
            throw ReportStore.describe(error, path: reportPath)
        }
    }

    // MARK: - Writing

    private func writeBatch(into store: ReportStore, jobID: Int64?, batch: Int, results: [RunResult], positions: [Int],
                            wallSeconds: Double, isLast: Bool) throws -> Int64 {
        let database = store.database
        let spec = job.batches[batch]
        let info = BatchInfo(command: job.command, scenario: spec.scenario, scenarioHash: spec.scenarioHash,
                             tracesHash: spec.tracesHash, wallSeconds: wallSeconds)
        var jobID = jobID
        do {
            try database.transaction {
                try ReportSchema.ensureAnalysisTables(database)
                let id = try jobID ?? insertJobRow(database)
                jobID = id
                let runIDs = try store.insert(info, results: results)
                let batchID = try database.query("SELECT batch_id FROM runs WHERE run_id = ?", [.integer(runIDs[0])])[0][0]
                try database.prepare("INSERT INTO job_batches (batch_id, job_id, batch_index, label, settings) VALUES (?, ?, ?, ?, ?)")
                    .execute([batchID, .integer(id), .integer(Int64(batch)), .text(spec.label), .text(spec.settingsJSON)])
                let jobRun = try database.prepare("INSERT INTO job_runs (run_id, job_id, work_item) VALUES (?, ?, ?)")
                for (runID, position) in zip(runIDs, positions) {
                    try jobRun.execute([.integer(runID), .integer(id), .integer(Int64(position))])
                }
                if case .integer(let batchRowID) = batchID {
                    try RunMetricWriter.write(database, batchID: batchRowID)
                }
                if isLast { try JobAnalysis.finish(database, jobID: id) }
            }
        } catch let error as SQLiteError {
            throw ReportStore.describe(error, path: reportPath)
        }
        return jobID!
    }

    private func writeJobOnly(into store: ReportStore) throws -> Int64 {
        let database = store.database
        var jobID: Int64 = 0
        do {
            try database.transaction {
                try ReportSchema.ensureAnalysisTables(database)
                jobID = try insertJobRow(database)
                try JobAnalysis.finish(database, jobID: jobID)
            }
        } catch let error as SQLiteError {
            throw ReportStore.describe(error, path: reportPath)
        }
        return jobID
    }

    private func insertJobRow(_ database: Database) throws -> Int64 {
        let first = job.batches[0].scenario
        try database.prepare("""
            INSERT INTO jobs (job_key, command, scenario_name, scenario_path, traces_hash, seed, replications, batches,
                              work_items, shard_index, shard_count, spec, keysim_version, complete)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
            """).execute([
            .text(job.key), .text(job.command), .text(first.name), .text(first.path), .text(job.tracesHash),
            .integer(Int64(bitPattern: job.seed)), .integer(Int64(job.replications)), .integer(Int64(job.batches.count)),
            .integer(Int64(job.itemCount)), .integer(Int64(shard.index + 1)), .integer(Int64(shard.count)),
            .text(job.spec), .text(KeysimVersion.current),
        ])
        return database.lastInsertRowID
    }
}
