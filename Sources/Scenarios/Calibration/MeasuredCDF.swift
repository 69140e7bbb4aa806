import Sim

/// The measured distribution of one series as a CDF that is linear inside each bucket and
/// steps at each individual duration, with its inverse: the "measured" curve of the
/// calibration page and the source of the quantile table.
public struct MeasuredCDF: Sendable {
    /// Individual durations, sorted, in milliseconds.
    public let sortedSamplesMs: [Double]
    /// Buckets with a count, sorted by lower end.
    public let buckets: [CostBucket]
    /// Durations in all.
    public let total: Double

    /// Builds the CDF of `series`. Zero-width buckets count as individual durations.
    public init(_ series: MeasuredSeries) {
        var samples = series.samplesMs
        var buckets: [CostBucket] = []
        for bucket in series.buckets where bucket.count > 0 {
            if bucket.upperMs > bucket.lowerMs {
                buckets.append(bucket)
            } else {
                samples.append(contentsOf: repeatElement(bucket.lowerMs, count: bucket.count))
            }
        }
        sortedSamplesMs = samples.sorted()
        self.buckets = buckets.sorted { ($0.lowerMs, $0.upperMs) < ($1.lowerMs, $1.upperMs) }
        total = Double(samples.count) + buckets.reduce(0.0) { $0 + Double($1.count) }
    }

    /// The smallest value with mass: the least duration or the lowest bucket's lower end.
    public var minimumMs: Double {
        Swift.min(sortedSamplesMs.first ?? .infinity, buckets.first?.lowerMs ?? .infinity)
    }

    /// The largest value with mass.
    public var maximumMs: Double {
        Swift.max(sortedSamplesMs.last ?? -.infinity, buckets.map(\.upperMs).max() ?? -.infinity)
    }

    /// The share of durations at or below `x` (bucket mass spread evenly over each bucket).
    public func cdf(_ x: Double) -> Double {
        guard total > 0 else { return 0 }
        var mass = Double(Self.countAtOrBelow(sortedSamplesMs, x))
        for bucket in buckets {
            if x >= bucket.upperMs {
                mass += Double(bucket.count)
            } else if x > bucket.lowerMs {
                mass += Double(bucket.count) * (x - bucket.lowerMs) / (bucket.upperMs - bucket.lowerMs)
            }
        }
        return Swift.min(1, mass / total)
    }

    /// The p-quantile: for individual durations only, the sample quantile interpolated
    /// between order statistics (Hyndman–Fan type 7); otherwise the smallest x with
    /// `cdf(x) ≥ p`, by bisection.
    public func quantile(_ p: Double) -> Double {
        if buckets.isEmpty {
            let n = sortedSamplesMs.count
            let h = Double(n - 1) * p
            let low = Int(h.rounded(.down))
            let high = Swift.min(low + 1, n - 1)
            return sortedSamplesMs[low] + (h - Double(low)) * (sortedSamplesMs[high] - sortedSamplesMs[low])
        }
        var low = minimumMs, high = maximumMs
        if p <= 0 { return low }
        for _ in 0..<100 {
            let middle = 0.5 * (low + high)
            if cdf(middle) >= p { high = middle } else { low = middle }
        }
        return high
    }

    /// The inverse CDF as a quantile table: the bucket edges themselves for buckets alone
    /// (the exact measured curve; a gap between buckets becomes a step of 10⁻⁶ in p), otherwise the percentiles 0…100 plus 99.5 and 99.9.
    public func quantileTable() -> [QuantilePoint] {
        if sortedSamplesMs.isEmpty {
            var points = [QuantilePoint(p: 0, value: minimumMs)]
            var mass = 0.0
            for (index, bucket) in buckets.enumerated() {
                // A gap before the bucket (empty buckets are dropped) is a jump of the
                // inverse CDF: a point just after the previous one, at the bucket's start.
                let last = points[points.count - 1]
                if bucket.lowerMs > last.value {
                    points.append(QuantilePoint(p: last.p + Swift.min(1e-6, 0.5 * Double(bucket.count) / total), value: bucket.lowerMs))
                }
                mass += Double(bucket.count)
                let p = index == buckets.count - 1 ? 1 : mass / total
                if p > points[points.count - 1].p {
                    points.append(QuantilePoint(p: p, value: Swift.max(bucket.upperMs, points[points.count - 1].value)))
                }
            }
            return points
        }
        var ps = (0...99).map { Double($0) / 100 }
        ps += [0.995, 0.999, 1]
        var points: [QuantilePoint] = []
        for p in ps {
            let value = Swift.max(quantile(p), points.last?.value ?? 0)
            points.append(QuantilePoint(p: p, value: value))
        }
        return points
    }

    /// The number of sorted values at or below `x`, by binary search.
    static func countAtOrBelow(_ sorted: [Double], _ x: Double) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] <= x { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
