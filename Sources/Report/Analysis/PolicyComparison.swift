import Scenarios

/// Several policies (or scenario files) run on the same work items with common random
/// numbers, read as one table: every metric under every policy, each policy's paired
/// difference to the baseline with intervals corrected for the number of comparisons, and
/// the policies no other beats on the objectives the user names.
///
/// The comparisons with the baseline are the stored ones (`comparisons`, one row per
/// candidate): with m candidates each metric is a family of m comparisons, its intervals
/// Bonferroni's (each at 1 − 0.05/m) and its "significant" Holm's step-down at a family-wise
/// 5 %. Which policies are beaten is decided here from the runs' values, pairing every
/// policy with every other.
public struct PolicyComparison: Sendable {
    /// The scenario's name.
    public var scenarioName: String
    /// The policies' labels, the baseline first.
    public var labels: [String]
    /// The baseline against each other policy, in `labels` order.
    public var comparisons: [Comparison]
    /// The metrics a policy must be beaten on, all at once, to be left out of `unbeaten`.
    public var objectives: [RunMetric]
    /// The policies no other beats on `objectives`, in `labels` order.
    public var unbeaten: [String]
    /// The level of each pairwise interval the beating test uses: Bonferroni's over the
    /// pairs of policies, 1 − 0.05/(N(N − 1)/2).
    public var beatingConfidence: Double

    /// The objectives when the user names none: what a debounce policy costs (requests), how
    /// long the user waits for the cloud's verdict, and how many underlines get one in time.
    public static let defaultObjectives = [RunMetric.requestsPer100Words, .underlineVerdictMeanMs, .verdictCoverage]

    /// The comparison job `jobID` stored, judged on `objectives`.
    /// - Throws: `ReportError` when the job stored no comparison.
    public static func load(_ database: Database, jobID: Int64, objectives: [RunMetric], file: String) throws -> PolicyComparison {
        let comparisons = try Comparison.load(database, jobID: jobID)
        guard let first = comparisons.first else { throw ReportError(file: file, message: "the comparison was not stored") }
        let batches = try database.query("SELECT batch_id FROM job_batches WHERE job_id = ? ORDER BY batch_index", [.integer(jobID)])
            .map { $0[0].integerValue }
        let values = try batches.map { batch in try objectives.map { try Self.values(database, batch: batch, metric: $0) } }
        let level = MultipleComparisons.bonferroniConfidence(family: Comparison.confidence,
                                                             comparisons: Swift.max(1, batches.count * (batches.count - 1) / 2))
        let labels = [first.labelA] + comparisons.map(\.labelB)
        let unbeaten = labels.indices.filter { loser in
            !labels.indices.contains { winner in
                winner != loser && Self.beats(values[winner], values[loser], objectives: objectives, confidence: level)
            }
        }.map { labels[$0] }
        return PolicyComparison(scenarioName: first.scenarioName, labels: labels, comparisons: comparisons, objectives: objectives,
                                unbeaten: unbeaten, beatingConfidence: level)
    }

    /// Each run's value of `metric` in `batch`, by (replication, trace).
    private static func values(_ database: Database, batch: Int64, metric: RunMetric) throws -> [[Int64]: Double] {
        var values: [[Int64]: Double] = [:]
        for row in try database.query("""
            SELECT r.replication, r.trace_index, m.value FROM runs r JOIN run_metrics m ON m.run_id = r.run_id AND m.metric = ?
            WHERE r.batch_id = ?
            """, [.text(metric.name), .integer(batch)]) {
            values[[row[0].integerValue, row[1].integerValue]] = row[2].doubleValue
        }
        return values
    }

    /// How one policy stands against another on one metric.
    enum Standing { case better, same, unsure }

    /// How `winner` stands against `loser` on one metric, over the pairs where both have a
    /// value: `same` when every pair is equal (common random numbers made them so), `better`
    /// when the two-sided interval of the paired difference at `confidence` lies wholly on
    /// `winner`'s side of zero, `unsure` otherwise (and under two pairs).
    static func standing(_ winner: [[Int64]: Double], _ loser: [[Int64]: Double], lowerIsBetter: Bool, confidence: Double) -> Standing {
        let keys = winner.keys.filter { loser[$0] != nil }.sorted { $0.lexicographicallyPrecedes($1) }
        let differences = keys.map { winner[$0]! - loser[$0]! }
        if !differences.isEmpty && differences.allSatisfy({ $0 == 0 }) { return .same }
        guard let interval = PairedDifference(differences: differences).interval(confidence: confidence) else { return .unsure }
        return (lowerIsBetter ? interval.upperBound < 0 : interval.lowerBound > 0) ? .better : .unsure
    }

    /// Whether `winner` beats `loser`: better on at least one objective and better or the
    /// same on every other.
    static func beats(_ winner: [[[Int64]: Double]], _ loser: [[[Int64]: Double]], objectives: [RunMetric], confidence: Double) -> Bool {
        let standings = objectives.indices.map {
            standing(winner[$0], loser[$0], lowerIsBetter: objectives[$0].lowerIsBetter, confidence: confidence)
        }
        return standings.contains(.better) && !standings.contains(.unsure)
    }
}
