/// A latency histogram with log-linear buckets: exact below 128 ns, then 64 buckets per
/// power of two, so a bucket is at most 1/64 of its lower bound wide and its midpoint is
/// within 0.8 % of any value in it. Percentiles read from it are therefore within 1 % of
/// the exact nearest-rank ones, from a few hundred rows per run instead of a row per item:
/// the `latency_histograms` table keeps one per run and metric at every detail level.
public struct LatencyHistogram: Sendable, Equatable {
    /// log₂ of the buckets per power of two.
    static let subBucketBits = 6
    /// Non-empty buckets in ascending order, with their counts.
    public private(set) var buckets: [(index: Int, count: Int)] = []
    /// The number of values.
    public private(set) var count = 0

    /// An empty histogram.
    public init() {}

    /// The histogram of `sorted` (ascending nanoseconds; negative values count as 0).
    public init(sorted: [Int64]) {
        for value in sorted {
            let index = Self.bucket(of: value)
            if let last = buckets.last, last.index == index {
                buckets[buckets.count - 1].count += 1
            } else {
                precondition(buckets.last.map { $0.index < index } ?? true, "values are added sorted")
                buckets.append((index, 1))
            }
        }
        count = sorted.count
    }

    /// A histogram from stored buckets (any order; a bucket may repeat).
    public init(buckets stored: [(index: Int, count: Int)]) {
        var merged: [Int: Int] = [:]
        for (index, count) in stored { merged[index, default: 0] += count }
        buckets = merged.keys.sorted().map { ($0, merged[$0]!) }
        count = buckets.reduce(0) { $0 + $1.count }
    }

    public static func == (lhs: LatencyHistogram, rhs: LatencyHistogram) -> Bool {
        lhs.count == rhs.count && lhs.buckets.elementsEqual(rhs.buckets) { $0.index == $1.index && $0.count == $1.count }
    }

    /// The bucket of a value in nanoseconds.
    public static func bucket(of value: Int64) -> Int {
        let v = UInt64(max(value, 0))
        let linear = UInt64(1) << (subBucketBits + 1)
        guard v >= linear else { return Int(v) }
        let exponent = 63 - v.leadingZeroBitCount
        let shift = exponent - subBucketBits
        return Int(linear) + (shift - 1) * (1 << subBucketBits) + Int((v >> shift) & ((1 << subBucketBits) - 1))
    }

    /// The values a bucket holds: `lower..<upper` nanoseconds.
    public static func range(of bucket: Int) -> (lower: Int64, upper: Int64) {
        let linear = 1 << (subBucketBits + 1)
        guard bucket >= linear else { return (Int64(bucket), Int64(bucket) + 1) }
        let shift = (bucket - linear) >> subBucketBits + 1
        let mantissa = Int64((1 << subBucketBits) + (bucket - linear) & ((1 << subBucketBits) - 1))
        return (mantissa << shift, (mantissa + 1) << shift)
    }

    /// Adds one value (nanoseconds; a negative one counts as 0).
    /// - Complexity: O(log b) to find its bucket among the b non-empty ones, O(b) when the
    ///   bucket is new.
    public mutating func add(_ value: Int64) {
        let index = Self.bucket(of: value)
        var low = 0
        var high = buckets.count
        while low < high {
            let mid = (low + high) / 2
            if buckets[mid].index < index { low = mid + 1 } else { high = mid }
        }
        if low < buckets.count && buckets[low].index == index {
            buckets[low].count += 1
        } else {
            buckets.insert((index, 1), at: low)
        }
        count += 1
    }

    /// Adds every value of `other`: the histogram of both histograms' values, exactly.
    public mutating func merge(_ other: LatencyHistogram) {
        guard other.count > 0 else { return }
        var merged: [(index: Int, count: Int)] = []
        merged.reserveCapacity(buckets.count + other.buckets.count)
        var i = 0
        var j = 0
        while i < buckets.count || j < other.buckets.count {
            if j == other.buckets.count || (i < buckets.count && buckets[i].index < other.buckets[j].index) {
                merged.append(buckets[i]); i += 1
            } else if i == buckets.count || other.buckets[j].index < buckets[i].index {
                merged.append(other.buckets[j]); j += 1
            } else {
                merged.append((buckets[i].index, buckets[i].count + other.buckets[j].count)); i += 1; j += 1
            }
        }
        buckets = merged
        count += other.count
    }

    /// The nearest-rank p-th percentile (0…100), as the midpoint of its bucket, in
    /// nanoseconds; 0 for an empty histogram.
    public func percentile(_ p: Double) -> Double {
        precondition((0...100).contains(p), "a percentile is between 0 and 100")
        guard count > 0 else { return 0 }
        let rank = min(max(1, Int((p * Double(count) / 100).rounded(.up))), count)
        var seen = 0
        for bucket in buckets {
            seen += bucket.count
            if seen >= rank {
                let (lower, upper) = Self.range(of: bucket.index)
                return upper - lower == 1 ? Double(lower) : (Double(lower) + Double(upper - 1)) / 2
            }
        }
        preconditionFailure("rank \(rank) past \(count) values")
    }
}
