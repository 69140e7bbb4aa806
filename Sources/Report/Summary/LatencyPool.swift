import Sim

/// Every latency of one metric pooled over a batch's runs, kept exactly but compactly: the
/// batch table's percentiles are nearest-rank values that were measured, so they need every
/// sample, and a batch of thousands of replications has millions of them.
///
/// Each run's latencies arrive sorted (its worker sorts them) and are stored as varint
/// deltas from one to the next — one or two bytes a sample instead of eight. The summary
/// reads the runs twice, in place, without merging them (`summary()`).
public struct LatencyPool: Sendable, Equatable {
    /// The encoded runs, one after another.
    private var bytes: [UInt8] = []
    /// Where each run starts in `bytes`, and how many samples it holds.
    private var runs: [(start: Int, count: Int)] = []
    /// The number of samples.
    public private(set) var count = 0

    /// An empty pool.
    public init() {}

    /// Adds one run's latencies, in nanoseconds.
    /// - Precondition: `sorted` is in ascending order.
    public mutating func add(sorted: [Int64]) {
        guard !sorted.isEmpty else { return }
        runs.append((bytes.count, sorted.count))
        count += sorted.count
        // The first value may be negative: zigzag; every delta after it is not.
        let first = sorted[0]
        Self.appendVarint(UInt64(bitPattern: (first << 1) ^ (first >> 63)), to: &bytes)
        var previous = first
        for value in sorted.dropFirst() {
            precondition(value >= previous, "a run's latencies are added sorted")
            Self.appendVarint(UInt64(bitPattern: value &- previous), to: &bytes)
            previous = value
        }
    }

    public static func == (lhs: LatencyPool, rhs: LatencyPool) -> Bool {
        lhs.count == rhs.count && lhs.sortedValues() == rhs.sortedValues()
    }

    /// Every sample in ascending order (for tests and small pools).
    public func sortedValues() -> [Int64] {
        var values: [Int64] = []
        values.reserveCapacity(count)
        forEachRun { values.append($0) }
        return RadixSort.sorted(values)
    }

    /// The summary of the pooled latencies in milliseconds: the nearest-rank percentiles,
    /// minimum and maximum `SampleSummary` gives of the same values, and the exact mean (the
    /// sum in integer nanoseconds, divided once), which `SampleSummary`'s floating-point sum
    /// approaches.
    ///
    /// Two linear passes over the encoded runs, no merge: the first sums the samples and
    /// counts them per `LatencyHistogram` bucket, which locates the bucket of each
    /// percentile's rank; the second collects the few samples in those buckets, whose sorted
    /// order gives the exact values.
    /// - Complexity: O(n + m log m), m the samples in the percentiles' buckets.
    public func summary() -> SampleSummary {
        let n = count
        guard n > 0 else { return SampleSummary([]) }
        func rank(_ p: Double) -> Int { Swift.min(Swift.max(1, Int((p * Double(n) / 100).rounded(.up))), n) - 1 }
        let ranks = [rank(50), rank(95), rank(99)]
        var sum = ExactSum()
        var (minimum, maximum) = (Int64.max, Int64.min)
        var perBucket: [Int] = []
        forEachRun { value in
            sum.add(value)
            minimum = Swift.min(minimum, value)
            maximum = Swift.max(maximum, value)
            let bucket = LatencyHistogram.bucket(of: value)
            if bucket >= perBucket.count { perBucket += repeatElement(0, count: bucket + 1 - perBucket.count) }
            perBucket[bucket] += 1
        }
        // The bucket each rank falls in, and the rank's place among that bucket's samples.
        var targets: [(bucket: Int, offset: Int)] = []
        var below = 0
        var next = 0
        for (bucket, count) in perBucket.enumerated() where count > 0 {
            while next < ranks.count && ranks[next] < below + count {
                targets.append((bucket, ranks[next] - below))
                next += 1
            }
            below += count
        }
        let buckets = Array(Set(targets.map(\.bucket))).sorted()
        var inBucket = [[Int64]](repeating: [], count: buckets.count)
        forEachRun { value in
            let bucket = LatencyHistogram.bucket(of: value)
            if let slot = buckets.firstIndex(of: bucket) { inBucket[slot].append(value) }
        }
        for slot in inBucket.indices { inBucket[slot].sort() }
        let percentiles = targets.map { target in
            SimDuration(nanoseconds: inBucket[buckets.firstIndex(of: target.bucket)!][target.offset]).milliseconds
        }
        return SampleSummary(count: n, mean: sum.value / Double(n) / 1e6, p50: percentiles[0], p95: percentiles[1],
                             p99: percentiles[2], max: SimDuration(nanoseconds: maximum).milliseconds,
                             min: SimDuration(nanoseconds: minimum).milliseconds)
    }

    /// Calls `body` with every sample, run after run (each run in ascending order).
    private func forEachRun(_ body: (Int64) -> Void) {
        bytes.withUnsafeBufferPointer { bytes in
            for run in runs {
                var offset = run.start
                var value = Self.readFirst(bytes, &offset)
                body(value)
                for _ in 1..<run.count {
                    value += Int64(bitPattern: Self.readVarint(bytes, &offset))
                    body(value)
                }
            }
        }
    }

    /// A sum of 64-bit integers in 128 bits: exact for any number of nanosecond latencies.
    private struct ExactSum {
        private var high: Int64 = 0
        private var low: UInt64 = 0

        mutating func add(_ value: Int64) {
            let (sum, carry) = low.addingReportingOverflow(UInt64(bitPattern: value))
            low = sum
            high &+= (value < 0 ? -1 : 0) &+ (carry ? 1 : 0)
        }

        /// The sum, rounded to the nearest double.
        var value: Double {
            // high·2⁶⁴ + low, with low split so that each part converts exactly.
            Double(high) * 0x1p64 + Double(low >> 32) * 0x1p32 + Double(low & 0xFFFF_FFFF)
        }
    }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    private static func readVarint(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    private static func readFirst(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> Int64 {
        let zigzag = readVarint(bytes, &offset)
        return Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
    }
}
