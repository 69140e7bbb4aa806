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
/// Replications simulate on every worker thread while the calling thread writes, each run
/// going to the report as soon as it and every run before it are done: memory holds a small
/// window of runs, never a whole batch. Each run's metrics are computed on its worker from
/// its records (`RunMetric.value(for:budgets:)`), so the writer only writes.
///
/// Each batch is one transaction holding its batch row, its runs with the rows they
/// measured (as many as the batch's `detail` keeps), their job bookkeeping and their
/// metrics; the last batch's transaction also marks the job complete and, for a whole job,
/// stores its comparison or sweep. An interrupted job therefore leaves whole batches
/// behind, never part of one.
public enum JobRunner {
    /// Runs `job`'s items in `shard` on `threads` threads and adds them to the report at
    /// `reportPath`, which is opened (and created if missing) only when the first run is
    /// ready, so a job that fails before that leaves no file behind.
    /// - Parameters:
    ///   - detail: how much each run keeps; by default each batch's scenario says.
    ///   - progress: called on the calling thread after each work item, with (done, total).
    /// - Throws: the error of the first failing work item, or a `ReportError`.
    public static func run(_ job: Job, shard: Shard, threads: Int, reportPath: String, busyTimeoutMs: Int,
                           detail: ReportDetail? = nil, progress: ((Int, Int) -> Void)? = nil) throws -> JobOutcome {
        let positions = Array(shard.positions(of: job.itemCount))
        var writer = JobWriter(job: job, shard: shard, reportPath: reportPath, busyTimeoutMs: busyTimeoutMs)
        var summaries: [Int: BatchSummary] = [:]
        var builder: BatchSummary.Builder?
        let lastBatch = positions.last.map { job.item(at: $0).batch }
        let replications = replicationsPerBatch(job, positions)
        // The record blocks of this job's replications: a run written and dropped hands its
        // blocks to the next one a worker starts.
        let arena = RecordArena()
        progress?(0, positions.count)
        do {
            try OrderedParallel.run(
                count: positions.count, threads: threads, window: 2 * threads,
                work: { k in
                    let (batch, item) = job.item(at: positions[k])
                    let scenario = job.batches[batch].scenario
                    let level = detail ?? scenario.detail
                    let result = try ScenarioRunner.runOne(scenario, item: item, keepTasks: level.keepsTasks(replication: item.replication),
                                                             arena: arena)
                    let metrics = RunMetric.all.map { $0.value(for: result, budgets: scenario.keyboard.budgets) }
                    return StreamedRun(result: result, metrics: metrics, detail: level,
                                       sortedLatencies: BatchSummary.Builder.sortedLatencies(of: result))
                },
                consume: { k, run in
                    let batch = job.item(at: positions[k]).batch
                    if k == 0 || job.item(at: positions[k - 1]).batch != batch {
                        try writer.begin(batch: batch, replications: replications[batch] ?? 0)
                        builder = BatchSummary.Builder(budgets: job.batches[batch].scenario.keyboard.budgets)
                    }
                    try writer.add(run, position: positions[k])
                    builder?.add(run.result, sortedLatencies: run.sortedLatencies)
                    if k + 1 == positions.count || job.item(at: positions[k + 1]).batch != batch {
                        summaries[batch] = builder?.finish()
                        builder = nil
                        try writer.end(isLast: batch == lastBatch)
                    }
                    progress?(k + 1, positions.count)
                })
        } catch {
            writer.abandon()
            throw error
        }
        if positions.isEmpty {
            try writer.writeEmptyShard()
        }
        return JobOutcome(jobID: writer.jobID ?? 0, itemsRun: positions.count, summaries: summaries)
    }

    /// How many distinct replications of each batch the shard's positions hold.
    private static func replicationsPerBatch(_ job: Job, _ positions: [Int]) -> [Int: Int] {
        var seen: [Int: Set<Int>] = [:]
        for position in positions {
            let (batch, item) = job.item(at: position)
            seen[batch, default: []].insert(item.replication)
        }
        return seen.mapValues(\.count)
    }
}

/// One finished work item on its way to the report: its records, its metrics (in
/// `RunMetric.all` order, nil where a metric has no value), how much of it to keep, and its
/// latencies sorted for the batch summary — all computed on its worker thread.
struct StreamedRun: Sendable {
    var result: RunResult
    var metrics: [Double?]
    var detail: ReportDetail
    var sortedLatencies: [[Int64]]
}

/// Writes a job's batches, keeping the job's row id between them.
struct JobWriter {
    let job: Job
    let shard: Shard
    let reportPath: String
    let busyTimeoutMs: Int
    private(set) var store: ReportStore?
    private(set) var jobID: Int64?
    /// The batch being written: its index, row id, row writer and start, inside its transaction.
    private var open: (batch: Int, batchID: Int64, rows: RunRowWriter, info: BatchInfo, started: UInt64)?

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

    /// Runs `body` on the report, mapping SQLite errors to report errors; on any error the
    /// open batch is rolled back.
    private mutating func writing(_ body: (inout JobWriter, Database) throws -> Void) throws {
        do {
            let database = try openStore().database
            try body(&self, database)
        } catch {
            abandon()
            if let error = error as? SQLiteError { throw ReportStore.describe(error, path: reportPath) }
            throw error
        }
    }

    /// Rolls back the batch being written, if any, and removes a report this job created.
    mutating func abandon() {
        if open != nil, let database = store?.database, database.isInTransaction {
            _ = try? database.execute("ROLLBACK")
        }
        open = nil
        jobID = committedJobID
        discardIfNew()
    }

    /// The job's row id as of the last committed batch (nil before the first commit).
    private var committedJobID: Int64?

    /// Opens batch `batch`'s transaction and writes its batch row (and the job's row, the
    /// first time).
    mutating func begin(batch: Int, replications: Int) throws {
        try writing { writer, database in
            let spec = writer.job.batches[batch]
            let info = BatchInfo(command: writer.job.command, scenario: spec.scenario, scenarioHash: spec.scenarioHash,
                                 tracesHash: spec.tracesHash, wallSeconds: 0)
            try database.execute("BEGIN IMMEDIATE")
            try ReportSchema.ensureAnalysisTables(database)
            let id = try writer.jobID ?? writer.insertJobRow(database)
            writer.jobID = id
            let batchID = try writer.store!.insertBatchRow(info, replications: replications)
            try database.prepare("INSERT INTO job_batches (batch_id, job_id, batch_index, label, settings) VALUES (?, ?, ?, ?, ?)")
                .execute([.integer(batchID), .integer(id), .integer(Int64(batch)), .text(spec.label), .text(spec.settingsJSON)])
            try RunMetricWriter.writeCatalog(database)
            writer.open = (batch, batchID, try RunRowWriter(database), info, DispatchTime.now().uptimeNanoseconds)
        }
    }

    /// Writes one run of the open batch: its rows, its job bookkeeping and its metrics.
    mutating func add(_ run: StreamedRun, position: Int) throws {
        try writing { writer, database in
            guard var open = writer.open, let jobID = writer.jobID else { preconditionFailure("a run outside a batch") }
            let runID = try open.rows.write(run.result, batchID: open.batchID, batch: open.info, detail: run.detail,
                                            sortedLatencies: run.sortedLatencies)
            writer.open = open
            try database.prepare("INSERT INTO job_runs (run_id, job_id, work_item) VALUES (?, ?, ?)")
                .execute([.integer(runID), .integer(jobID), .integer(Int64(position))])
            try RunMetricWriter.write(database, runID: runID, values: run.metrics)
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
            try database.execute("COMMIT")
            writer.open = nil
            writer.committedJobID = jobID
        }
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

/// Writes `run_metrics`: the catalog of metrics, and each run's values as computed in the
/// process from its records.
enum RunMetricWriter {
    /// Writes (or refreshes) the `metrics` catalog.
    static func writeCatalog(_ database: Database) throws {
        let catalog = try database.prepare(
            "INSERT OR REPLACE INTO metrics (metric, label, unit, lower_is_better, description) VALUES (?, ?, ?, ?, ?)")
        for metric in RunMetric.all {
            try catalog.execute([.text(metric.name), .text(metric.label), .text(metric.unit),
                                 .integer(metric.lowerIsBetter ? 1 : 0), .text(metric.description)])
        }
    }

    /// Writes one run's metric values (`RunMetric.all` order; nil values are left out).
    static func write(_ database: Database, runID: Int64, values: [Double?]) throws {
        precondition(values.count == RunMetric.all.count, "one value per metric")
        let insert = try database.prepare("INSERT INTO run_metrics (run_id, metric, value) VALUES (?, ?, ?)")
        for (metric, value) in zip(RunMetric.all, values) {
            guard let value else { continue }
            try insert.execute([.integer(runID), .text(metric.name), .real(value)])
        }
    }
}
