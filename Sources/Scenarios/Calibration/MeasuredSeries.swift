/// One histogram bucket of measured durations: `count` values between `lowerMs` and
/// `upperMs` (a MetricKit `histogramValue` entry). A bucket with equal ends holds `count`
/// copies of one value.
public struct CostBucket: Sendable, Equatable {
    /// The bucket's lower end, in milliseconds.
    public var lowerMs: Double
    /// The bucket's upper end, in milliseconds (≥ `lowerMs`).
    public var upperMs: Double
    /// How many durations fell in the bucket.
    public var count: Int

    /// Creates a bucket.
    public init(lowerMs: Double, upperMs: Double, count: Int) {
        self.lowerMs = lowerMs
        self.upperMs = upperMs
        self.count = count
    }
}

/// The durations measured under one name: individual values, histogram buckets, or both
/// (when several inputs are merged), with where they came from.
public struct MeasuredSeries: Sendable, Equatable {
    /// The name in the input (a signpost name, a CSV `kind`, a trace measurement's kind).
    public var name: String
    /// Individual durations, in milliseconds, in input order.
    public var samplesMs: [Double] = []
    /// Histogram buckets, in input order.
    public var buckets: [CostBucket] = []
    /// Where the durations came from: "file (format, name, count)" entries, in input order.
    public var sources: [String] = []

    /// Creates an empty series.
    public init(name: String) { self.name = name }

    /// Individual durations plus the counts of every bucket.
    public var count: Int { samplesMs.count + buckets.reduce(0) { $0 + $1.count } }

    /// Whether some durations are known only to a bucket (interval-censored).
    public var isCensored: Bool { buckets.contains { $0.upperMs > $0.lowerMs && $0.count > 0 } }

    /// Appends `other`'s durations and sources.
    public mutating func merge(_ other: MeasuredSeries) {
        samplesMs.append(contentsOf: other.samplesMs)
        buckets.append(contentsOf: other.buckets)
        sources.append(contentsOf: other.sources)
    }
}

/// The input formats `keysim calibrate` reads.
public enum CostFormat: String, Sendable, Equatable, CaseIterable {
    /// `xctrace export` XML of the os-signpost-interval table.
    case instruments
    /// `log show --style ndjson` signpost begin and end events.
    case unifiedLog = "unified-log"
    /// A MetricKit payload's `signpostMetrics` histograms.
    case metricKit = "metrickit"
    /// CSV with the header `kind,duration_ms`.
    case csv
    /// A keysim trace's `measure` lines.
    case trace
}

/// What one input file held: a series per name, sorted by name, and remarks about what
/// was skipped (intervals that never ended, events without a pair).
public struct CostReading: Sendable, Equatable {
    /// The file, as the user named it.
    public var file: String
    /// Its format.
    public var format: CostFormat
    /// One series per name, sorted by name.
    public var series: [MeasuredSeries]
    /// Sentences about durations left out, for the command's output.
    public var remarks: [String] = []

    /// Creates a reading.
    public init(file: String, format: CostFormat, series: [MeasuredSeries], remarks: [String] = []) {
        self.file = file
        self.format = format
        self.series = series
        self.remarks = remarks
    }
}

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
