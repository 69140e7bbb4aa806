/// The tables of batches and runs and the per-run figures every detail level keeps.
extension ReportTables {
    static let batches = Batches()
    static let runs = Runs()
    static let threads = Threads()
    static let budgets = Budgets()
    static let budgetViolations = BudgetViolations()
    static let latencyHistograms = LatencyHistograms()

    /// `batches`: one row per batch of runs.
    struct Batches: ReportTableDeclaration {
        let table: ReportTable
        let batchID: TableColumn<RowID>
        let command, scenarioName, scenarioPath, scenarioHash, tracesHash, keysimVersion, createdAt: TableColumn<String>
        let policy: TableColumn<String?>
        let seed, replications: TableColumn<Int64>
        let wallSeconds: TableColumn<Double>

        init() {
            var t = ReportTableBuilder(Self.self, "batches", rowPer: "batch: a `keysim run`, a side of a comparison, a sweep point")
            batchID = t.column("batch_id")
            command = t.column("command", "`run`, `compare`, `sweep`, `gate`")
            scenarioName = t.column("scenario_name")
            scenarioPath = t.column("scenario_path")
            scenarioHash = t.column("scenario_hash", "SHA-256 of the resolved scenario (after policy and `--set`, in a canonical form)")
            tracesHash = t.column("traces_hash", "SHA-256 over the trace files' bytes")
            policy = t.column("policy", "the policy applied; NULL for none")
            seed = t.column("seed")
            replications = t.column("replications")
            keysimVersion = t.column("keysim_version")
            createdAt = t.column("created_at", "when the batch was written (ISO 8601)")
            wallSeconds = t.column("wall_seconds", "wall-clock time of the batch")
            table = t.table(primaryKey: [batchID])
        }
    }

    /// `runs`: one row per replication of one trace.
    struct Runs: ReportTableDeclaration {
        let table: ReportTable
        let runID: TableColumn<RowID>
        let batchID, seed, replication, traceIndex, simEndNs, events, edits, requests, words, characters: TableColumn<Int64>
        let checksOfVanishedWords, acceptancesWithoutChip, acceptancesWithoutFix, errorWordsFinished: TableColumn<Int64>
        let scenarioName, tracePath, scenarioHash, tracesHash, keysimVersion: TableColumn<String>
        let policy: TableColumn<String?>
        let wallSeconds: TableColumn<Double>

        init() {
            var t = ReportTableBuilder(Self.self, "runs", rowPer: "replication of one trace")
            runID = t.column("run_id")
            batchID = t.column("batch_id", references: "batches(batch_id)")
            scenarioName = t.column("scenario_name")
            policy = t.column("policy")
            seed = t.column("seed")
            replication = t.column("replication", "from 0")
            traceIndex = t.column("trace_index", "the trace's place in the scenario, from 0")
            tracePath = t.column("trace_path")
            scenarioHash = t.column("scenario_hash")
            tracesHash = t.column("traces_hash")
            keysimVersion = t.column("keysim_version")
            simEndNs = t.column("sim_end_ns", "simulated time at the end of the run")
            events = t.column("events", "events the engine processed")
            edits = t.column("edits", "edits replayed: keys, backspaces, pastes, picked suggestions")
            requests = t.column("requests", "requests sent to the cloud checker")
            words = t.column("words", "words of the final text")
            characters = t.column("characters", "characters of the final text")
            checksOfVanishedWords = t.column("checks_of_vanished_words", "local checks that finished after their word was gone")
            acceptancesWithoutChip = t.column("acceptances_without_chip", "`chip.accept` events of the trace with no open chip")
            acceptancesWithoutFix = t.column("acceptances_without_fix", "accepted chips with no fix to apply (no intended text known)")
            errorWordsFinished = t.column("error_words_finished", "finished words that were errors: recall's denominator")
            wallSeconds = t.column("wall_seconds", "wall-clock time of the run")
            table = t.table(primaryKey: [runID], indexes: [
                ("runs_by_batch", [batchID, replication, traceIndex], false,
                 "runs of a batch, in order: the per-batch views, comparisons, sweeps"),
                ("runs_by_policy", [scenarioName, policy], false, "the per-policy views"),
            ])
        }
    }

    /// `threads`: one row per thread of a run.
    struct Threads: ReportTableDeclaration {
        let table: ReportTable
        let runID, busyNs: TableColumn<Int64>
        let thread: TableColumn<String>

        init() {
            var t = ReportTableBuilder(Self.self, "threads", rowPer: "(run, thread)")
            runID = t.runID()
            thread = t.column("thread", "the executor thread's name")
            busyNs = t.column("busy_ns", "time the thread spent running tasks")
            table = t.table(primaryKey: [runID, thread], withoutRowID: true)
        }
    }

    /// `budgets`: one row per latency budget of a run, with its counts.
    struct Budgets: ReportTableDeclaration {
        let table: ReportTable
        let runID, limitNs, count, over: TableColumn<Int64>
        let metric: TableColumn<String>
        let allowedShare: TableColumn<Double>

        init() {
            var t = ReportTableBuilder(Self.self, "budgets", rowPer: "(run, budgeted latency metric)")
            runID = t.runID()
            metric = t.column("metric", "the latency metric (`key`, `suggestion`, …)")
            limitNs = t.column("limit_ns", "the budget")
            allowedShare = t.column("allowed_share", "the share of items allowed over it", unit: "share")
            count = t.column("count", "items measured")
            over = t.column("over", "items over the budget")
            table = t.table(primaryKey: [runID, metric], withoutRowID: true)
        }
    }

    /// `budget_violations`: one row per item over its budget.
    struct BudgetViolations: ReportTableDeclaration {
        let table: ReportTable
        let runID, itemIndex, latencyNs, budgetNs: TableColumn<Int64>
        let budget, cause: TableColumn<String>

        init() {
            var t = ReportTableBuilder(Self.self, "budget_violations", rowPer: "item over its budget")
            runID = t.runID()
            budget = t.column("budget", "the budget's latency metric, or the table the item is in")
            itemIndex = t.column("item_index", "the item's key index or id")
            latencyNs = t.column("latency_ns")
            budgetNs = t.column("budget_ns")
            cause = t.column("cause", "what held the item up (a held key's starts with `extension restarting`)")
            table = t.table(primaryKey: [runID, budget, itemIndex], withoutRowID: true, retention: .items)
        }
    }

    /// `latency_histograms`: each run's latency histograms.
    struct LatencyHistograms: ReportTableDeclaration {
        let table: ReportTable
        let runID, metricCode: TableColumn<Int64>
        let buckets: TableColumn<String>

        init() {
            var t = ReportTableBuilder(Self.self, "latency_histograms", rowPer: "(run, latency metric)")
            runID = t.runID()
            metricCode = t.column("metric_code", "the metric's code in `latency_metrics`")
            buckets = t.column("buckets", "the run's non-empty buckets as JSON, `[[bucket, count], …]` in ascending order")
            table = t.table(primaryKey: [runID, metricCode], withoutRowID: true, role: .derived, readThrough: ["latency_histogram"],
                            note: "Read through the view `latency_histogram`, a row per bucket.")
        }
    }
}
