/// The report's views: the tables compact storage replaced (`keys`, `suggestions`,
/// `tasks`), latencies and their percentiles per run, batch and policy, and the results of
/// comparisons and sweeps (`docs/report-schema.md`, "Views"). Created after every table.
extension ReportSchema {
    /// The figures `latency_per_run` and `latency_per_policy` give each group of latencies
    /// (`ranked`: a latency, its rank and count in the group, its budget): count, mean,
    /// nearest-rank percentiles, maximum, budget and share over it.
    private static let latencySummaryColumns = """
           MAX(n) AS count,
           AVG(latency_ns) / 1e6 AS mean_ms,
           MAX(CASE WHEN rank = (50 * n + 99) / 100 THEN latency_ns END) / 1e6 AS p50_ms,
           MAX(CASE WHEN rank = (95 * n + 99) / 100 THEN latency_ns END) / 1e6 AS p95_ms,
           MAX(CASE WHEN rank = (99 * n + 99) / 100 THEN latency_ns END) / 1e6 AS p99_ms,
           MAX(latency_ns) / 1e6 AS max_ms,
           MAX(limit_ns) / 1e6 AS budget_ms,
           CASE WHEN MAX(limit_ns) IS NULL THEN NULL ELSE AVG(latency_ns > limit_ns) END AS share_over_budget
    """

    /// Creates every view (idempotent).
    static let viewsSQL = """
    CREATE VIEW IF NOT EXISTS keys AS
        SELECT k.run_id, k.key_index, e.name AS edit, k.touch_ns, k.touch_ns + k.wait_ns AS start_ns,
               k.touch_ns + k.wait_ns + k.handler_ns AS inserted_ns, k.wait_ns + k.handler_ns AS latency_ns, k.queued_ahead
        FROM key_rows k JOIN edit_kinds e ON e.code = k.edit_code;

    CREATE VIEW IF NOT EXISTS suggestions AS
        SELECT s.run_id, s.key_index, s.key_index + s.version_after_key AS text_version, s.touch_ns,
               s.touch_ns + s.suggestion_ns AS end_ns, s.suggestion_ns AS latency_ns, o.name AS outcome, s.too_late,
               s.waited_ns, s.ran_ns
        FROM key_rows s JOIN suggestion_outcomes o ON o.code = s.outcome_code;

    CREATE VIEW IF NOT EXISTS tasks AS
        SELECT t.run_id, t.seq, x.name AS executor, t.seq + t.id_after_seq AS task_id,
               COALESCE(w.name, 'kind-' || t.kind_code) AS kind, t.tag, t.release_ns, t.release_ns + t.wait_ns AS start_ns,
               t.release_ns + t.wait_ns + t.run_ns AS finish_ns, t.release_ns + t.deadline_after_release_ns AS deadline_ns,
               t.core, t.preemptions, t.cancelled
        FROM task_rows t JOIN task_executors x ON x.run_id = t.run_id AND x.code = t.executor_code
        LEFT JOIN work_kinds w ON w.code = t.kind_code;

    CREATE VIEW IF NOT EXISTS latency_histogram AS
        SELECT run_id, metric, bucket,
               CASE WHEN bucket < 128 THEN bucket ELSE (64 + ((bucket - 128) & 63)) << (((bucket - 128) >> 6) + 1) END AS lower_ns,
               CASE WHEN bucket < 128 THEN bucket + 1 ELSE (65 + ((bucket - 128) & 63)) << (((bucket - 128) >> 6) + 1) END AS upper_ns,
               count
        FROM (SELECT h.run_id, m.name AS metric, json_extract(b.value, '$[0]') AS bucket, json_extract(b.value, '$[1]') AS count
              FROM latency_histograms h JOIN latency_metrics m ON m.code = h.metric_code JOIN json_each(h.buckets) b);

    CREATE VIEW IF NOT EXISTS latencies AS
        SELECT run_id, 'key' AS metric, key_index AS item, latency_ns FROM keys
        UNION ALL SELECT run_id, 'suggestion', key_index, latency_ns FROM suggestions WHERE outcome = 'shown'
        UNION ALL SELECT run_id, 'local-underline', underline_id, time_to_underline_ns FROM underlines WHERE time_to_underline_ns IS NOT NULL
        UNION ALL SELECT run_id, 'cloud-confirmation', underline_id, time_to_confirmation_ns FROM underlines WHERE time_to_confirmation_ns IS NOT NULL
        UNION ALL SELECT run_id, 'underline-verdict', underline_id,
                         COALESCE(confirmed_ns, CASE WHEN outcome = 'retracted' THEN end_ns END) - word_finished_ns
                  FROM underlines WHERE origin = 'local' AND (confirmed_ns IS NOT NULL OR outcome = 'retracted')
        UNION ALL SELECT run_id, 'request-round-trip', request_id, round_trip_ns FROM requests WHERE outcome = 'answered'
        UNION ALL SELECT run_id, 'dictation-tap-to-recording', dictation_id, tap_to_recording_ns FROM dictations
        UNION ALL SELECT run_id, 'dictation-stop-to-text', dictation_id, stop_to_text_ns FROM dictations;

    CREATE VIEW IF NOT EXISTS latency_per_run AS
    WITH ranked AS (
        SELECT l.run_id, l.metric, l.latency_ns, b.limit_ns,
               ROW_NUMBER() OVER (PARTITION BY l.run_id, l.metric ORDER BY l.latency_ns) AS rank,
               COUNT(*) OVER (PARTITION BY l.run_id, l.metric) AS n
        FROM latencies l LEFT JOIN budgets b ON b.run_id = l.run_id AND b.metric = l.metric
    )
    SELECT run_id, metric,
    \(latencySummaryColumns)
    FROM ranked GROUP BY run_id, metric;

    CREATE VIEW IF NOT EXISTS latency_per_policy AS
    WITH ranked AS (
        SELECT r.scenario_name, COALESCE(r.policy, '') AS policy, l.metric, l.latency_ns, b.limit_ns,
               ROW_NUMBER() OVER (PARTITION BY r.scenario_name, COALESCE(r.policy, ''), l.metric ORDER BY l.latency_ns) AS rank,
               COUNT(*) OVER (PARTITION BY r.scenario_name, COALESCE(r.policy, ''), l.metric) AS n
        FROM latencies l JOIN runs r USING (run_id)
        LEFT JOIN budgets b ON b.run_id = l.run_id AND b.metric = l.metric
    )
    SELECT scenario_name, policy, metric,
    \(latencySummaryColumns)
    FROM ranked GROUP BY scenario_name, policy, metric;

    CREATE VIEW IF NOT EXISTS key_latency_per_run AS
    SELECT run_id, count, mean_ms, p50_ms, p95_ms, p99_ms, max_ms, share_over_budget
    FROM latency_per_run WHERE metric = 'key';

    CREATE VIEW IF NOT EXISTS requests_per_run AS
    SELECT r.run_id, r.scenario_name, r.policy, r.replication, r.trace_index,
           COUNT(q.request_id) AS requests,
           CASE WHEN r.words > 0 THEN 100.0 * COUNT(q.request_id) / r.words END AS requests_per_100_words,
           SUM(q.characters) AS characters_sent,
           AVG(q.round_trip_ns) / 1e6 AS mean_round_trip_ms,
           MAX(q.round_trip_ns) / 1e6 AS max_round_trip_ms
    FROM runs r LEFT JOIN requests q USING (run_id)
    GROUP BY r.run_id;

    CREATE VIEW IF NOT EXISTS quality_per_run AS
    SELECT r.run_id, r.scenario_name, r.policy, r.replication, r.trace_index, r.words,
           (SELECT COUNT(*) FROM requests q WHERE q.run_id = r.run_id) AS requests,
           CASE WHEN r.words > 0 THEN 100.0 * (SELECT COUNT(*) FROM requests q WHERE q.run_id = r.run_id) / r.words END AS requests_per_100_words,
           CASE WHEN r.words > 0 THEN 100.0 * (SELECT COALESCE(SUM(characters), 0) FROM requests q WHERE q.run_id = r.run_id) / r.words END AS characters_per_100_words,
           (SELECT COALESCE(SUM(timeouts), 0) FROM requests q WHERE q.run_id = r.run_id) AS timeouts,
           (SELECT COALESCE(SUM(attempts - 1), 0) FROM requests q WHERE q.run_id = r.run_id) AS retries,
           (SELECT COUNT(*) FROM requests q WHERE q.run_id = r.run_id AND q.stale) AS stale_answers,
           (SELECT COUNT(*) FROM suggestions s WHERE s.run_id = r.run_id AND s.too_late) AS too_late_suggestions,
           (SELECT COUNT(*) FROM underlines u WHERE u.run_id = r.run_id AND u.shown_ns IS NOT NULL) AS underlines_shown,
           (SELECT COUNT(*) FROM underlines u WHERE u.run_id = r.run_id AND u.outcome = 'retracted') AS retracted,
           (SELECT COUNT(*) FROM underlines u WHERE u.run_id = r.run_id AND u.flicker) AS flickers,
           (SELECT COUNT(*) FROM underlines u WHERE u.run_id = r.run_id AND u.outcome = 'dropped') AS dropped_chips,
           (SELECT COUNT(*) FROM fixes f WHERE f.run_id = r.run_id AND f.corrupted) AS corrupting_fixes
    FROM runs r;

    CREATE VIEW IF NOT EXISTS typing_quality_per_run AS
    SELECT r.run_id, r.scenario_name, r.policy, r.replication, r.trace_index, r.edits AS keystrokes,
           COUNT(*) AS words,
           SUM(w.in_dictionary) AS words_in_dictionary,
           SUM(w.first_in_bar_prefix IS NOT NULL) AS words_predicted,
           SUM(w.keystrokes_saved) AS keystrokes_saved,
           SUM(w.keystrokes_saved_in_time) AS keystrokes_saved_in_time,
           CASE WHEN r.edits > 0 THEN 1.0 * SUM(w.keystrokes_saved) / r.edits END AS keystroke_savings,
           CASE WHEN r.edits > 0 THEN 1.0 * SUM(w.keystrokes_saved_in_time) / r.edits END AS keystroke_savings_in_time,
           AVG(w.first_in_bar_prefix IS NOT NULL) AS word_prediction_rate
    FROM words w JOIN runs r USING (run_id)
    GROUP BY w.run_id;

    CREATE VIEW IF NOT EXISTS batch_metrics AS
    SELECT r.batch_id, m.metric, COUNT(*) AS runs, AVG(m.value) AS mean, MIN(m.value) AS min, MAX(m.value) AS max
    FROM run_metrics m JOIN runs r USING (run_id)
    GROUP BY r.batch_id, m.metric;

    CREATE VIEW IF NOT EXISTS key_latency_per_batch AS
    WITH ranked AS (
        SELECT r.batch_id, k.latency_ns,
               (SELECT bb.limit_ns FROM budgets bb WHERE bb.run_id = r.run_id AND bb.metric = 'key') AS key_budget_ns,
               ROW_NUMBER() OVER (PARTITION BY r.batch_id ORDER BY k.latency_ns) AS rank,
               COUNT(*) OVER (PARTITION BY r.batch_id) AS n
        FROM keys k JOIN runs r USING (run_id)
    )
    SELECT x.batch_id, b.scenario_name, b.policy, COALESCE(j.label, b.policy, '') AS label,
           MAX(x.n) AS count,
           AVG(x.latency_ns) / 1e6 AS mean_ms,
           MAX(CASE WHEN x.rank = (50 * x.n + 99) / 100 THEN x.latency_ns END) / 1e6 AS p50_ms,
           MAX(CASE WHEN x.rank = (95 * x.n + 99) / 100 THEN x.latency_ns END) / 1e6 AS p95_ms,
           MAX(CASE WHEN x.rank = (99 * x.n + 99) / 100 THEN x.latency_ns END) / 1e6 AS p99_ms,
           MAX(x.latency_ns) / 1e6 AS max_ms,
           AVG(x.latency_ns > x.key_budget_ns) AS share_over_budget,
           MAX(x.key_budget_ns) / 1e6 AS budget_ms
    FROM ranked x JOIN batches b USING (batch_id) LEFT JOIN job_batches j USING (batch_id)
    GROUP BY x.batch_id;

    CREATE VIEW IF NOT EXISTS requests_per_batch AS
    WITH ranked AS (
        SELECT r.batch_id, q.round_trip_ns, q.characters,
               ROW_NUMBER() OVER (PARTITION BY r.batch_id ORDER BY q.round_trip_ns) AS rank,
               COUNT(*) OVER (PARTITION BY r.batch_id) AS n
        FROM requests q JOIN runs r USING (run_id)
    ),
    totals AS (SELECT batch_id, COUNT(*) AS runs, SUM(words) AS words FROM runs GROUP BY batch_id)
    SELECT t.batch_id, b.scenario_name, b.policy, COALESCE(j.label, b.policy, '') AS label, t.runs,
           COALESCE(MAX(x.n), 0) AS requests,
           CASE WHEN t.words > 0 THEN 100.0 * COALESCE(MAX(x.n), 0) / t.words END AS requests_per_100_words,
           COALESCE(SUM(x.characters), 0) AS characters_sent,
           AVG(x.round_trip_ns) / 1e6 AS mean_round_trip_ms,
           MAX(CASE WHEN x.rank = (50 * x.n + 99) / 100 THEN x.round_trip_ns END) / 1e6 AS p50_round_trip_ms,
           MAX(CASE WHEN x.rank = (95 * x.n + 99) / 100 THEN x.round_trip_ns END) / 1e6 AS p95_round_trip_ms,
           MAX(CASE WHEN x.rank = (99 * x.n + 99) / 100 THEN x.round_trip_ns END) / 1e6 AS p99_round_trip_ms,
           MAX(x.round_trip_ns) / 1e6 AS max_round_trip_ms
    FROM totals t JOIN batches b USING (batch_id) LEFT JOIN job_batches j USING (batch_id)
    LEFT JOIN ranked x ON x.batch_id = t.batch_id
    GROUP BY t.batch_id;

    CREATE VIEW IF NOT EXISTS requests_per_policy AS
    WITH ranked AS (
        SELECT r.scenario_name, COALESCE(r.policy, '') AS policy, q.round_trip_ns,
               ROW_NUMBER() OVER (PARTITION BY r.scenario_name, COALESCE(r.policy, '') ORDER BY q.round_trip_ns) AS rank,
               COUNT(*) OVER (PARTITION BY r.scenario_name, COALESCE(r.policy, '')) AS n
        FROM requests q JOIN runs r USING (run_id)
    ),
    totals AS (
        SELECT scenario_name, COALESCE(policy, '') AS policy, COUNT(*) AS runs, SUM(words) AS words
        FROM runs GROUP BY scenario_name, COALESCE(policy, '')
    )
    SELECT t.scenario_name, t.policy, t.runs,
           COALESCE(MAX(x.n), 0) AS requests,
           CASE WHEN t.words > 0 THEN 100.0 * COALESCE(MAX(x.n), 0) / t.words END AS requests_per_100_words,
           AVG(x.round_trip_ns) / 1e6 AS mean_round_trip_ms,
           MAX(CASE WHEN x.rank = (50 * x.n + 99) / 100 THEN x.round_trip_ns END) / 1e6 AS p50_round_trip_ms,
           MAX(CASE WHEN x.rank = (95 * x.n + 99) / 100 THEN x.round_trip_ns END) / 1e6 AS p95_round_trip_ms,
           MAX(CASE WHEN x.rank = (99 * x.n + 99) / 100 THEN x.round_trip_ns END) / 1e6 AS p99_round_trip_ms,
           MAX(x.round_trip_ns) / 1e6 AS max_round_trip_ms
    FROM totals t LEFT JOIN ranked x ON x.scenario_name = t.scenario_name AND x.policy = t.policy
    GROUP BY t.scenario_name, t.policy;

    CREATE VIEW IF NOT EXISTS budget_violations_per_policy AS
    SELECT r.scenario_name, COALESCE(r.policy, '') AS policy, v.budget, COUNT(*) AS violations,
           MAX(v.latency_ns) / 1e6 AS worst_ms, MAX(v.budget_ns) / 1e6 AS budget_ms
    FROM budget_violations v JOIN runs r USING (run_id)
    GROUP BY r.scenario_name, COALESCE(r.policy, ''), v.budget;

    CREATE VIEW IF NOT EXISTS comparison_results AS
    SELECT c.comparison_id, c.scenario_name, c.label_a, c.label_b, cm.position, cm.metric, m.label AS metric_label,
           m.unit, cm.pairs, cm.mean_a, cm.mean_b, cm.difference, cm.ci_low, cm.ci_high, cm.significant
    FROM comparison_metrics cm JOIN comparisons c USING (comparison_id) LEFT JOIN metrics m USING (metric);

    CREATE VIEW IF NOT EXISTS sweep_results AS
    SELECT s.sweep_id, s.scenario_name, p.point_index, p.settings, p.runs, s.cost_metric, p.cost, p.cost_half_width,
           s.delay_metric, p.delay, p.delay_half_width, p.on_front
    FROM sweep_points p JOIN sweeps s USING (sweep_id);
    """
}
