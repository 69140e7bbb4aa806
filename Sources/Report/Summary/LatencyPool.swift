import Sim

/// Every latency of one metric pooled over a batch's runs, kept exactly but compactly: the
/// batch table's percentiles are nearest-rank values that were measured, so they need every
/// sample, and a batch of thousands of replications has millions of them.
///
/// Latencies that fit in 32 bits (up to 4.29 s) take four bytes; the rare longer or negative
/// ones are kept as 64-bit values beside them. Sorting each part and reading them in order
/// (negatives, small, large) gives the sorted sample without ever building it.
public struct LatencyPool: Sendable, Equatable {
    private var small: [UInt32] = []
    private var negative: [Int64] = []
    private var large: [Int64] = []
    private var isSorted = true

    /// An empty pool.
    public init() {}

    /// The number of samples.
    public var count: Int { small.count + negative.count + large.count }

    /// Adds one latency.
    @inline(__always)
    public mutating func add(_ latency: SimDuration) {
        let ns = latency.nanoseconds
        if ns >= 0 && ns <= Int64(UInt32.max) {
            small.append(UInt32(truncatingIfNeeded: ns))
        } else if ns < 0 {
            negative.append(ns)
        } else {
            large.append(ns)
        }
        isSorted = false
    }

    /// Sorts the samples; `summary()` needs it. O(n): the 32-bit samples by two passes of
    /// a 16-bit radix sort (a batch's pool holds millions), the rare others by comparison.
    public mutating func sort() {
        guard !isSorted else { return }
        Self.radixSort(&small)
        negative.sort()
        large.sort()
        isSorted = true
    }

    /// Sorts `values` by their low, then their high 16 bits, through one scratch buffer.
    static func radixSort(_ values: inout [UInt32]) {
        guard values.count > 256 else { return values.sort() }
        var scratch = [UInt32](repeating: 0, count: values.count)
        for shift in [UInt32(0), 16] {
            var counts = [Int](repeating: 0, count: 65_537)
            for value in values { counts[Int((value >> shift) & 0xFFFF) + 1] += 1 }
            for digit in 1..<counts.count { counts[digit] += counts[digit - 1] }
            values.withUnsafeBufferPointer { source in
                scratch.withUnsafeMutableBufferPointer { target in
                    for value in source {
                        let digit = Int((value >> shift) & 0xFFFF)
                        target[counts[digit]] = value
                        counts[digit] += 1
                    }
                }
            }
            swap(&values, &scratch)
        }
    }

    /// The sample at 0-based `rank` of the sorted pool.
    /// - Precondition: sorted, and `rank` in `0..<count`.
    public func sortedValue(at rank: Int) -> Int64 {
        precondition(isSorted && rank >= 0 && rank < count, "rank \(rank) of a pool of \(count), sorted: \(isSorted)")
        if rank < negative.count { return negative[rank] }
        let inSmall = rank - negative.count
        if inSmall < small.count { return Int64(small[inSmall]) }
        return large[inSmall - small.count]
    }

    /// The summary `SampleSummary` gives of the same latencies in milliseconds: the mean
    /// sums the milliseconds in sorted order, as it does.
    /// - Precondition: sorted.
    public func summary() -> SampleSummary {
        precondition(isSorted, "sort the pool first")
        let n = count
        func ms(_ ns: Int64) -> Double { SimDuration(nanoseconds: ns).milliseconds }
        func percentile(_ p: Double) -> Double {
            guard n > 0 else { return 0 }
            let rank = Swift.max(1, Int((p * Double(n) / 100).rounded(.up)))
            return ms(sortedValue(at: Swift.min(rank, n) - 1))
        }
        var sum = 0.0
        for value in negative { sum += ms(value) }
        for value in small { sum += ms(Int64(value)) }
        for value in large { sum += ms(value) }
        return SampleSummary(count: n, mean: n == 0 ? 0 : sum / Double(n), p50: percentile(50), p95: percentile(95),
                             p99: percentile(99), max: n == 0 ? 0 : ms(sortedValue(at: n - 1)),
                             min: n == 0 ? 0 : ms(sortedValue(at: 0)))
    }
}
