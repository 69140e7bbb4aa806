import Foundation
import Scenarios
import Sim

/// What running (a shard of) a job produced.
public struct JobOutcome: Sendable {
    /// The job's row in the report.
    public var jobID: Int64
    /// Work items this process ran.
    public var itemsRun: Int
    /// The headline figures of each batch this process ran part of, by batch index.
    public var summaries: [Int: BatchSummary]
}

/// Runs a job's work items (all of them, or one shard's) on worker threads and writes them
/// to a report, batch by batch, in work-item order.
///
/// Each batch is one transaction holding its batch row, its runs with every row they
/// measured, their job bookkeeping and their metrics; the last batch's transaction also
/// marks the job complete and, for a whole job, stores its comparison or sweep. An
/// interrupted job therefore leaves whole batches behind, never part of one.
public enum JobRunner {
    /// Runs `job`'s items in `shard` on `threads` threads and adds them to the report at
    /// `reportPath`, which is opened (and created if missing) only when the first batch is
    /// ready, so a job that fails before that leaves no file behind.
    /// - Parameters:
    ///   - progress: called on the calling thread after each work item, with (done, total).
    /// - Throws: the error of the first failing work item, or a `ReportError`.
    public static func run(_ job: Job, shard: Shard, threads: Int, reportPath: String, busyTimeoutMs: Int,
                           keepTasks: Bool = true, progress: ((Int, Int) -> Void)? = nil) throws -> JobOutcome {
        let positions = Array(shard.positions(of: job.itemCount))
        let started = DispatchTime.now().uptimeNanoseconds
        var writer = JobWriter(job: job, shard: shard, reportPath: reportPath, busyTimeoutMs: busyTimeoutMs)
        var summaries: [Int: BatchSummary] = [:]
        var pending: [RunResult] = []
        var pendingPositions: [Int] = []
        var batchStarted = started
        let lastBatch = positions.last.map { job.item(at: $0).batch }
        progress?(0, positions.count)
        try OrderedParallel.run(
            count: positions.count, threads: threads, window: max(4 * threads, 16),
            work: { k in
                let (batch, item) = job.item(at: positions[k])
                return try ScenarioRunner.runOne(job.batches[batch].scenario, item: item, keepTasks: keepTasks)
            },
            consume: { k, result in
                pending.append(result)
                pendingPositions.append(positions[k])
                let batch = job.item(at: positions[k]).batch
                let batchEnds = k + 1 == positions.count || job.item(at: positions[k + 1]).batch != batch
                if batchEnds {
                    let now = DispatchTime.now().uptimeNanoseconds
                    summaries[batch] = BatchSummary(results: pending, budgets: job.batches[batch].scenario.keyboard.budgets)
                    try writer.write(batch: batch, results: pending, positions: pendingPositions,
                                     wallSeconds: Double(now - batchStarted) / 1e9, isLast: batch == lastBatch)
                    batchStarted = now
                    pending.removeAll()
                    pendingPositions.removeAll()
                }
                progress?(k + 1, positions.count)
            })
        if positions.isEmpty {
            try writer.writeEmptyShard()
        }
        return JobOutcome(jobID: writer.jobID ?? 0, itemsRun: positions.count, summaries: summaries)
    }
}

/// Writes a job's batches, keeping the job's row id between them.
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

    /// Whether the report file existed before this job; a file the job created and could
    /// not write its first batch to is removed again.
    private var reportExisted = true

    private mutating func openStore() throws(ReportError) -> ReportStore {
        if let store { return store }
        reportExisted = FileManager.default.fileExists(atPath: reportPath)
        let opened = try ReportStore(path: reportPath, busyTimeoutMs: busyTimeoutMs)
        store = opened
        return opened
    }

    /// Removes the report file when this job created it and wrote nothing to it.
    private mutating func discardIfNew() {
        guard !reportExisted, jobID == nil else { return }
        store = nil
        ReportStore.removeFiles(of: reportPath)
    }

    /// Writes one batch's runs (positions are their work-item indices) in one transaction.
    mutating func write(batch: Int, results: [RunResult], positions: [Int], wallSeconds: Double, isLast: Bool) throws {
        do {
            try writeBatch(batch: batch, results: results, positions: positions, wallSeconds: wallSeconds, isLast: isLast)
        } catch {
            discardIfNew()
            throw error
        }
    }

    private mutating func writeBatch(batch: Int, results: [RunResult], positions: [Int], wallSeconds: Double, isLast: Bool) throws {
        let store = try openStore()
        let database = store.database
        let spec = job.batches[batch]
        let info = BatchInfo(command: job.command, scenario: spec.scenario, scenarioHash: spec.scenarioHash,
                             tracesHash: spec.tracesHash, wallSeconds: wallSeconds)
        var jobID = self.jobID
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
        self.jobID = jobID
    }

    /// Records a shard that holds none of the job's work items, so that merging still
    /// finds every shard.
    mutating func writeEmptyShard() throws {
        do {
            try writeJobOnly()
        } catch {
            discardIfNew()
            throw error
        }
    }

    private mutating func writeJobOnly() throws {
        let store = try openStore()
        let database = store.database
        var jobID: Int64?
        do {
            try database.transaction {
                try ReportSchema.ensureAnalysisTables(database)
                jobID = try insertJobRow(database)
                try JobAnalysis.finish(database, jobID: jobID!)
            }
        } catch let error as SQLiteError {
            throw ReportStore.describe(error, path: reportPath)
        }
        self.jobID = jobID
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

/// Computes `run_metrics` for the runs of one batch, from the rows just written.
enum RunMetricWriter {
    static func write(_ database: Database, batchID: Int64) throws {
        let catalog = try database.prepare(
            "INSERT OR REPLACE INTO metrics (metric, label, unit, lower_is_better, description) VALUES (?, ?, ?, ?, ?)")
        for metric in RunMetric.all {
            try catalog.execute([.text(metric.name), .text(metric.label), .text(metric.unit),
                                 .integer(metric.lowerIsBetter ? 1 : 0), .text(metric.description)])
            let insert = try database.prepare("""
                WITH x(run_id, value) AS (\(metric.sql))
                INSERT INTO run_metrics (run_id, metric, value) SELECT run_id, :metric, value FROM x WHERE value IS NOT NULL
                """)
            try insert.bind(batchID, at: insert.parameterIndex(":batch")!)
            try insert.bind(metric.name, at: insert.parameterIndex(":metric")!)
            try insert.execute()
        }
    }
}
