/// Jobs (which work items a process ran, for which shard) and the per-run metrics.
extension ReportTables {
    static let jobs = Jobs()
    static let jobBatches = JobBatches()
    static let jobRuns = JobRuns()
    static let metrics = Metrics()
    static let runMetrics = RunMetrics()

    /// `jobs`: one row per command, or shard of one, that wrote batches.
    struct Jobs: ReportTableDeclaration {
        let table: ReportTable
        let jobID: TableColumn<RowID>
        let jobKey, command, scenarioName, scenarioPath, tracesHash, spec, keysimVersion: TableColumn<String>
        let seed, replications, batches, workItems, shardIndex, shardCount: TableColumn<Int64>
        let complete: TableColumn<Bool>

        init() {
            var t = ReportTableBuilder(Self.self, "jobs", rowPer: "command (or shard of one) that wrote batches")
            jobID = t.column("job_id")
            jobKey = t.column("job_key", "SHA-256 of `spec`; shards of one job share it")
            command = t.column("command")
            scenarioName = t.column("scenario_name")
            scenarioPath = t.column("scenario_path")
            tracesHash = t.column("traces_hash")
            seed = t.column("seed")
            replications = t.column("replications")
            batches = t.column("batches")
            workItems = t.column("work_items", "the whole job's work items, every shard's")
            shardIndex = t.column("shard_index", "from 1; 1 for a whole or merged job")
            shardCount = t.column("shard_count")
            spec = t.column("spec", "canonical JSON of everything that determines the rows")
            keysimVersion = t.column("keysim_version")
            complete = t.column("complete", "0 while the job runs, and after it was interrupted")
            table = t.table(primaryKey: [jobID], indexes: [("jobs_by_key", [jobKey], false, "merge")])
        }
    }

    /// `job_batches`: one row per batch of a job.
    struct JobBatches: ReportTableDeclaration {
        let table: ReportTable
        let batchID, jobID, batchIndex: TableColumn<Int64>
        let label, settings: TableColumn<String>

        init() {
            var t = ReportTableBuilder(Self.self, "job_batches", rowPer: "batch of a job")
            batchID = t.column("batch_id", references: "batches(batch_id)")
            jobID = t.column("job_id", references: "jobs(job_id)")
            batchIndex = t.column("batch_index")
            label = t.column("label", "policy, file or `path=value`")
            settings = t.column("settings", "a sweep point's values, JSON")
            table = t.table(primaryKey: [batchID], indexes: [("job_batches_by_job", [jobID, batchIndex], false, "a job's batches in order")])
        }
    }

    /// `job_runs`: one row per run of a job.
    struct JobRuns: ReportTableDeclaration {
        let table: ReportTable
        let runID, jobID, workItem: TableColumn<Int64>

        init() {
            var t = ReportTableBuilder(Self.self, "job_runs", rowPer: "run of a job")
            runID = t.column("run_id", references: "runs(run_id)")
            jobID = t.column("job_id", references: "jobs(job_id)")
            workItem = t.column("work_item", "its index in the job's work list")
            table = t.table(primaryKey: [runID], indexes: [
                ("job_runs_by_item", [jobID, workItem], true, "a job's runs in order; unique, so a work item is never written twice"),
            ])
        }
    }

    /// `metrics`: the catalogue of run metrics (`RunMetric.all`).
    struct Metrics: ReportTableDeclaration {
        let table: ReportTable
        let metric, label, unit, description: TableColumn<String>
        let lowerIsBetter: TableColumn<Bool>

        init() {
            var t = ReportTableBuilder(Self.self, "metrics", rowPer: "metric computed for every run")
            metric = t.column("metric")
            label = t.column("label")
            unit = t.column("unit")
            lowerIsBetter = t.column("lower_is_better")
            description = t.column("description")
            table = t.table(primaryKey: [metric], withoutRowID: true)
        }
    }

    /// `run_metrics`: each run's value of each metric it has one for.
    struct RunMetrics: ReportTableDeclaration {
        let table: ReportTable
        let runID: TableColumn<Int64>
        let metric: TableColumn<String>
        let value: TableColumn<Double>

        init() {
            var t = ReportTableBuilder(Self.self, "run_metrics", rowPer: "(run, metric)")
            runID = t.runID()
            metric = t.column("metric")
            value = t.column("value", "in the metric's unit (`metrics.unit`)")
            table = t.table(primaryKey: [runID, metric], withoutRowID: true)
        }
    }
}
