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
    /// ready, so a job that fails before that leaves no file behind. A missing report is
    /// made (its schema) under a private name and then put in place atomically, so that
    /// other processes never see it half made (see `JobWriter`).
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
        // Traces replayed more than once (by several replications, or by the same replication
        // in several batches) are read from their files, or synthesised, once.
        let replays = replications.count > 1 || replications.values.contains { $0 > 1 }
        let traceCache = TraceCache(eventsMax: replays ? TraceCache.eventsMaxForReplays : 0)
        // The writer is the critical path: workers run up to 8 runs a thread ahead of it, and
        // when they and the writer outnumber the cores they take a lower priority, so the
        // writer is not the one the kernel makes wait (`OrderedParallel`, `workerNice`).
        let contended = threads > 1 && threads >= ProcessInfo.processInfo.activeProcessorCount
        let window = runWindow(job, threads: threads)
        progress?(0, positions.count)
        do {
            try OrderedParallel.run(
                count: positions.count, threads: threads, window: window, workerNice: contended ? 5 : 0,
                work: { k in
                    let (batch, item) = job.item(at: positions[k])
                    let scenario = job.batches[batch].scenario
                    let level = detail ?? scenario.detail
                    let result = try ScenarioRunner.runOne(scenario, item: item,
                                                           keepTasks: level.keepsTasks(replication: item.replication,
                                                                                       traceIndex: item.traceIndex),
                                                           arena: arena, traceCache: traceCache)
                    let metrics = RunMetric.all.map { $0.value(for: result, keyboard: scenario.keyboard) }
                    let sorted = BatchSummary.Builder.sortedLatencies(of: result)
                    let derived = RunDerivedRows(result, budgets: scenario.keyboard.budgets, sortedLatencies: sorted,
                                                 keepsItems: level.keepsItems)
                    return StreamedRun(result: result, metrics: metrics, detail: level, sortedLatencies: sorted, derived: derived)
                },
                consume: { k, run in
                    let batch = job.item(at: positions[k]).batch
                    if k == 0 || job.item(at: positions[k - 1]).batch != batch {
                        try writer.begin(batch: batch, replications: replications[batch] ?? 0)
                        let keyboard = job.batches[batch].scenario.keyboard
                        builder = BatchSummary.Builder(budgets: keyboard.budgets, wordsPerUserDay: keyboard.cloud.pricing.wordsPerUserDay)
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
        try writer.finish()
        return JobOutcome(jobID: writer.jobID ?? 0, itemsRun: positions.count, summaries: summaries)
    }

    /// How many runs past the one being written the workers may start: 8 a thread, fewer
    /// when the job's largest trace would make that many finished runs a lot of memory (a
    /// run holds about ten times its trace file's bytes in records; a compressed trace is
    /// taken to be eight times its size), so that the window stays within about 256 MB — but
    /// never fewer than one a thread.
    static func runWindow(_ job: Job, threads: Int) -> Int {
        func traceBytes(_ path: String) -> Int {
            let bytes = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
            return path.hasSuffix(".zst") ? 8 * bytes : bytes
        }
        // A session synthesised from a text is about 100 bytes of trace per character of it.
        // Entries are looked at once each (a sweep's points share them).
        var largest = 0
        var seen: Set<String> = []
        for entry in job.batches.flatMap(\.scenario.traceEntries) where seen.insert(entry.file ?? entry.populationKey ?? "").inserted {
            switch entry {
            case .file(let path): largest = max(largest, traceBytes(path))
            case .population(let population):
                switch population.members {
                case .traces(let files): largest = max(largest, files.map(traceBytes).max() ?? 0)
                case .typists(let typists): largest = max(largest, 100 * (typists.flatMap(\.texts).map { traceBytes($0.path) }.max() ?? 0))
                }
            }
        }
        let runBytes = max(1, 10 * largest)
        return max(threads, min(8 * threads, (256 << 20) / runBytes))
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
/// `RunMetric.all` order, nil where a metric has no value), how much of it to keep, its
/// latencies sorted for the batch summary and its derived rows — all computed on its
/// worker thread.
struct StreamedRun: Sendable {
    var result: RunResult
    var metrics: [Double?]
    var detail: ReportDetail
    var sortedLatencies: [[Int64]]
    var derived: RunDerivedRows
}
