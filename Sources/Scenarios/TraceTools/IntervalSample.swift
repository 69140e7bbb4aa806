/// Non-negative durations in nanoseconds whose percentiles are wanted, in bounded memory.
///
/// The first `exactCountMax` values are kept as they are, and percentiles over them are
/// exact (nearest rank, as in the report). Past that the values move into a log-linear
/// histogram of 128 buckets per power of two, so memory stays under 100 kB whatever the
/// count, and a percentile is the middle of its bucket: within 0.4 % of the exact value.
public struct IntervalSample: Sendable {
    /// Values kept exactly before switching to the histogram.
    public static let exactCountMax = 100_000

    /// The number of values added.
    public private(set) var count = 0
    /// The sum of the values added.
    public private(set) var sumNanos: Int64 = 0
    private var exact: [Int64] = []
    private var buckets: [Int] = []

    /// An empty sample.
    public init() {}

    /// Adds a value.
    /// - Precondition: `nanoseconds >= 0`.
    public mutating func add(_ nanoseconds: Int64) {
        precondition(nanoseconds >= 0, "an interval cannot be negative")
        count += 1
        sumNanos &+= nanoseconds
        if buckets.isEmpty {
            exact.append(nanoseconds)
            if exact.count > Self.exactCountMax {
                buckets = [Int](repeating: 0, count: Self.bucketCount)
                for value in exact { buckets[Self.bucket(of: value)] += 1 }
                exact = []
            }
        } else {
            buckets[Self.bucket(of: nanoseconds)] += 1
        }
    }

    /// The p-th percentile (0…100), nearest rank; `nil` when empty.
    public func percentile(_ p: Double) -> Int64? {
        precondition((0...100).contains(p), "a percentile is between 0 and 100")
        guard count > 0 else { return nil }
        let rank = max(1, min(count, Int((p * Double(count) / 100).rounded(.up))))
        if buckets.isEmpty {
            return exact.sorted()[rank - 1]
        }
        var seen = 0
        for (index, n) in buckets.enumerated() {
            seen += n
            if seen >= rank { return Self.middle(of: index) }
        }
        preconditionFailure("bucket counts do not add up")
    }

    /// Several percentiles at once (one sort).
    public func percentiles(_ ps: [Double]) -> [Int64?] {
        guard count > 0, buckets.isEmpty else { return ps.map(percentile) }
        let sorted = exact.sorted()
        return ps.map { p in
            let rank = max(1, min(count, Int((p * Double(count) / 100).rounded(.up))))
            return sorted[rank - 1]
        }
    }

    // Values below 256 ns have a bucket each; above, a power of two [2^e, 2^(e+1)) is split
    // into 128 buckets of width 2^(e-7).
    private static let subBuckets = 128
    private static let bucketCount = 256 + (63 - 8) * subBuckets

    static func bucket(of value: Int64) -> Int {
        if value < 256 { return Int(value) }
        let exponent = 63 - value.leadingZeroBitCount
        let sub = Int((value >> (exponent - 7)) & 127)
        return 256 + (exponent - 8) * subBuckets + sub
    }

    static func middle(of bucket: Int) -> Int64 {
        if bucket < 256 { return Int64(bucket) }
        let exponent = (bucket - 256) / subBuckets + 8
        let sub = Int64((bucket - 256) % subBuckets)
        let width = Int64(1) << (exponent - 7)
        return (128 + sub) * width + width / 2
    }
}
