import Scenarios
import Sim

extension RunRowWriter {
    /// The columns of `latency_histograms`, in insert order.
    static let histogramColumns = ["run_id", "metric_code", "bucket", "count"]

    /// Writes one run's latency histograms (`LatencyMetric.allCases` order), a row per
    /// non-empty bucket: at every detail level, so percentiles never need the item rows.
    mutating func writeHistograms(_ histograms: [LatencyHistogram], runID: Int64) throws {
        for (code, histogram) in histograms.enumerated() {
            for bucket in histogram.buckets {
                try histogramRows.add(runID)
                try histogramRows.add(code)
                try histogramRows.add(bucket.index)
                try histogramRows.add(bucket.count)
                try histogramRows.endRow()
            }
        }
        try histogramRows.finish()
    }

    /// A run's histograms, from its latencies sorted per metric.
    static func histograms(sortedLatencies: [[Int64]]) -> [LatencyHistogram] {
        sortedLatencies.map(LatencyHistogram.init(sorted:))
    }
}

extension LatencyHistogram {
    /// The histogram of `metric` for run `runID`, read from `latency_histograms`.
    public static func load(_ database: Database, runID: Int64, metric: LatencyMetric) throws(SQLiteError) -> LatencyHistogram {
        guard let code = LatencyMetric.allCases.firstIndex(of: metric) else { return LatencyHistogram() }
        let rows = try database.query("SELECT bucket, count FROM latency_histograms WHERE run_id = ? AND metric_code = ?",
                                      [.integer(runID), .integer(Int64(code))])
        return LatencyHistogram(buckets: rows.map { (Int($0[0].integerValue), Int($0[1].integerValue)) })
    }
}
