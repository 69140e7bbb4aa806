/// The SQLite schema of a keysim report. Documented for users in `docs/report-schema.md`;
/// bump `version` whenever a change would make an older keysim misread a newer file.
public enum ReportSchema {
    /// `PRAGMA user_version` of reports this build writes and reads.
    public static let version = 7
    /// `PRAGMA application_id` of keysim reports: "ksim" in ASCII.
    public static let applicationID: Int32 = 0x6B73_696D

    /// Creates every table, index and view (idempotent).
    static let createSQL = compactSQL + """
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
        sim_end_ns      INTEGER NOT NULL,
        events          INTEGER NOT NULL,
        edits           INTEGER NOT NULL,
        requests        INTEGER NOT NULL,
        words           INTEGER NOT NULL,
        characters      INTEGER NOT NULL,
        checks_of_vanished_words INTEGER NOT NULL,
        acceptances_without_chip INTEGER NOT NULL,
        acceptances_without_fix  INTEGER NOT NULL,
        error_words_finished     INTEGER NOT NULL,
        wall_seconds    REAL NOT NULL
    );
    CREATE TABLE IF NOT EXISTS threads (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        thread          TEXT NOT NULL,
        busy_ns         INTEGER NOT NULL,
        PRIMARY KEY (run_id, thread)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS underlines (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        underline_id    INTEGER NOT NULL,
        word_ordinal    INTEGER NOT NULL,
        word_length     INTEGER NOT NULL,
        origin          TEXT NOT NULL,
        true_error      INTEGER NOT NULL,
        word_finished_ns INTEGER NOT NULL,
        shown_ns        INTEGER,
        confirmed_ns    INTEGER,
        end_ns          INTEGER NOT NULL,
        outcome         TEXT NOT NULL,
        flicker         INTEGER NOT NULL,
        time_to_underline_ns INTEGER,
        time_to_confirmation_ns INTEGER,
        PRIMARY KEY (run_id, underline_id)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS requests (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        request_id      INTEGER NOT NULL,
        trigger         TEXT NOT NULL,
        sent_ns         INTEGER NOT NULL,
        text_version    INTEGER NOT NULL,
        characters      INTEGER NOT NULL,
        words           INTEGER NOT NULL,
        attempts        INTEGER NOT NULL,
        timeouts        INTEGER NOT NULL,
        offline_failures INTEGER NOT NULL,
        network_ns      INTEGER NOT NULL,
        service_ns      INTEGER NOT NULL,
        end_ns          INTEGER NOT NULL,
        round_trip_ns   INTEGER NOT NULL,
        outcome         TEXT NOT NULL,
        stale           INTEGER NOT NULL,
        lost_words      INTEGER NOT NULL,
        PRIMARY KEY (run_id, request_id)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS fixes (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        underline_id    INTEGER NOT NULL,
        word_ordinal    INTEGER NOT NULL,
        accepted_ns     INTEGER NOT NULL,
        applied         INTEGER NOT NULL,
        corrupted       INTEGER NOT NULL,
        strategy        TEXT NOT NULL,
        PRIMARY KEY (run_id, underline_id)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS dictations (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        dictation_id    INTEGER NOT NULL,
        session_id      INTEGER NOT NULL,
        tap_ns          INTEGER NOT NULL,
        cold_start      INTEGER NOT NULL,
        cold_start_cost_ns INTEGER,
        recording_start_ns INTEGER NOT NULL,
        capture_start_ns INTEGER NOT NULL,
        speech_start_ns INTEGER NOT NULL,
        speech_end_ns   INTEGER NOT NULL,
        clipped_ns      INTEGER NOT NULL,
        stop_tap_ns     INTEGER NOT NULL,
        clip_length_ns  INTEGER NOT NULL,
        speech_lost_to_cap_ns INTEGER NOT NULL,
        engine          TEXT NOT NULL,
        model_load_wait_ns INTEGER NOT NULL,
        engine_wait_ns  INTEGER NOT NULL,
        transcription_ns INTEGER NOT NULL,
        text_inserted_ns INTEGER NOT NULL,
        tap_to_recording_ns INTEGER NOT NULL,
        stop_to_text_ns INTEGER NOT NULL,
        PRIMARY KEY (run_id, dictation_id)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS dictation_sessions (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        session_id      INTEGER NOT NULL,
        start_ns        INTEGER NOT NULL,
        mic_first_on_ns INTEGER NOT NULL,
        end_ns          INTEGER NOT NULL,
        end_reason      TEXT NOT NULL,
        mic_on_ns       INTEGER NOT NULL,
        dictations      INTEGER NOT NULL,
        dictated_ns     INTEGER NOT NULL,
        engine          TEXT NOT NULL,
        model_load_ns   INTEGER NOT NULL,
        peak_memory_mb  REAL NOT NULL,
        suspensions     INTEGER NOT NULL,
        mic_on_per_dictated REAL,
        PRIMARY KEY (run_id, session_id)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS budgets (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        metric          TEXT NOT NULL,
        limit_ns        INTEGER NOT NULL,
        allowed_share   REAL NOT NULL,
        count           INTEGER NOT NULL,
        over            INTEGER NOT NULL,
        PRIMARY KEY (run_id, metric)
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
    CREATE TABLE IF NOT EXISTS memory_events (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        seq             INTEGER NOT NULL,
        time_ns         INTEGER NOT NULL,
        footprint_mb    REAL NOT NULL,
        component       TEXT NOT NULL,
        event           TEXT NOT NULL,
        language        TEXT,
        PRIMARY KEY (run_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS kills (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        kill_id         INTEGER NOT NULL,
        time_ns         INTEGER NOT NULL,
        restarted_ns    INTEGER NOT NULL,
        restart_ns      INTEGER NOT NULL,
        footprint_mb    REAL NOT NULL,
        limit_mb        REAL NOT NULL,
        tasks_lost      INTEGER NOT NULL,
        suggestions_lost INTEGER NOT NULL,
        checks_lost     INTEGER NOT NULL,
        chips_lost      INTEGER NOT NULL,
        requests_abandoned INTEGER NOT NULL,
        downloads_interrupted INTEGER NOT NULL,
        keys_held       INTEGER NOT NULL,
        PRIMARY KEY (run_id, kill_id)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS downloads (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        download_id     INTEGER NOT NULL,
        language        TEXT NOT NULL,
        start_ns        INTEGER NOT NULL,
        end_ns          INTEGER NOT NULL,
        size_bytes      INTEGER NOT NULL,
        bytes           INTEGER NOT NULL,
        outcome         TEXT NOT NULL,
        PRIMARY KEY (run_id, download_id)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS language_loads (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        seq             INTEGER NOT NULL,
        time_ns         INTEGER NOT NULL,
        language        TEXT NOT NULL,
        bytes_on_disk   INTEGER NOT NULL,
        size_bytes      INTEGER NOT NULL,
        verified        INTEGER NOT NULL,
        outcome         TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS token_rejections (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        seq             INTEGER NOT NULL,
        request_id      INTEGER NOT NULL,
        attempt_ns      INTEGER NOT NULL,
        rejected_ns     INTEGER NOT NULL,
        retry_ns        INTEGER,
        reason          TEXT NOT NULL,
        keyboard_generation INTEGER NOT NULL,
        server_generation INTEGER NOT NULL,
        added_ns        INTEGER NOT NULL,
        PRIMARY KEY (run_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS extension_per_run (
        run_id          INTEGER NOT NULL PRIMARY KEY REFERENCES runs(run_id),
        peak_footprint_mb REAL NOT NULL,
        kills           INTEGER NOT NULL,
        keys_held       INTEGER NOT NULL,
        downloads       INTEGER NOT NULL,
        downloads_interrupted INTEGER NOT NULL,
        verification_failures INTEGER NOT NULL,
        corrupt_loads   INTEGER NOT NULL,
        silently_wrong_suggestions INTEGER NOT NULL,
        silently_wrong_checks INTEGER NOT NULL,
        token_rejections INTEGER NOT NULL,
        revoked_requests INTEGER NOT NULL,
        token_added_ns  INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS runs_by_batch ON runs(batch_id, replication, trace_index);
    CREATE INDEX IF NOT EXISTS runs_by_policy ON runs(scenario_name, policy);

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
           MAX(n) AS count,
           AVG(latency_ns) / 1e6 AS mean_ms,
           MAX(CASE WHEN rank = (50 * n + 99) / 100 THEN latency_ns END) / 1e6 AS p50_ms,
           MAX(CASE WHEN rank = (95 * n + 99) / 100 THEN latency_ns END) / 1e6 AS p95_ms,
           MAX(CASE WHEN rank = (99 * n + 99) / 100 THEN latency_ns END) / 1e6 AS p99_ms,
           MAX(latency_ns) / 1e6 AS max_ms,
           MAX(limit_ns) / 1e6 AS budget_ms,
           CASE WHEN MAX(limit_ns) IS NULL THEN NULL ELSE AVG(latency_ns > limit_ns) END AS share_over_budget
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
           MAX(n) AS count,
           AVG(latency_ns) / 1e6 AS mean_ms,
           MAX(CASE WHEN rank = (50 * n + 99) / 100 THEN latency_ns END) / 1e6 AS p50_ms,
           MAX(CASE WHEN rank = (95 * n + 99) / 100 THEN latency_ns END) / 1e6 AS p95_ms,
           MAX(CASE WHEN rank = (99 * n + 99) / 100 THEN latency_ns END) / 1e6 AS p99_ms,
           MAX(latency_ns) / 1e6 AS max_ms,
           MAX(limit_ns) / 1e6 AS budget_ms,
           CASE WHEN MAX(limit_ns) IS NULL THEN NULL ELSE AVG(latency_ns > limit_ns) END AS share_over_budget
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

    CREATE TABLE IF NOT EXISTS words (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        word_ordinal    INTEGER NOT NULL,
        intended_length INTEGER NOT NULL,
        keystrokes      INTEGER NOT NULL,
        first_in_bar_prefix          INTEGER,
        first_in_bar_in_time_prefix  INTEGER,
        in_dictionary   INTEGER NOT NULL,
        keystrokes_saved          INTEGER NOT NULL,
        keystrokes_saved_in_time  INTEGER NOT NULL,
        PRIMARY KEY (run_id, word_ordinal)
    ) WITHOUT ROWID;
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
    CREATE TABLE IF NOT EXISTS touches (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        key_index       INTEGER NOT NULL,
        touch_ns        INTEGER NOT NULL,
        prediction_ns   INTEGER NOT NULL,
        decided_ns      INTEGER NOT NULL,
        ready           INTEGER NOT NULL,
        late_ns         INTEGER NOT NULL,
        probability     REAL NOT NULL,
        shift_pt        REAL NOT NULL,
        predicted_intended INTEGER NOT NULL,
        plain_typo      INTEGER NOT NULL,
        shifted_typo    INTEGER NOT NULL,
        PRIMARY KEY (run_id, key_index)
    ) WITHOUT ROWID;
    """
}
