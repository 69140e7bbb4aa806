import Scenarios
import Sim

/// A `max` rule on a percentile (`key_latency_p99_ms ≤ 10`) judged with its interval, and
/// the one line that says why it and the budget on the same latency disagree when they do.
///
/// A run's p99 is itself noisy, so the mean of the runs' p99s beside a limit says little on
/// its own: at 10 pairs it may sit just over the limit and at 20 just under. The rule holds
/// when the one-sided upper confidence bound of that mean (Student t over the candidate's
/// runs, one per pair, at the rule's confidence) is at or under the limit: "with 95 %
/// confidence, the typical run's p99 is within the limit". The budget check counts items
/// over the budget's limit across all runs pooled against its allowed share. With the same
/// limit and the matching percentile (p99 and 1 %) the two ask nearly the same question of
/// different samples — a few runs with long tails move the pooled share little and the mean
/// of p99s a lot, and the bound is conservative where the pooled share is not — so they can
/// disagree; the gate then prints a note saying which said what and why.
extension Gate {
    /// The candidate's per-run values of each metric a rule names (one per pair under
    /// common random numbers): what a percentile rule's bound is computed from.
    public static func candidateRuns(_ database: Database, jobID: Int64, metrics: [String]) throws -> [String: SampleMean] {
        let query = try database.prepare("""
            SELECT m.value FROM run_metrics m JOIN runs r USING (run_id)
            JOIN job_batches b ON b.batch_id = r.batch_id AND b.job_id = ?1 AND b.batch_index = 1
            WHERE m.metric = ?2 ORDER BY r.replication, r.trace_index
            """)
        var samples: [String: SampleMean] = [:]
        for metric in metrics where samples[metric] == nil {
            var values: [Double] = []
            try query.bind(jobID, at: 1)
            try query.bind(metric, at: 2)
            try query.forEachRow { values.append($0.double(at: 0)) }
            samples[metric] = SampleMean(values)
        }
        return samples
    }

    /// A `max` rule on a percentile metric: holds when the upper bound of the candidate's
    /// mean at the rule's confidence is at or under `limit`.
    static func checkPercentileMax(_ check: GateCheck, limit: Double, rule: GateRule, row: Comparison.Row, metric: RunMetric,
                                   runs: SampleMean) -> GateCheck {
        var check = check
        let u = unitSuffix(metric.unit)
        let (meanA, meanB) = (row.meanA ?? 0, row.meanB ?? runs.mean)
        let d = Comparison.decimals(showing: [meanA, meanB], atLeast: metric.decimals)
        func f(_ x: Double) -> String { TextTable.fixed(x, d) }
        check.limit = limit
        check.confidence = rule.confidence
        guard let upper = runs.upperBound(confidence: rule.confidence) else {
            check.detail = "needs at least two runs of the candidate for a bound (has \(runs.count))"
            return check
        }
        check.measured = upper
        check.interval = runs.lowerBound(confidence: rule.confidence).map { $0...upper }
        check.passed = upper <= limit
        if !check.passed { check.excess = upper - limit }
        check.detail = "candidate mean \(f(meanB))\(u), upper \(percent(rule.confidence)) bound \(f(upper))\(u), "
            + "\(check.passed ? "within" : "breaking") ≤ \(number(limit))\(u)" + (check.excess.map { " by \(f($0))\(u)" } ?? "")
            + " (baseline \(f(meanA))\(u), \(runs.count) runs)"
        return check
    }

    /// One line for each percentile rule whose verdict differs from the candidate's budget on
    /// the same latency with the same limit: which said what, and why they can.
    static func disagreements(_ checks: [GateCheck], rules: [GateRule], candidate: BatchSummary) -> [String] {
        var notes: [String] = []
        for (rule, check) in zip(rules, checks) {
            guard case .atMost(let limit) = rule.bound, let metric = RunMetric.named(rule.metric),
                  let percentile = metric.percentile, let latency = metric.latency, let upper = check.measured,
                  let row = candidate.latencies.first(where: { $0.metric == latency }), let budget = row.budget,
                  budget.limit.milliseconds == limit, row.summary.count > 0, check.passed != row.withinBudget else { continue }
            let u = unitSuffix(metric.unit)
            let share = "\(TextTable.percent(row.shareOverBudget)) of \(row.summary.count) over \(number(limit))\(u) across all runs"
            notes.append("\(check.name) \(check.passed ? "holds" : "fails") but budget \(latency.rawValue) \(row.withinBudget ? "holds" : "fails"): "
                + "the rule bounds the mean of each run's p\(percentile) (upper \(percent(rule.confidence)) bound "
                + "\(TextTable.fixed(upper, 2))\(u)), the budget counts items pooled (\(share), allowed "
                + "\(TextTable.percent(budget.allowedShare))); long tails in a few runs move the first more than the second.")
        }
        return notes
    }
}
