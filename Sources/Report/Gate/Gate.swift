import Scenarios
import Sim

/// The verdict of `keysim gate`: every rule and budget checked on a paired comparison of a
/// baseline (side A) and a candidate (side B).
///
/// A rule bounds one run metric: the candidate's mean (an absolute budget) or how much worse
/// the candidate is than the baseline, at a confidence level. A regression rule fails only
/// when the whole interval of the paired difference lies beyond the bound, so noise alone
/// does not fail a pull request; more replications narrow the interval. Each of the
/// candidate's latency budgets is a check too: it fails when the candidate breaks the budget
/// and the baseline keeps it (a budget the baseline already breaks is not this change's doing).
public struct Gate: Sendable, Equatable {
    /// The scenario's name.
    public var scenarioName: String
    /// The baseline's label.
    public var baseline: String
    /// The candidate's label.
    public var candidate: String
    /// Pairs of runs compared.
    public var pairs: Int
    /// Every check, rules first (in the order given), then budgets.
    public var checks: [GateCheck]
    /// One line per percentile rule whose verdict differs from the budget on the same
    /// latency and limit, saying why (`Gate+Percentile.swift`).
    public var notes: [String] = []

    /// Whether every check holds.
    public var passed: Bool { checks.allSatisfy(\.passed) }
    /// The checks that failed.
    public var failures: [GateCheck] { checks.filter { !$0.passed } }

    /// Checks `rules` on `comparison` (A is the baseline) and the candidate's budgets on the
    /// two batch summaries; a `max` rule on a percentile is judged on the upper bound of the
    /// mean of the candidate's per-run values in `candidateRuns` (`candidateRuns(_:jobID:metrics:)`).
    /// - Throws: a `ConfigError` at the rule when a rule names a metric this build does not know.
    public init(comparison: Comparison, rules: [GateRule], baseline: BatchSummary, candidate: BatchSummary,
                candidateRuns: [String: SampleMean] = [:]) throws(ConfigError) {
        scenarioName = comparison.scenarioName
        self.baseline = comparison.labelA
        self.candidate = comparison.labelB
        pairs = comparison.pairs
        var checks: [GateCheck] = []
        for rule in rules {
            guard let metric = RunMetric.named(rule.metric) else {
                throw rule.error("unknown metric '\(rule.metric)'; known: \(RunMetric.all.map(\.name).joined(separator: ", "))")
            }
            let row = comparison.rows.first { $0.metric == metric.name }
            checks.append(Self.check(rule, metric: metric, row: row, runs: candidateRuns[metric.name]))
        }
        for row in candidate.latencies where row.budget != nil {
            checks.append(Self.check(budget: row, baseline: baseline.latencies.first { $0.metric == row.metric }))
        }
        self.checks = checks
        notes = Self.disagreements(checks, rules: rules, candidate: candidate)
    }

    /// The text `keysim gate` prints after the comparison: one line per check.
    public func summary() -> String {
        var lines: [String] = []
        for check in checks {
            lines.append("\(check.passed ? "pass" : "FAIL")  \(check.name): \(check.detail)")
        }
        for note in notes { lines.append("note  \(note)") }
        let failed = failures.count
        lines.append(failed == 0
            ? "gate passed: \(checks.count) check(s) hold"
            : "gate failed: \(failed) of \(checks.count) check(s) failed")
        return lines.joined(separator: "\n") + "\n"
    }
}

extension Gate {
    static func check(_ rule: GateRule, metric: RunMetric, row: Comparison.Row?, runs: SampleMean? = nil) -> GateCheck {
        let name = rule.name ?? describe(rule, metric: metric)
        var check = GateCheck(kind: .rule, name: name, metric: metric.name, unit: metric.unit, passed: false, detail: "",
                              measured: nil, limit: 0, excess: nil, baseline: row?.meanA, candidate: row?.meanB,
                              interval: nil, confidence: nil, count: row?.pairs ?? 0, pairsToDetectLimit: nil)
        guard let row, row.pairs > 0, let meanA = row.meanA, row.meanB != nil, row.difference != nil else {
            check.detail = "not measured in any pair of runs"
            return check
        }
        switch rule.bound {
        case .atMost(let limit) where metric.percentile != nil && runs != nil:
            return checkPercentileMax(check, limit: limit, rule: rule, row: row, metric: metric, runs: runs!)
        case .atMost(let limit): return checkMean(check, limit: limit, atMost: true, row: row, metric: metric)
        case .atLeast(let limit): return checkMean(check, limit: limit, atMost: false, row: row, metric: metric)
        case .regression(let amount): return checkRegression(check, limit: amount, rule: rule, row: row, metric: metric)
        case .relativeRegression(let share):
            return checkRegression(check, limit: share * Swift.abs(meanA), rule: rule, row: row, metric: metric)
        }
    }

    /// An absolute bound on the candidate's mean.
    private static func checkMean(_ check: GateCheck, limit: Double, atMost: Bool, row: Comparison.Row, metric: RunMetric) -> GateCheck {
        var check = check
        let (meanA, meanB) = (row.meanA ?? 0, row.meanB ?? 0)
        let u = unitSuffix(metric.unit)
        let d = Comparison.decimals(showing: [meanA, meanB], atLeast: metric.decimals)
        func f(_ x: Double) -> String { TextTable.fixed(x, d) }
        check.limit = limit
        check.measured = meanB
        check.passed = atMost ? meanB <= limit : meanB >= limit
        if !check.passed { check.excess = Swift.abs(meanB - limit) }
        check.detail = "candidate mean \(f(meanB))\(u), \(check.passed ? "within" : "breaking") \(atMost ? "≤" : "≥") \(number(limit))\(u)"
            + (check.excess.map { " by \(f($0))\(u)" } ?? "") + " (baseline \(f(meanA))\(u), \(row.pairs) pairs)"
        return check
    }

    /// A bound on how much worse than the baseline the candidate is, judged on the
    /// favourable end of the interval at the rule's confidence.
    private static func checkRegression(_ check: GateCheck, limit: Double, rule: GateRule, row: Comparison.Row,
                                        metric: RunMetric) -> GateCheck {
        var check = check
        let (meanA, meanB, difference) = (row.meanA ?? 0, row.meanB ?? 0, row.difference ?? 0)
        let worse = metric.lowerIsBetter ? difference : -difference
        check.limit = limit
        check.measured = worse
        check.confidence = rule.confidence
        guard row.pairs >= 2, let low = row.ciLow, let high = row.ciHigh else {
            check.detail = "needs at least two pairs of runs for an interval (has \(row.pairs))"
            return check
        }
        let halfWidth = (high - low) / 2 * StudentT.halfWidthScale(confidence: rule.confidence, degreesOfFreedom: row.pairs - 1)
        check.interval = (worse - halfWidth)...(worse + halfWidth)
        check.passed = worse - halfWidth <= limit
        if !check.passed { check.excess = worse - halfWidth - limit }
        let u = unitSuffix(metric.unit)
        let d = Comparison.decimals(showing: [meanA, meanB], atLeast: metric.decimals)
        let e = Comparison.decimals(showing: [worse, halfWidth, limit], atLeast: metric.decimals)
        func f(_ x: Double) -> String { TextTable.fixed(x, d) }
        func g(_ x: Double) -> String { TextTable.fixed(x, e) }
        let worded = worse > 0 ? "\(g(worse))\(u) worse than" : worse < 0 ? "\(g(-worse))\(u) better than" : "the same as"
        check.detail = "candidate \(worded) the baseline (\(percent(rule.confidence)) interval of how much worse: "
            + "[\(g(worse - halfWidth)), \(g(worse + halfWidth))]\(u)), bound \(g(limit))\(u)"
            + (check.excess.map { ": over it by at least \(g($0))\(u)" } ?? "")
            + " (baseline \(f(meanA))\(u), candidate \(f(meanB))\(u), \(row.pairs) pairs)"
        // A pass whose interval reaches past the bound did not rule the regression out: say
        // how many pairs would detect a difference of the bound's size.
        if check.passed, worse + halfWidth > limit, limit > 0, let needed = row.pairsToDetect(limit), needed > row.pairs {
            check.pairsToDetectLimit = needed
            check.detail += "; not ruled out: about \(needed) pairs would detect a difference of \(g(limit))\(u)"
        }
        return check
    }

    static func check(budget row: BatchSummary.LatencyRow, baseline: BatchSummary.LatencyRow?) -> GateCheck {
        let budget = row.budget!
        let limitMs = TextTable.fixed(budget.limit.milliseconds, budget.limit.milliseconds < 1 ? 2 : 0)
        let name = "budget \(row.metric.rawValue): at most \(TextTable.percent(budget.allowedShare)) over \(limitMs) ms"
        let baselineKeeps = baseline?.withinBudget ?? true
        var check = GateCheck(kind: .budget, name: name, metric: row.metric.rawValue, unit: "share",
                              passed: row.withinBudget || !baselineKeeps, detail: "", measured: row.shareOverBudget,
                              limit: budget.allowedShare, excess: nil, baseline: baseline.map(\.shareOverBudget),
                              candidate: row.shareOverBudget, interval: nil, confidence: nil, count: row.summary.count,
                              pairsToDetectLimit: nil)
        if !check.passed { check.excess = row.shareOverBudget - budget.allowedShare }
        let over = "\(TextTable.percent(row.shareOverBudget)) of \(row.summary.count) over \(limitMs) ms"
        let base = baseline.map { " (baseline \(TextTable.percent($0.shareOverBudget)))" } ?? ""
        if row.summary.count == 0 {
            check.detail = "no samples in the candidate's runs"
        } else if row.withinBudget {
            check.detail = "candidate \(over), within the allowed \(TextTable.percent(budget.allowedShare))\(base)"
        } else if !baselineKeeps {
            check.detail = "candidate \(over), above the allowed \(TextTable.percent(budget.allowedShare)), but the baseline breaks it too\(base)"
        } else {
            check.detail = "candidate \(over), above the allowed \(TextTable.percent(budget.allowedShare)) by \(TextTable.percent(check.excess!))\(base)"
        }
        return check
    }

    /// "key_latency_p99_ms ≤ 10 ms", "requests_per_100_words no more than 5% worse than the baseline (95%)".
    static func describe(_ rule: GateRule, metric: RunMetric) -> String {
        let u = unitSuffix(metric.unit)
        let level = percent(rule.confidence)
        switch rule.bound {
        case .atMost(let limit): return "\(metric.name) ≤ \(number(limit))\(u)"
        case .atLeast(let limit): return "\(metric.name) ≥ \(number(limit))\(u)"
        case .regression(let amount): return "\(metric.name) at most \(number(amount))\(u) worse than the baseline (\(level) confidence)"
        case .relativeRegression(let share): return "\(metric.name) at most \(number(share * 100))% worse than the baseline (\(level) confidence)"
        }
    }

    /// The unit after a number: " ms", " per 100 words"; nothing for shares, counts, ratios.
    static func unitSuffix(_ unit: String) -> String {
        ["share", "count", "ratio", ""].contains(unit) ? "" : " " + unit
    }

    /// A confidence level as a percentage without needless zeros: "95%", "99.9%".
    static func percent(_ share: Double) -> String { number((share * 1000).rounded() / 10) + "%" }

    /// A bound as written: no needless zeros.
    static func number(_ x: Double) -> String {
        NumberText.shortest(x)
    }
}

extension Gate {
    /// Checks, before anything runs, that every rule names a metric this build knows.
    /// - Throws: a `ConfigError` at the first rule that does not.
    public static func validate(_ rules: [GateRule]) throws(ConfigError) {
        for rule in rules where RunMetric.named(rule.metric) == nil {
            throw rule.error("unknown metric '\(rule.metric)'; known: \(RunMetric.all.map(\.name).joined(separator: ", "))")
        }
    }
}
