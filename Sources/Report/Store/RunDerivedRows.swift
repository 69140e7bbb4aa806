import Scenarios
import Sim

/// The rows of a run that are computed from its records rather than copied from them — the
/// budget counts, the violations with their causes, the latency histograms — worked out on
/// the worker thread that ran it, so that the report's one writer only writes.
struct RunDerivedRows: Sendable {
    /// One budget's count of items and of items over its limit (`budgets`).
    struct BudgetCount: Sendable {
        var budget: Budget
        var count: Int
        var over: Int
    }

    /// One item over its budget (`budget_violations`).
    struct Violation: Sendable {
        var metric: LatencyMetric
        var item: Int
        var latency: SimDuration
        var limit: SimDuration
        var cause: String
    }

    /// Per budget of the scenario, in its order.
    var budgets: [BudgetCount] = []
    /// Items over a budget, budget by budget; empty when the detail level keeps no items.
    var violations: [Violation] = []
    /// Per `LatencyMetric` (`allCases` order), each run's histogram as the JSON text of
    /// `latency_histograms.buckets`.
    var histograms: [String] = []

    /// The derived rows of `result` under `budgets`, from its latencies sorted per metric
    /// (`BatchSummary.Builder.sortedLatencies`, `LatencyMetric.allCases` order); violations
    /// only when `keepsItems`.
    init(_ result: RunResult, budgets: [Budget], sortedLatencies: [[Int64]], keepsItems: Bool) {
        var causes = ViolationCauses(result.observations)
        for b in budgets {
            // The count over the limit from the sorted latencies (the same samples); the
            // items themselves only when some went over and the level keeps them.
            let sorted = sortedLatencies[LatencyMetric.allCases.firstIndex(of: b.metric)!]
            let over = sorted.count - Self.countAtMost(b.limit.nanoseconds, in: sorted)
            self.budgets.append(BudgetCount(budget: b, count: sorted.count, over: over))
            guard keepsItems && over > 0 else { continue }
            for sample in MetricSamples.samples(b.metric, in: result.observations) where sample.latency > b.limit {
                violations.append(Violation(metric: b.metric, item: sample.item, latency: sample.latency, limit: b.limit,
                                            cause: causes.cause(b.metric, item: sample.item)))
            }
        }
        histograms = sortedLatencies.map { Self.json(LatencyHistogram(sorted: $0)) }
    }

    /// How many of the ascending `values` are at most `limit` (binary search).
    static func countAtMost(_ limit: Int64, in values: [Int64]) -> Int {
        var (low, high) = (0, values.count)
        while low < high {
            let middle = (low + high) / 2
            if values[middle] <= limit { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// `[[bucket, count], …]`, buckets ascending: the text of `latency_histograms.buckets`.
    static func json(_ histogram: LatencyHistogram) -> String {
        var text = "["
        text.reserveCapacity(10 * histogram.buckets.count + 2)
        for (n, bucket) in histogram.buckets.enumerated() {
            if n > 0 { text += "," }
            text += "[\(bucket.index),\(bucket.count)]"
        }
        return text + "]"
    }
}
