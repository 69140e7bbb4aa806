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
    /// only for the first replication of each trace, which a timeline needs.
    case `default`
    /// Every row, task rows of every replication included.
    case full

    /// Whether a run of `replication` keeps its item rows (keys, suggestions …).
    public var keepsItems: Bool { self != .summary }

    /// Whether a run of `replication` (0-based) keeps its task rows.
    public func keepsTasks(replication: Int) -> Bool {
        switch self {
        case .summary: false
        case .default: replication == 0
        case .full: true
        }
    }
}
