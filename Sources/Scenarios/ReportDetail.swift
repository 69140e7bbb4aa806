/// How much of what a run measured its report keeps (`--detail`, or a scenario's `detail`).
///
/// Whatever the level, every run's metrics (`run_metrics`), budgets, latency histograms and
/// per-run totals are written, and comparisons and sweeps come out the same to the last
/// digit: they are computed from the records in the process, not from the rows kept.
public enum ReportDetail: String, Sendable, Equatable, CaseIterable {
    /// Per-run figures and histograms only: no row per key, suggestion, request or task.
    case summary
    /// Everything users query (keys, suggestions, requests, underlines, fixes, violations
    /// with causes, words, touches, dictations, the extension's events), and the task rows
    /// only for the first replication of each of the first `timelineTraces` traces, which
    /// a timeline needs.
    case `default`
    /// Every row, task rows of every replication included.
    case full

    /// Whether a run of `replication` keeps its item rows (keys, suggestions …).
    public var keepsItems: Bool { self != .summary }

    /// How many traces of a batch keep a timeline at the `default` level: replication 0 of
    /// each of the batch's first `timelineTraces` traces keeps its task rows. A scenario of a
    /// few traces keeps one timeline for each; a population study of thousands keeps a
    /// sample, not 4 task rows a key for every user (`full` keeps them all).
    public static let timelineTraces = 10

    /// Whether the run of `replication` (0-based) of trace `traceIndex` keeps its task rows.
    public func keepsTasks(replication: Int, traceIndex: Int) -> Bool {
        switch self {
        case .summary: false
        case .default: replication == 0 && traceIndex < Self.timelineTraces
        case .full: true
        }
    }
}
