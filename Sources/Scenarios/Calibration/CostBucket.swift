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
