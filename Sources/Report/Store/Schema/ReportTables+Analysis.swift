/// Comparisons (`keysim compare`, `keysim gate`) and sweeps (`keysim sweep`), written with
/// the last batch of their job.
extension ReportTables {
    static let comparisons = Comparisons()
    static let comparisonMetrics = ComparisonMetrics()
    static let sweeps = Sweeps()
    static let sweepPoints = SweepPoints()

    /// `comparisons`: one row per comparison of two batches.
    struct Comparisons: ReportTableDeclaration {
        let table: ReportTable
        let comparisonID: TableColumn<RowID>
        let jobID, batchA, batchB, pairs: TableColumn<Int64>
        let scenarioName, labelA, labelB: TableColumn<String>
        let confidence: TableColumn<Double>

        init() {
            var t = ReportTableBuilder(Self.self, "comparisons",
                                       rowPer: "`keysim compare` and `keysim gate` (a job whose `command` is `gate`; the verdict itself is not stored)")
            comparisonID = t.column("comparison_id")
            jobID = t.column("job_id", references: "jobs(job_id)")
            scenarioName = t.column("scenario_name")
            labelA = t.column("label_a")
            labelB = t.column("label_b")
            batchA = t.column("batch_a", references: "batches(batch_id)")
            batchB = t.column("batch_b", references: "batches(batch_id)")
            pairs = t.column("pairs", "pairs of runs: replication × trace")
            confidence = t.column("confidence", "the level of the intervals")
            table = t.table(primaryKey: [comparisonID])
        }
    }

    /// `comparison_metrics`: one row per metric of a comparison.
    struct ComparisonMetrics: ReportTableDeclaration {
        let table: ReportTable
        let comparisonID, position, pairs: TableColumn<Int64>
        let metric: TableColumn<String>
        let meanA, meanB, difference, ciLow, ciHigh: TableColumn<Double?>
        let significant: TableColumn<Bool>

        init() {
            var t = ReportTableBuilder(Self.self, "comparison_metrics", rowPer: "(comparison, metric)")
            comparisonID = t.column("comparison_id", references: "comparisons(comparison_id)")
            position = t.column("position", "the metric's place in `RunMetric.all`")
            metric = t.column("metric")
            pairs = t.column("pairs", "pairs where both runs have a value")
            meanA = t.column("mean_a")
            meanB = t.column("mean_b")
            difference = t.column("difference", "mean of B − A over pairs")
            ciLow = t.column("ci_low")
            ciHigh = t.column("ci_high")
            significant = t.column("significant", "1 when the interval excludes zero (with at least two pairs)")
            table = t.table(primaryKey: [comparisonID, position], withoutRowID: true)
        }
    }

    /// `sweeps`: one row per `keysim sweep`.
    struct Sweeps: ReportTableDeclaration {
        let table: ReportTable
        let sweepID: TableColumn<RowID>
        let jobID, points: TableColumn<Int64>
        let scenarioName, parameters, costMetric, delayMetric: TableColumn<String>

        init() {
            var t = ReportTableBuilder(Self.self, "sweeps", rowPer: "`keysim sweep`")
            sweepID = t.column("sweep_id")
            jobID = t.column("job_id", references: "jobs(job_id)")
            scenarioName = t.column("scenario_name")
            parameters = t.column("parameters", "the swept field paths, JSON")
            points = t.column("points")
            costMetric = t.column("cost_metric")
            delayMetric = t.column("delay_metric")
            table = t.table(primaryKey: [sweepID])
        }
    }

    /// `sweep_points`: one row per grid point of a sweep.
    struct SweepPoints: ReportTableDeclaration {
        let table: ReportTable
        let sweepID, pointIndex, batchID, runs: TableColumn<Int64>
        let settings: TableColumn<String>
        let cost, costHalfWidth, delay, delayHalfWidth: TableColumn<Double?>
        let onFront: TableColumn<Bool>

        init() {
            var t = ReportTableBuilder(Self.self, "sweep_points", rowPer: "grid point")
            sweepID = t.column("sweep_id", references: "sweeps(sweep_id)")
            pointIndex = t.column("point_index")
            batchID = t.column("batch_id", references: "batches(batch_id)")
            settings = t.column("settings", "the point's values, JSON")
            runs = t.column("runs")
            cost = t.column("cost", "mean of the cost metric over the point's runs")
            costHalfWidth = t.column("cost_half_width", "its 95 % half-width")
            delay = t.column("delay", "mean of the delay metric")
            delayHalfWidth = t.column("delay_half_width")
            onFront = t.column("on_front", "1 when on the Pareto front")
            table = t.table(primaryKey: [sweepID, pointIndex], withoutRowID: true)
        }
    }
}
