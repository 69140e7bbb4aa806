/// Writes `run_metrics` — the catalog of metrics, and each run's values as computed in the
/// process from its records — and each run's `job_runs` row, through inserters made once a
/// batch.
struct RunMetricWriter {
    private var jobRuns: BulkInsert
    private var metricRows: BulkInsert
    /// The metrics' names, bound without copies.
    private static let names = StaticTexts(RunMetric.all.map(\.name))

    init(_ database: Database) {
        jobRuns = BulkInsert(database, ReportTables.jobRuns.table)
        metricRows = BulkInsert(database, ReportTables.runMetrics.table)
    }

    /// Writes (or refreshes) the `metrics` catalog.
    static func writeCatalog(_ database: Database) throws {
        let m = ReportTables.metrics
        var catalog = BulkInsert(database, m.table, replacing: true)
        try catalog.begin(rows: RunMetric.all.count)
        for metric in RunMetric.all {
            try catalog.set(m.metric, metric.name)
            try catalog.set(m.label, metric.label)
            try catalog.set(m.unit, metric.unit)
            try catalog.set(m.lowerIsBetter, metric.lowerIsBetter)
            try catalog.set(m.description, metric.description)
            try catalog.endRow()
        }
        try catalog.finish()
    }

    /// Writes run `runID`'s `job_runs` row (work item `position` of job `jobID`) and its
    /// metric values (`RunMetric.all` order; nil values are left out).
    mutating func write(runID: Int64, jobID: Int64, position: Int, values: [Double?]) throws {
        precondition(values.count == RunMetric.all.count, "one value per metric")
        let j = ReportTables.jobRuns
        try jobRuns.insertRow { row in
            try row.set(j.runID, runID)
            try row.set(j.jobID, jobID)
            try row.set(j.workItem, position)
        }
        let m = ReportTables.runMetrics
        try metricRows.begin(rows: values.count { $0 != nil })
        for (ordinal, value) in values.enumerated() {
            guard let value else { continue }
            try metricRows.set(m.runID, runID)
            try metricRows.set(m.metric, Self.names, ordinal)
            try metricRows.set(m.value, value)
            try metricRows.endRow()
        }
        try metricRows.finish()
    }
}
