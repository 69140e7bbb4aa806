/// The `--json` documents of `run`, `compare`, `sweep` and `gate` (`docs/json-output.md`).
/// Every run metric, budget and check is listed from the tables that define them, so a
/// metric added to `RunMetric.all` appears here without other changes.
extension JSONOutput {
    /// A batch summary's budget table: one member per latency metric that was measured or has a budget.
    public static func latencies(_ summary: BatchSummary) -> JSONTree {
        .array(summary.latencies.filter { $0.summary.count > 0 || $0.budget != nil }.map { row in
            let s = row.summary
            return .object([
                ("metric", .string(row.metric.rawValue)), ("count", .integer(s.count)),
                ("p50Ms", .number(s.p50)), ("p95Ms", .number(s.p95)), ("p99Ms", .number(s.p99)), ("maxMs", .number(s.max)),
                ("budgetMs", .number(row.budget?.limit.milliseconds)),
                ("shareOverBudget", row.budget == nil ? .null : .number(row.shareOverBudget)),
                ("allowedShare", .number(row.budget?.allowedShare)),
                ("withinBudget", .bool(row.withinBudget)),
            ])
        })
    }

    /// Counts pooled over a batch's runs.
    public static func counts(_ summary: BatchSummary) -> JSONTree {
        let c = summary.counts
        return .object([
            ("runs", .integer(summary.runs)), ("keys", .integer(c.keys)), ("words", .integer(c.words)),
            ("suggestionsShown", .integer(c.suggestionsShown)), ("suggestionsSuperseded", .integer(c.suggestionsSuperseded)),
            ("suggestionsTooLate", .integer(c.suggestionsTooLate)), ("underlinesShown", .integer(c.underlinesShown)),
            ("underlinesConfirmed", .integer(c.confirmed)), ("underlinesRetracted", .integer(c.retracted)),
            ("flickers", .integer(c.flickers)), ("underlinesDropped", .integer(c.dropped)),
            ("cloudFindings", .integer(c.cloudFindings)), ("requests", .integer(c.requests)),
            ("requestsFailed", .integer(c.requestsFailed)), ("staleAnswers", .integer(c.staleAnswers)),
            ("timeouts", .integer(c.timeouts)), ("retries", .integer(c.retries)), ("charactersSent", .integer(c.charactersSent)),
            ("inputTokens", .integer(c.inputTokens)), ("cachedTokens", .integer(c.cachedTokens)),
            ("outputTokens", .integer(c.outputTokens)), ("costUSD", .number(Double(c.costPicoUSD) / 1e12)),
            ("rejectedRequests", .integer(c.rejectedRequests)),
            ("fixesApplied", .integer(c.fixesApplied)), ("fixesDropped", .integer(c.fixesDropped)),
            ("corruptingFixes", .integer(c.corruptingFixes)), ("dictations", .integer(c.dictations)),
        ])
    }

    /// Each run metric's mean over a batch's runs with the half-width of its 95 % interval.
    public static func metricMeans(_ database: Database, batchID: Int64) throws -> JSONTree {
        let query = try database.prepare("""
            SELECT m.value FROM run_metrics m JOIN runs r USING (run_id) WHERE r.batch_id = ? AND m.metric = ? ORDER BY r.run_id
            """)
        var rows: [JSONTree] = []
        for metric in RunMetric.all {
            var values: [Double] = []
            try query.bind(batchID, at: 1)
            try query.bind(metric.name, at: 2)
            try query.forEachRow { values.append($0.double(at: 0)) }
            let interval = MeanInterval(values)
            rows.append(.object([
                ("metric", .string(metric.name)), ("label", .string(metric.label)), ("unit", .string(metric.unit)),
                ("lowerIsBetter", .bool(metric.lowerIsBetter)), ("runs", .integer(values.count)),
                ("mean", values.isEmpty ? .null : .number(interval.mean)),
                ("halfWidth95", values.count < 2 ? .null : .number(interval.halfWidth)),
            ]))
        }
        return .array(rows)
    }

    /// A comparison's rows.
    public static func comparisonRows(_ comparison: Comparison) -> JSONTree {
        .array(comparison.rows.map { row in
            let metric = RunMetric.named(row.metric)
            return .object([
                ("metric", .string(row.metric)), ("label", .string(row.label)), ("unit", .string(metric?.unit)),
                ("lowerIsBetter", metric.map { .bool($0.lowerIsBetter) } ?? .null), ("pairs", .integer(row.pairs)),
                ("meanA", .number(row.meanA)), ("meanB", .number(row.meanB)), ("difference", .number(row.difference)),
                ("ciLow", .number(row.ciLow)), ("ciHigh", .number(row.ciHigh)),
                ("significant", row.pairs < 2 ? .null : .bool(row.significant)),
            ])
        })
    }

    /// A sweep's points.
    public static func sweepPoints(_ sweep: Sweep) -> JSONTree {
        .array(sweep.points.map { point in
            .object([
                ("index", .integer(point.index)),
                ("settings", .object(zip(sweep.parameters, point.values).map { ($0.0, .string($0.1)) })),
                ("runs", .integer(point.runs)), ("cost", .number(point.cost)), ("costHalfWidth95", .number(point.costHalfWidth)),
                ("delay", .number(point.delay)), ("delayHalfWidth95", .number(point.delayHalfWidth)),
                ("onParetoFront", .bool(point.onFront)), ("front", .string(point.status.rawValue)),
                ("dominatedBy", point.dominatedBy.map { .integer($0) } ?? .null),
                ("constrained", .array(zip(sweep.constraints, point.constrained).map { constraint, value in
                    .object([("metric", .string(constraint.metric)), ("mean", .number(value?.mean)),
                             ("halfWidth95", .number(value?.halfWidth)), ("met", .bool(constraint.holds(mean: value?.mean)))])
                })),
            ])
        })
    }

    /// A gate's checks.
    public static func gateChecks(_ gate: Gate) -> JSONTree {
        .array(gate.checks.map { check in
            .object([
                ("kind", .string(check.kind.rawValue)), ("name", .string(check.name)), ("metric", .string(check.metric)),
                ("unit", .string(check.unit)), ("passed", .bool(check.passed)), ("detail", .string(check.detail)),
                ("measured", .number(check.measured)), ("limit", .number(check.limit)), ("excess", .number(check.excess)),
                ("baseline", .number(check.baseline)), ("candidate", .number(check.candidate)),
                ("intervalLow", .number(check.interval?.lowerBound)), ("intervalHigh", .number(check.interval?.upperBound)),
                ("confidence", .number(check.confidence)), ("count", .integer(check.count)),
                ("pairsToDetectLimit", check.pairsToDetectLimit.map { .integer($0) } ?? .null),
            ])
        })
    }

    /// Where `--replications auto` stopped, or `null` when the count was fixed.
    public static func replicationSearch(_ outcome: ReplicationSearch.Outcome?, plan: ReplicationPlan?) -> JSONTree {
        guard let outcome, let plan else { return .null }
        return .object([
            ("replications", .integer(outcome.replications)), ("maximum", .integer(plan.maximum)),
            ("precision", .string(plan.target.description)), ("rounds", .array(outcome.rounds.map { .integer($0) })),
            ("reachedTarget", .bool(outcome.reachedTarget)), ("imprecise", .array(outcome.imprecise.map { .string($0) })),
        ])
    }
}
