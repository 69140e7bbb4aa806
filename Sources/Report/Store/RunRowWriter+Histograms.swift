import Scenarios
import Sim

extension LatencyHistogram {
    /// The histogram of `metric` for run `runID`, read from `latency_histograms` (through
    /// the view `latency_histogram`, which spreads each run's JSON buckets into rows).
    public static func load(_ database: Database, runID: Int64, metric: LatencyMetric) throws(SQLiteError) -> LatencyHistogram {
        let rows = try database.query("SELECT bucket, count FROM latency_histogram WHERE run_id = ? AND metric = ?",
                                      [.integer(runID), .text(metric.rawValue)])
        return LatencyHistogram(buckets: rows.map { (Int($0[0].integerValue), Int($0[1].integerValue)) })
    }
}
