import Foundation
import Scenarios
import Sim

/// `--replications auto`: runs replications round by round (`ReplicationPlan.rounds`) until
/// every checked metric's 95 % interval is as narrow as the plan asks, or the maximum is
/// reached.
///
/// Each round runs only the replications it adds, into a scratch report in memory, and
/// keeps each run's metric values; replications are independent (each has its own random
/// streams), so the values are those a job of the final count writes to the real report,
/// and the same inputs stop at the same count on any machine and with any `--jobs`.
public enum ReplicationSearch {
    /// Where the search stopped.
    public struct Outcome: Sendable, Equatable {
        /// The replications per trace to run.
        public var replications: Int
        /// The counts checked, in order; the last is `replications`.
        public var rounds: [Int]
        /// The metrics still wider than the target at the end (empty when it was reached).
        public var imprecise: [String]
        /// Whether every checked metric reached the target.
        public var reachedTarget: Bool { imprecise.isEmpty }
    }

    /// Searches the replication count for `batches` (every one with `seed`).
    /// - Parameter progress: called after each round with the count reached.
    /// - Throws: the first failing run's error.
    public static func run(_ batches: [JobBatch], seed: UInt64, plan: ReplicationPlan, threads: Int,
                           progress: ((Int) -> Void)? = nil) throws -> Outcome {
        precondition(!batches.isEmpty && (!plan.paired || batches.count >= 2))
        let metrics = plan.metrics.map { names in RunMetric.all.filter { names.contains($0.name) } } ?? RunMetric.all
        var values = Array(repeating: [String: [Int: Double]](), count: plan.paired ? 2 : batches.count)
        var done = 0
        var checked: [Int] = []
        var imprecise: [String] = []
        for count in plan.rounds {
            for batch in values.indices {
                let measured = try measure(batches[batch], seed: seed, replications: done..<count, threads: threads)
                for (metric, byPosition) in measured {
                    values[batch][metric, default: [:]].merge(byPosition) { _, new in new }
                }
            }
            done = count
            checked.append(count)
            progress?(count)
            imprecise = metrics.filter { !isPrecise($0, values: values, plan: plan) }.map(\.name)
            if imprecise.isEmpty { break }
        }
        return Outcome(replications: done, rounds: checked, imprecise: imprecise)
    }

    /// Whether `metric`'s interval meets the plan's target; a metric measured in fewer than
    /// two runs (or pairs) has no interval and does not hold the search up.
    static func isPrecise(_ metric: RunMetric, values: [[String: [Int: Double]]], plan: ReplicationPlan) -> Bool {
        if plan.paired {
            let a = values[0][metric.name] ?? [:], b = values[1][metric.name] ?? [:]
            let positions = a.keys.filter { b[$0] != nil }.sorted()
            guard positions.count >= 2 else { return true }
            let differences = MeanInterval(positions.map { b[$0]! - a[$0]! })
            let reference = MeanInterval(positions.map { a[$0]! }).mean
            return plan.target.isMet(halfWidth: differences.halfWidth, reference: reference, unit: metric.unit)
        }
        return values.allSatisfy { batch in
            let byPosition = batch[metric.name] ?? [:]
            guard byPosition.count >= 2 else { return true }
            let interval = MeanInterval(byPosition.keys.sorted().map { byPosition[$0]! })
            return plan.target.isMet(halfWidth: interval.halfWidth, reference: interval.mean, unit: metric.unit)
        }
    }

    /// Runs `replications` of every trace of `batch` and returns each run's metric values by
    /// work-item position (replication × traces + trace).
    static func measure(_ batch: JobBatch, seed: UInt64, replications: Range<Int>, threads: Int) throws -> [String: [Int: Double]] {
        var scenario = batch.scenario
        scenario.seed = seed
        scenario.replications = replications.upperBound
        let traceCount = scenario.traces.count
        let items = replications.flatMap { replication in
            (0..<traceCount).map { WorkItem(replication: replication, traceIndex: $0) }
        }
        guard !items.isEmpty else { return [:] }
        // Each run's metrics, computed from its records as `keysim run` computes them: the same
        // values to the bit as the SQL over its rows, with no report to write.
        let frozen = scenario
        let traceCache = TraceCache(eventsMax: replications.count > 1 ? TraceCache.eventsMaxForReplays : 0)
        var measured: [String: [Int: Double]] = [:]
        try OrderedParallel.run(count: items.count, threads: threads, window: max(4 * threads, 16),
                                work: { k in
                                    let result = try ScenarioRunner.runOne(frozen, item: items[k], traceCache: traceCache)
                                    return RunMetric.all.map { $0.value(for: result, keyboard: frozen.keyboard) }
                                },
                                consume: { k, values in
                                    let position = items[k].replication * traceCount + items[k].traceIndex
                                    for (metric, value) in zip(RunMetric.all, values) {
                                        if let value { measured[metric.name, default: [:]][position] = value }
                                    }
                                })
        return measured
    }
}
