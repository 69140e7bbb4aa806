/// Least-significant-digit radix sort of integers: the per-run latency lists (a thousand or
/// more values each, tens of them a run) in a few linear passes instead of a comparison
/// sort. Sorting integers has one answer, so the result is exactly `values.sorted()`.
enum RadixSort {
    /// `values` in ascending order.
    /// - Complexity: O(n · d), d the number of 8-bit digits of the range of values (at most 8).
    static func sorted(_ values: [Int64]) -> [Int64] {
        guard values.count >= 256, let low = values.min(), let high = values.max() else { return values.sorted() }
        // Sort the offsets from the minimum, unsigned, so that negative values need no care.
        let span = UInt64(bitPattern: high &- low)
        let digits = (UInt64.bitWidth - span.leadingZeroBitCount + 7) / 8
        guard digits > 0 else { return values }
        var keys = values.map { UInt64(bitPattern: $0 &- low) }
        var scratch = [UInt64](repeating: 0, count: keys.count)
        var counts = [Int](repeating: 0, count: 257)
        for digit in 0..<digits {
            let shift = UInt64(8 * digit)
            for i in counts.indices { counts[i] = 0 }
            keys.withUnsafeBufferPointer { keys in
                for key in keys { counts[Int((key >> shift) & 0xFF) + 1] += 1 }
            }
            for i in 1..<counts.count { counts[i] += counts[i - 1] }
            keys.withUnsafeBufferPointer { keys in
                scratch.withUnsafeMutableBufferPointer { out in
                    for key in keys {
                        let bucket = Int((key >> shift) & 0xFF)
                        out[counts[bucket]] = key
                        counts[bucket] += 1
                    }
                }
            }
            swap(&keys, &scratch)
        }
        return keys.map { Int64(bitPattern: $0) &+ low }
    }
}
