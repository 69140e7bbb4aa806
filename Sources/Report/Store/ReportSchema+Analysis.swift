/// The tables that describe jobs (which work items a process ran, and for which shard),
/// per-run metrics, comparisons and sweeps, with their views. Created with the base schema;
/// documented in `docs/report-schema.md`.
extension ReportSchema {
    /// Creates the job, metric, comparison and sweep tables, indexes and views
    /// (idempotent: also run before writing to a report made before they existed).
    static let createAnalysisSQL = """
    CREATE TABLE IF NOT EXISTS jobs (
        job_id          INTEGER PRIMARY KEY,
        job_key         TEXT NOT NULL,
        command         TEXT NOT NULL,
        scenario_name   TEXT NOT NULL,
        scenario_path   TEXT NOT NULL,
        traces_hash     TEXT NOT NULL,
        seed            INTEGER NOT NULL,
        replications    INTEGER NOT NULL,
        batches         INTEGER NOT NULL,
        work_items      INTEGER NOT NULL,
        shard_index     INTEGER NOT NULL,
        shard_count     INTEGER NOT NULL,
        spec            TEXT NOT NULL,
        keysim_version  TEXT NOT NULL,
        complete        INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS job_batches (
        batch_id        INTEGER PRIMARY KEY REFERENCES batches(batch_id),
        job_id          INTEGER NOT NULL REFERENCES jobs(job_id),
        batch_index     INTEGER NOT NULL,
        label           TEXT NOT NULL,
        settings        TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS job_runs (
        run_id          INTEGER PRIMARY KEY REFERENCES runs(run_id),
        job_id          INTEGER NOT NULL REFERENCES jobs(job_id),
        work_item       INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS metrics (
        metric          TEXT PRIMARY KEY,
        label           TEXT NOT NULL,
        unit            TEXT NOT NULL,
        lower_is_better INTEGER NOT NULL,
        description     TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS run_metrics (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        metric          TEXT NOT NULL,
        value           REAL NOT NULL,
        PRIMARY KEY (run_id, metric)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS comparisons (
        comparison_id   INTEGER PRIMARY KEY,
        job_id          INTEGER NOT NULL REFERENCES jobs(job_id),
        scenario_name   TEXT NOT NULL,
        label_a         TEXT NOT NULL,
        label_b         TEXT NOT NULL,
        batch_a         INTEGER NOT NULL REFERENCES batches(batch_id),
        batch_b         INTEGER NOT NULL REFERENCES batches(batch_id),
        pairs           INTEGER NOT NULL,
        confidence      REAL NOT NULL
    );
    CREATE TABLE IF NOT EXISTS comparison_metrics (
        comparison_id   INTEGER NOT NULL REFERENCES comparisons(comparison_id),
        position        INTEGER NOT NULL,
        metric          TEXT NOT NULL,
        pairs           INTEGER NOT NULL,
        mean_a          REAL,
        mean_b          REAL,
        difference      REAL,
        ci_low          REAL,
        ci_high         REAL,
        significant     INTEGER NOT NULL,
        PRIMARY KEY (comparison_id, position)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS sweeps (
        sweep_id        INTEGER PRIMARY KEY,
        job_id          INTEGER NOT NULL REFERENCES jobs(job_id),
        scenario_name   TEXT NOT NULL,
        parameters      TEXT NOT NULL,
        points          INTEGER NOT NULL,
        cost_metric     TEXT NOT NULL,
        delay_metric    TEXT NOT NULL,
        confidence      REAL NOT NULL,
        constraints     TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS sweep_points (
        sweep_id        INTEGER NOT NULL REFERENCES sweeps(sweep_id),
        point_index     INTEGER NOT NULL,
        batch_id        INTEGER NOT NULL REFERENCES batches(batch_id),
        settings        TEXT NOT NULL,
        runs            INTEGER NOT NULL,
        cost            REAL,
        cost_half_width REAL,
        delay           REAL,
        delay_half_width REAL,
        on_front        INTEGER NOT NULL,
        front           TEXT NOT NULL,
        dominated_by    INTEGER,
        PRIMARY KEY (sweep_id, point_index)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS jobs_by_key ON jobs(job_key);
    CREATE INDEX IF NOT EXISTS job_batches_by_job ON job_batches(job_id, batch_index);
    CREATE UNIQUE INDEX IF NOT EXISTS job_runs_by_item ON job_runs(job_id, work_item);

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
           s.delay_metric, p.delay, p.delay_half_width, p.on_front, p.front, p.dominated_by, s.confidence
    FROM sweep_points p JOIN sweeps s USING (sweep_id);
    """

    /// Creates the analysis tables in `database` if they are missing. Writers call this
    /// inside their transaction, so a report made before these tables existed gains them.
    static func ensureAnalysisTables(_ database: Database) throws(SQLiteError) {
        if try !database.tableExists("sweep_points") {
            try database.execute(createAnalysisSQL)
        }
    }
}
