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
    /// ready, so a job that fails before that leaves no file behind. A missing report is
    /// made whole (schema and first batch) under a private name and then put in place
    /// atomically, so that other processes never see it half made and a failing job never
    /// removes a report it did not make alone (see `JobWriter`).
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
        try writer.finish()
        return JobOutcome(jobID: writer.jobID ?? 0, itemsRun: positions.count, summaries: summaries)
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
