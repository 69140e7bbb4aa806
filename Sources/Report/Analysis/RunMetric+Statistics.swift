/// The statistics metrics are made of (`RunMetric`), each computed the way the docs define
/// it, in a fixed order so that every run gives the same bits.
extension RunMetric {
    /// The mean of `values` in milliseconds, or nil for none: a sum of doubles in order over
    /// the count (the sum SQLite's `AVG` takes, so that a query over the rows agrees).
    static func meanMs<S: Sequence<Int64>>(_ values: S) -> Double? {
        var sum = 0.0
        var count = 0
        for value in values {
            sum += Double(value)
            count += 1
        }
        return count == 0 ? nil : sum / Double(count) / 1e6
    }

    /// The share of true values (the caller ensures there is one value).
    static func share<S: Sequence<Bool>>(_ values: S) -> Double {
        var count = 0
        var yes = 0
        for value in values {
            count += 1
            if value { yes += 1 }
        }
        return Double(yes) / Double(count)
    }

    /// The nearest-rank `percent`th percentile in milliseconds: the value at rank
    /// ⌈p·n/100⌉ = `(p·n + 99) / 100` in ascending order; nil for no values.
    static func nearestRankMs(_ percent: Int, _ values: [Int64]) -> Double? {
        guard !values.isEmpty else { return nil }
        var values = values
        return Double(kthSmallest(&values, (percent * values.count + 99) / 100 - 1)) / 1e6
    }

    /// The value of 0-based rank `k` in ascending order (Hoare's selection, median-of-three
    /// pivots; `values` is reordered): what sorting would put at `k`, in linear expected
    /// time. A sort finishes the job should the partitions keep coming out lopsided.
    static func kthSmallest(_ values: inout [Int64], _ k: Int) -> Int64 {
        precondition(values.indices.contains(k), "rank \(k) of \(values.count) values")
        var low = 0
        var high = values.count - 1
        var budget = 2 * (Int.bitWidth - values.count.leadingZeroBitCount) + 8
        while low < high {
            budget -= 1
            if budget == 0 {
                values[low...high].sort()
                return values[k]
            }
            let middle = low + (high - low) / 2
            // Median of three as the pivot value.
            let (a, b, c) = (values[low], values[middle], values[high])
            let pivot = max(min(a, b), min(max(a, b), c))
            var i = low
            var j = high
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            // values[low...j] ≤ pivot ≤ values[i...high], and values[j+1..<i] == pivot.
            if k <= j {
                high = j
            } else if k >= i {
                low = i
            } else {
                return values[k]
            }
        }
        return values[k]
    }
}
