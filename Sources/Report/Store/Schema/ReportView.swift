/// A view of a report as its readers see it: what one row is and what it holds. The view's
/// SQL is in `ReportSchema.viewsSQL`; its description here is what the "Views" section of
/// `docs/report-schema.md` and the CSV export's `index.csv` say of it.
public struct ReportView: Sendable {
    /// The view's name.
    public let name: String
    /// What one row is, as "one row per …" says it.
    public let rowPer: String
    /// What it holds, for the docs (Markdown).
    public let what: String
}

extension ReportSchema {
    /// Every view of a report, in the order the docs list them.
    public static let views: [ReportView] = [
        ReportView(name: "keys", rowPer: "edit (key, backspace, paste, picked suggestion)",
                   what: "`key_rows` as the table it replaced: `run_id`, `key_index`, `edit`, `touch_ns`, `start_ns`, `inserted_ns`, "
                       + "`latency_ns`, `queued_ahead` (tasks queued on the main thread at the touch)"),
        ReportView(name: "suggestions", rowPer: "suggestion bar update a key asked for",
                   what: "`key_rows` as the suggestion bar updates keys asked for: `run_id`, `key_index`, `text_version`, `touch_ns`, "
                       + "`end_ns`, `latency_ns`, `outcome` (`shown`, `superseded`, `killed`), `too_late` (shown after the next touch), "
                       + "`waited_ns`, `ran_ns`"),
        ReportView(name: "tasks", rowPer: "task an executor ran (or cancelled)",
                   what: "`task_rows` as the tasks executors ran: `run_id`, `seq`, `executor`, `task_id`, `kind`, `tag`, `release_ns`, "
                       + "`start_ns`, `finish_ns`, `deadline_ns`, `core`, `preemptions`, `cancelled`"),
        ReportView(name: "latency_histogram", rowPer: "(run, latency metric, bucket)",
                   what: "`latency_histograms` as a row per bucket (see [Compact storage](#compact-storage))"),
        ReportView(name: "typing_quality_per_run", rowPer: "run that measured typing quality",
                   what: "per run: see [Typing quality](#typing-quality)"),
        ReportView(name: "latencies", rowPer: "measured latency (item)",
                   what: "every measured latency, one row per item: `run_id`, `metric` (`key`, `suggestion`, `local-underline`, "
                       + "`cloud-confirmation`, `request-round-trip`, `dictation-tap-to-recording`, `dictation-stop-to-text`), `item`, `latency_ns`"),
        ReportView(name: "latency_per_run", rowPer: "(run, latency metric)",
                   what: "per (run, metric): `count`, `mean_ms`, `p50_ms`, `p95_ms`, `p99_ms`, `max_ms`, `budget_ms`, `share_over_budget`"),
        ReportView(name: "latency_per_policy", rowPer: "(scenario, policy, latency metric)",
                   what: "the same pooled per (`scenario_name`, `policy`, `metric`)"),
        ReportView(name: "quality_per_run", rowPer: "run",
                   what: "per run: requests and characters per 100 words, timeouts, retries, stale answers, too-late suggestions, "
                       + "underlines shown, retracted, flickers, dropped chips, corrupting fixes"),
        ReportView(name: "key_latency_per_run", rowPer: "run",
                   what: "per run: `count`, `mean_ms`, `p50_ms`, `p95_ms`, `p99_ms`, `max_ms`, `share_over_budget`"),
        ReportView(name: "key_latency_per_batch", rowPer: "batch", what: "the same per batch, with its `label` and `budget_ms`"),
        ReportView(name: "requests_per_run", rowPer: "run",
                   what: "per run: `requests`, `requests_per_100_words`, `characters_sent`, `mean_round_trip_ms`, `max_round_trip_ms`"),
        ReportView(name: "requests_per_batch", rowPer: "batch",
                   what: "per batch: `runs`, `requests`, `requests_per_100_words`, `characters_sent`, mean, p50, p95, p99 and max round trip"),
        ReportView(name: "requests_per_policy", rowPer: "(scenario, policy)", what: "the same pooled per (`scenario_name`, `policy`)"),
        ReportView(name: "budget_violations_per_policy", rowPer: "(scenario, policy, budget)",
                   what: "per (`scenario_name`, `policy`, `budget`): `violations`, `worst_ms`, `budget_ms`"),
        ReportView(name: "batch_metrics", rowPer: "(batch, metric)", what: "per (batch, metric): `runs`, `mean`, `min`, `max` of `run_metrics`"),
        ReportView(name: "comparison_results", rowPer: "(comparison, metric)",
                   what: "`comparison_metrics` with the comparison's labels and the metric's label and unit"),
        ReportView(name: "sweep_results", rowPer: "(sweep, grid point)", what: "`sweep_points` with the sweep's metric names"),
    ]

    /// The "Views" table of `docs/report-schema.md` (between its markers).
    public static var viewsMarkdown: String {
        "| view | one row per | what |\n| --- | --- | --- |\n" + views.map { "| `\($0.name)` | \($0.rowPer) | \($0.what) |\n" }.joined()
    }

    /// The view called `name`, if keysim declares one.
    public static func view(named name: String) -> ReportView? { views.first { $0.name == name } }

    /// The table called `name`, if keysim declares one.
    public static func table(named name: String) -> ReportTable? { tables.first { $0.name == name } }
}
