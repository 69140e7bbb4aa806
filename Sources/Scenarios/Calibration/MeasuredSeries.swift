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
