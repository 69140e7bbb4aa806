/// The SQLite schema of a keysim report. Documented for users in `docs/report-schema.md`;
/// bump `version` whenever a change would make an older keysim misread a newer file.
public enum ReportSchema {
    /// `PRAGMA user_version` of reports this build writes and reads.
    public static let version = 1
    /// `PRAGMA application_id` of keysim reports: "ksim" in ASCII.
    public static let applicationID: Int32 = 0x6B73_696D

    /// Creates every table, index and view (idempotent).
    static let createSQL = """
    CREATE TABLE IF NOT EXISTS batches (
        batch_id        INTEGER PRIMARY KEY,
        command         TEXT NOT NULL,
        scenario_name   TEXT NOT NULL,
        scenario_path   TEXT NOT NULL,
        scenario_hash   TEXT NOT NULL,
        traces_hash     TEXT NOT NULL,
        policy          TEXT,
        seed            INTEGER NOT NULL,
        replications    INTEGER NOT NULL,
        keysim_version  TEXT NOT NULL,
        created_at      TEXT NOT NULL,
        wall_seconds    REAL NOT NULL
    );
    CREATE TABLE IF NOT EXISTS runs (
        run_id          INTEGER PRIMARY KEY,
        batch_id        INTEGER NOT NULL REFERENCES batches(batch_id),
        scenario_name   TEXT NOT NULL,
        policy          TEXT,
        seed            INTEGER NOT NULL,
        replication     INTEGER NOT NULL,
        trace_index     INTEGER NOT NULL,
        trace_path      TEXT NOT NULL,
        scenario_hash   TEXT NOT NULL,
        traces_hash     TEXT NOT NULL,
        keysim_version  TEXT NOT NULL,
        key_budget_ns   INTEGER NOT NULL,
        sim_end_ns      INTEGER NOT NULL,
        events          INTEGER NOT NULL,
        edits           INTEGER NOT NULL,
        requests        INTEGER NOT NULL,
        words           INTEGER NOT NULL,
        characters      INTEGER NOT NULL,
        main_busy_ns    INTEGER NOT NULL,
        wall_seconds    REAL NOT NULL
    );
    CREATE TABLE IF NOT EXISTS keys (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        key_index       INTEGER NOT NULL,
        edit            TEXT NOT NULL,
        touch_ns        INTEGER NOT NULL,
        start_ns        INTEGER NOT NULL,
        inserted_ns     INTEGER NOT NULL,
        latency_ns      INTEGER NOT NULL,
        PRIMARY KEY (run_id, key_index)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS requests (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        request_id      INTEGER NOT NULL,
        trigger         TEXT NOT NULL,
        sent_ns         INTEGER NOT NULL,
        text_version    INTEGER NOT NULL,
        characters      INTEGER NOT NULL,
        network_ns      INTEGER NOT NULL,
        service_ns      INTEGER NOT NULL,
        answered_ns     INTEGER NOT NULL,
        round_trip_ns   INTEGER NOT NULL,
        outcome         TEXT NOT NULL,
        PRIMARY KEY (run_id, request_id)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS tasks (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        seq             INTEGER NOT NULL,
        executor        TEXT NOT NULL,
        task_id         INTEGER NOT NULL,
        kind            TEXT NOT NULL,
        tag             INTEGER NOT NULL,
        release_ns      INTEGER NOT NULL,
        start_ns        INTEGER NOT NULL,
        finish_ns       INTEGER NOT NULL,
        deadline_ns     INTEGER,
        core            INTEGER NOT NULL,
        preemptions     INTEGER NOT NULL,
        cancelled       INTEGER NOT NULL,
        PRIMARY KEY (run_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS budget_violations (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        budget          TEXT NOT NULL,
        item_index      INTEGER NOT NULL,
        latency_ns      INTEGER NOT NULL,
        budget_ns       INTEGER NOT NULL,
        cause           TEXT NOT NULL,
        PRIMARY KEY (run_id, budget, item_index)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS runs_by_batch ON runs(batch_id, replication, trace_index);
    CREATE INDEX IF NOT EXISTS runs_by_policy ON runs(scenario_name, policy);

    CREATE VIEW IF NOT EXISTS key_latency_per_run AS
    WITH ranked AS (
        SELECT k.run_id, k.latency_ns, r.key_budget_ns,
               ROW_NUMBER() OVER (PARTITION BY k.run_id ORDER BY k.latency_ns) AS rank,
               COUNT(*) OVER (PARTITION BY k.run_id) AS n
        FROM keys k JOIN runs r USING (run_id)
    )
    SELECT run_id,
           MAX(n) AS count,
           AVG(latency_ns) / 1e6 AS mean_ms,
           MAX(CASE WHEN rank = (50 * n + 99) / 100 THEN latency_ns END) / 1e6 AS p50_ms,
           MAX(CASE WHEN rank = (95 * n + 99) / 100 THEN latency_ns END) / 1e6 AS p95_ms,
           MAX(CASE WHEN rank = (99 * n + 99) / 100 THEN latency_ns END) / 1e6 AS p99_ms,
           MAX(latency_ns) / 1e6 AS max_ms,
           AVG(latency_ns > key_budget_ns) AS share_over_budget
    FROM ranked GROUP BY run_id;

    CREATE VIEW IF NOT EXISTS key_latency_per_policy AS
    WITH ranked AS (
        SELECT r.scenario_name, COALESCE(r.policy, '') AS policy, k.latency_ns, r.key_budget_ns,
               ROW_NUMBER() OVER (PARTITION BY r.scenario_name, COALESCE(r.policy, '') ORDER BY k.latency_ns) AS rank,
               COUNT(*) OVER (PARTITION BY r.scenario_name, COALESCE(r.policy, '')) AS n
        FROM keys k JOIN runs r USING (run_id)
    )
    SELECT scenario_name, policy,
           MAX(n) AS count,
           AVG(latency_ns) / 1e6 AS mean_ms,
           MAX(CASE WHEN rank = (50 * n + 99) / 100 THEN latency_ns END) / 1e6 AS p50_ms,
           MAX(CASE WHEN rank = (95 * n + 99) / 100 THEN latency_ns END) / 1e6 AS p95_ms,
           MAX(CASE WHEN rank = (99 * n + 99) / 100 THEN latency_ns END) / 1e6 AS p99_ms,
           MAX(latency_ns) / 1e6 AS max_ms,
           AVG(latency_ns > key_budget_ns) AS share_over_budget
    FROM ranked GROUP BY scenario_name, policy;

    CREATE VIEW IF NOT EXISTS requests_per_run AS
    SELECT r.run_id, r.scenario_name, r.policy, r.replication, r.trace_index,
           COUNT(q.request_id) AS requests,
           CASE WHEN r.words > 0 THEN 100.0 * COUNT(q.request_id) / r.words END AS requests_per_100_words,
           SUM(q.characters) AS characters_sent,
           AVG(q.round_trip_ns) / 1e6 AS mean_round_trip_ms,
           MAX(q.round_trip_ns) / 1e6 AS max_round_trip_ms
    FROM runs r LEFT JOIN requests q USING (run_id)
    GROUP BY r.run_id;
    """
}
