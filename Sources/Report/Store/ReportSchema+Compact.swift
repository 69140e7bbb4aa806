import Sim

/// The compact storage of the tables with a row per key, suggestion or task — the bulk of
/// every report — behind views that give back the columns and text values of the schema-4
/// tables they replace. A key and the suggestion computed for it share one row of
/// `key_rows` (its key and its touch stored once), the key's columns `NULL` when only the
/// suggestion was recorded and the suggestion's when only the key was.
///
/// A stored row holds no column that others determine and no repeated text: times are kept
/// as the first instant and the durations after it (a latency is a view's sum, not a
/// column), texts as small integer codes with lookup tables, and ids as offsets from the
/// ordinal they almost always equal (SQLite stores the integers 0 and 1 in no bytes at
/// all). Users, exporters and the digests read the views `keys`, `suggestions` and `tasks`
/// exactly as before; only keysim writes the `*_rows` tables.
extension ReportSchema {
    /// Each compact table and the view that reads it as the table it replaces.
    public static let compatibilityViews: [(table: String, view: String)] = [
        ("key_rows", "keys"), ("key_rows", "suggestions"), ("task_rows", "tasks"),
    ]

    /// Tables that only name codes, or hold figures derived from other rows (each run's
    /// latency histograms are a function of its latencies at the full detail level); they
    /// say nothing the digested tables and views do not, so `ReportRowDigest` leaves them out.
    public static let lookupTables: Set<String> = ["edit_kinds", "suggestion_outcomes", "work_kinds", "task_executors",
                                                   "latency_metrics", "latency_histograms"]

    /// The codes of the lookup tables: an edit kind, a suggestion outcome or a kind of work
    /// is stored as its index here (work kinds from 1, their `KeyboardWork.code`).
    static let lookupRows: [(table: String, names: [(Int, String)])] = [
        ("edit_kinds", EditKind.allCases.enumerated().map { ($0.offset, $0.element.rawValue) }),
        ("suggestion_outcomes", SuggestionOutcome.allCases.enumerated().map { ($0.offset, $0.element.rawValue) }),
        ("work_kinds", KeyboardWork.allCases.map { (Int($0.code), $0.rawValue) }),
        ("latency_metrics", LatencyMetric.allCases.enumerated().map { ($0.offset, $0.element.rawValue) }),
    ]

    /// The compact tables, their lookup tables (filled once per file) and views.
    static let compactSQL = """
    CREATE TABLE IF NOT EXISTS edit_kinds (code INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS suggestion_outcomes (code INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS work_kinds (code INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS latency_metrics (code INTEGER PRIMARY KEY, name TEXT NOT NULL);
    \(lookupRows.map { table, names in
        "INSERT OR IGNORE INTO \(table) (code, name) VALUES " + names.map { "(\($0.0), '\($0.1)')" }.joined(separator: ", ") + ";"
    }.joined(separator: "\n"))
    CREATE TABLE IF NOT EXISTS key_rows (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        key_index       INTEGER NOT NULL,
        touch_ns        INTEGER NOT NULL,
        edit_code       INTEGER,
        wait_ns         INTEGER,
        handler_ns      INTEGER,
        queued_ahead    INTEGER,
        version_after_key INTEGER,
        suggestion_ns   INTEGER,
        outcome_code    INTEGER,
        too_late        INTEGER,
        waited_ns       INTEGER,
        ran_ns          INTEGER,
        PRIMARY KEY (run_id, key_index)
    ) WITHOUT ROWID;
    CREATE VIEW IF NOT EXISTS keys AS
        SELECT k.run_id, k.key_index, e.name AS edit, k.touch_ns, k.touch_ns + k.wait_ns AS start_ns,
               k.touch_ns + k.wait_ns + k.handler_ns AS inserted_ns, k.wait_ns + k.handler_ns AS latency_ns, k.queued_ahead
        FROM key_rows k JOIN edit_kinds e ON e.code = k.edit_code;
    CREATE VIEW IF NOT EXISTS suggestions AS
        SELECT s.run_id, s.key_index, s.key_index + s.version_after_key AS text_version, s.touch_ns,
               s.touch_ns + s.suggestion_ns AS end_ns, s.suggestion_ns AS latency_ns, o.name AS outcome, s.too_late,
               s.waited_ns, s.ran_ns
        FROM key_rows s JOIN suggestion_outcomes o ON o.code = s.outcome_code;
    CREATE TABLE IF NOT EXISTS task_executors (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        code            INTEGER NOT NULL,
        name            TEXT NOT NULL,
        PRIMARY KEY (run_id, code)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS task_rows (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        seq             INTEGER NOT NULL,
        executor_code   INTEGER NOT NULL,
        id_after_seq    INTEGER NOT NULL,
        kind_code       INTEGER NOT NULL,
        tag             INTEGER NOT NULL,
        release_ns      INTEGER NOT NULL,
        wait_ns         INTEGER NOT NULL,
        run_ns          INTEGER NOT NULL,
        deadline_after_release_ns INTEGER,
        core            INTEGER NOT NULL,
        preemptions     INTEGER NOT NULL,
        cancelled       INTEGER NOT NULL,
        PRIMARY KEY (run_id, seq)
    ) WITHOUT ROWID;
    CREATE VIEW IF NOT EXISTS tasks AS
        SELECT t.run_id, t.seq, x.name AS executor, t.seq + t.id_after_seq AS task_id,
               COALESCE(w.name, 'kind-' || t.kind_code) AS kind, t.tag, t.release_ns, t.release_ns + t.wait_ns AS start_ns,
               t.release_ns + t.wait_ns + t.run_ns AS finish_ns, t.release_ns + t.deadline_after_release_ns AS deadline_ns,
               t.core, t.preemptions, t.cancelled
        FROM task_rows t JOIN task_executors x ON x.run_id = t.run_id AND x.code = t.executor_code
        LEFT JOIN work_kinds w ON w.code = t.kind_code;
    CREATE TABLE IF NOT EXISTS latency_histograms (
        run_id          INTEGER NOT NULL REFERENCES runs(run_id),
        metric_code     INTEGER NOT NULL,
        buckets         TEXT NOT NULL,
        PRIMARY KEY (run_id, metric_code)
    ) WITHOUT ROWID;
    CREATE VIEW IF NOT EXISTS latency_histogram AS
        SELECT run_id, metric, bucket,
               CASE WHEN bucket < 128 THEN bucket ELSE (64 + ((bucket - 128) & 63)) << (((bucket - 128) >> 6) + 1) END AS lower_ns,
               CASE WHEN bucket < 128 THEN bucket + 1 ELSE (65 + ((bucket - 128) & 63)) << (((bucket - 128) >> 6) + 1) END AS upper_ns,
               count
        FROM (SELECT h.run_id, m.name AS metric, json_extract(b.value, '$[0]') AS bucket, json_extract(b.value, '$[1]') AS count
              FROM latency_histograms h JOIN latency_metrics m ON m.code = h.metric_code JOIN json_each(h.buckets) b);

    """
}
