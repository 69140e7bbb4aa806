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
    /// (`BatchSummary.Builder.sortedLatencies`); violations only when `keepsItems`.
    init(_ result: RunResult, budgets: [Budget], sortedLatencies: [[Int64]], keepsItems: Bool) {
        var causes = ViolationCauses(result.observations)
        for b in budgets {
            let samples = MetricSamples.samples(b.metric, in: result.observations)
            var over = 0
            for sample in samples where sample.latency > b.limit {
                over += 1
                guard keepsItems else { continue }
                violations.append(Violation(metric: b.metric, item: sample.item, latency: sample.latency, limit: b.limit,
                                            cause: causes.cause(b.metric, item: sample.item)))
            }
            self.budgets.append(BudgetCount(budget: b, count: samples.count, over: over))
        }
        histograms = sortedLatencies.map { Self.json(LatencyHistogram(sorted: $0)) }
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
