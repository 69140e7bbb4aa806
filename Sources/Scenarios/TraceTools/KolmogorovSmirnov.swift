/// The two-sample Kolmogorov–Smirnov distance: the largest gap between two samples'
/// empirical distribution functions, 0 (the same distribution) to 1 (no overlap).
public enum KolmogorovSmirnov {
    /// The distance between `a` and `b`; `nil` when either is empty.
    /// - Complexity: O((n + m) log(n + m)) for the sorts.
    public static func distance(_ a: [Int64], _ b: [Int64]) -> Double? {
        guard !a.isEmpty, !b.isEmpty else { return nil }
        let x = a.sorted(), y = b.sorted()
        var i = 0, j = 0
        var largest = 0.0
        while i < x.count && j < y.count {
            // Step past every value equal to the smaller one in both samples, then compare.
            let value = min(x[i], y[j])
            while i < x.count && x[i] == value { i += 1 }
            while j < y.count && y[j] == value { j += 1 }
            largest = max(largest, abs(Double(i) / Double(x.count) - Double(j) / Double(y.count)))
        }
        return largest
    }
}
