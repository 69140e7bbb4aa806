/// Order statistics over a sample.
///
/// Percentiles are nearest-rank (Hyndman & Fan type 1): the p-th percentile of n values is
/// the smallest value with at least p % of the values at or below it, the value at rank
/// ⌈p·n/100⌉. Every percentile is a value that was measured, and the report's SQL views
/// compute the very same figure with window functions.
public struct SampleSummary: Sendable, Equatable {
    /// Number of values.
    public var count: Int
    /// Arithmetic mean (0 when empty).
    public var mean: Double
    /// Median.
    public var p50: Double
    /// 95th percentile.
    public var p95: Double
    /// 99th percentile.
    public var p99: Double
    /// Largest value.
    public var max: Double
    /// Smallest value.
    public var min: Double

    /// A summary of figures already computed (`LatencyPool` builds one without an array
    /// of every value).
    init(count: Int, mean: Double, p50: Double, p95: Double, p99: Double, max: Double, min: Double) {
        self.count = count
        self.mean = mean
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
        self.max = max
        self.min = min
    }

    /// Summarises `values` (any order). O(n log n).
    public init(_ values: [Double]) {
        let sorted = values.sorted()
        count = sorted.count
        mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
        p50 = Self.percentile(sorted: sorted, 50)
        p95 = Self.percentile(sorted: sorted, 95)
        p99 = Self.percentile(sorted: sorted, 99)
        max = sorted.last ?? 0
        min = sorted.first ?? 0
    }

    /// The p-th percentile (0…100) of already sorted values; 0 for an empty sample.
    public static func percentile(sorted: [Double], _ p: Double) -> Double {
        precondition((0...100).contains(p), "a percentile is between 0 and 100")
        guard !sorted.isEmpty else { return 0 }
        let rank = Swift.max(1, Int((p * Double(sorted.count) / 100).rounded(.up)))
        return sorted[Swift.min(rank, sorted.count) - 1]
    }
}

/// Mean and a Student-t confidence interval.
public struct MeanInterval: Sendable, Equatable {
    /// The sample mean.
    public var mean: Double
    /// Half the width of the interval.
    public var halfWidth: Double
    /// Number of values.
    public var count: Int

    /// A two-sided 95 % interval for the mean of `values` (half-width 0 for fewer than two).
    public init(_ values: [Double]) {
        count = values.count
        mean = values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
        guard values.count >= 2 else { halfWidth = 0; return }
        let m = mean
        let variance = values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(values.count - 1)
        halfWidth = StudentT.quantile975(degreesOfFreedom: values.count - 1) * (variance / Double(values.count)).squareRoot()
    }

    /// Whether the interval excludes zero.
    public var excludesZero: Bool { abs(mean) > halfWidth && count >= 2 }
}

/// Student's t distribution, as far as confidence intervals need it.
public enum StudentT {
    /// The 0.975 quantile for `degreesOfFreedom` ≥ 1: exact table up to 30, then the
    /// Cornish–Fisher expansion around the normal quantile (error < 1e-4).
    public static func quantile975(degreesOfFreedom df: Int) -> Double {
        precondition(df >= 1)
        let table: [Double] = [12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
                               2.262157, 2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905,
                               2.109816, 2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
                               2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272]
        if df <= table.count { return table[df - 1] }
        let z = 1.959963984540054
        let n = Double(df)
        let z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z
        return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n)
            + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * n * n * n)
    }
}
