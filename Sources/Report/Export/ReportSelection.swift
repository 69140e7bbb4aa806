/// What `keysim report` exports of a report: one batch, the batches that ran a policy, the two
/// sides of a comparison, the points of a sweep, or one run. Resolved once against the report
/// (`resolve(_:in:)`), which checks the names and ids and says what was picked; every
/// exporter then keeps only the selected rows (`ReportInspector.select`, `ReportDigest`).
public struct ReportSelection: Sendable, Equatable {
    /// What the user asked for.
    public enum Selector: Sendable, Equatable {
        /// `--batch ID|LABEL`: a batch by its id or by its label (a policy, a file, a sweep
        /// point's settings).
        case batch(String)
        /// `--policy NAME`: every batch that ran the scenario's policy `NAME`.
        case policy(String)
        /// `--comparison ID`: the comparison and the batches it compared.
        case comparison(Int64)
        /// `--sweep ID`: the sweep and the batches of its points.
        case sweep(Int64)
        /// `--run ID`: one run and its batch.
        case run(Int64)
    }

    /// What was asked for.
    public var selector: Selector
    /// The selected batches, ascending.
    public var batchIDs: [Int64]
    /// The selected run (`--run`); nil when whole batches are selected.
    public var runID: Int64?
    /// The comparisons shown: the one asked for, or those whose two batches are both selected.
    public var comparisonIDs: [Int64]
    /// The sweeps shown: the one asked for (a sweep is shown only whole).
    public var sweepIDs: [Int64]
    /// The jobs that wrote the selected batches.
    public var jobIDs: [Int64]
    /// The policy asked for (`--policy`): the per-policy views show only it.
    public var policy: String?
    /// Runs selected.
    public var runCount: Int
    /// The run a timeline draws: the one asked for, or the selection's first (replication 0 of
    /// its first trace in its first batch, which every detail level but `summary` keeps a
    /// timeline of).
    public var timelineRunID: Int64?
    /// One line saying what was picked: `batch 3 (policy fixed-1s, 10 runs)`.
    public var summary: String

    /// The runs selected as an SQL condition over the column `column` (`run_id`).
    func runCondition(_ column: String) -> String {
        if let runID { return "\(column) = \(runID)" }
        return "\(column) IN (SELECT run_id FROM runs WHERE batch_id IN (\(Self.list(batchIDs))))"
    }

    /// The batches selected as an SQL condition over the column `column` (`batch_id`).
    func batchCondition(_ column: String) -> String { "\(column) IN (\(Self.list(batchIDs)))" }

    /// `1, 2, 3` (empty for none: SQLite reads `IN ()` as false).
    static func list(_ ids: [Int64]) -> String { ids.map(String.init).joined(separator: ", ") }
}

extension ExportOptions {
    /// The options of an export limited to `selection` (the whole report when nil): a one-run
    /// selection also sets `runID`, which the run-scoped parts of the exports read.
    public init(selection: ReportSelection?, includeText: Bool = false) {
        self.init(runID: selection?.runID, includeText: includeText)
        self.selection = selection
    }
}
