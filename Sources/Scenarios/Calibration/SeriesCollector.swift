/// Gathers durations by name while a reader runs, then hands them out sorted by name (a
/// dictionary's order must not reach the output).
struct SeriesCollector {
    private var byName: [String: MeasuredSeries] = [:]

    mutating func add(_ name: String, ms: Double) {
        byName[name, default: MeasuredSeries(name: name)].samplesMs.append(ms)
    }

    mutating func add(_ name: String, bucket: CostBucket) {
        byName[name, default: MeasuredSeries(name: name)].buckets.append(bucket)
    }

    /// The series sorted by name, each with one source entry naming `file` and `format`.
    func series(file: String, format: CostFormat) -> [MeasuredSeries] {
        byName.keys.sorted().map { name in
            var series = byName[name]!
            series.sources = ["\(file) (\(format.rawValue), \"\(name)\", \(series.count))"]
            return series
        }
    }
}
