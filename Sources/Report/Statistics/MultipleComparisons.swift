/// Corrections for making several comparisons at once, so that the chance of any false
/// "significant" in the family stays at the level the user asked for.
///
/// keysim's family is every comparison made with one baseline on one metric (`compare` with
/// N policies makes N − 1). Tests use Holm's step-down procedure (Holm 1979), which controls
/// the family-wise error rate at α for any dependence between the tests and rejects
/// everything Bonferroni rejects, and more. Holm has no matching interval, so intervals are
/// Bonferroni's: each at 1 − α/m, which together cover all m true differences with
/// probability at least 1 − α. An interval that excludes zero is therefore always a Holm
/// rejection; a Holm rejection may come with an interval that touches zero.
public enum MultipleComparisons {
    /// Holm's adjusted p-values, in the order given: sorted ascending p₍₁₎ ≤ … ≤ p₍ₘ₎ (ties
    /// in the order given), p̃₍ᵢ₎ = min(1, max over j ≤ i of (m − j + 1)·p₍ⱼ₎). A hypothesis is
    /// rejected at family-wise level α exactly when its adjusted p-value is at most α — the
    /// step-down that compares p₍ᵢ₎ with α/(m − i + 1) and stops at the first that holds.
    /// nil entries (comparisons without a test, under two pairs) stay nil and do not count in m.
    public static func holmAdjusted(_ pValues: [Double?]) -> [Double?] {
        for case let p? in pValues { precondition((0...1).contains(p), "a p-value is between 0 and 1") }
        let tested = pValues.indices.filter { pValues[$0] != nil }
            .sorted { (pValues[$0]!, $0) < (pValues[$1]!, $1) }
        let m = tested.count
        var adjusted = [Double?](repeating: nil, count: pValues.count)
        var running = 0.0
        for (rank, index) in tested.enumerated() {
            running = max(running, min(1, Double(m - rank) * pValues[index]!))
            adjusted[index] = running
        }
        return adjusted
    }

    /// Which hypotheses Holm's step-down rejects at family-wise level `alpha` (false for
    /// untested ones).
    public static func holmRejects(_ pValues: [Double?], alpha: Double) -> [Bool] {
        precondition(alpha > 0 && alpha < 1, "a significance level is between 0 and 1")
        return holmAdjusted(pValues).map { $0.map { $0 <= alpha } ?? false }
    }

    /// The confidence of each of `comparisons` Bonferroni intervals that together hold at
    /// `familyConfidence`: 1 − (1 − familyConfidence)/m (0.95 over 4 comparisons: 0.9875).
    /// One comparison keeps the level as it is.
    public static func bonferroniConfidence(family familyConfidence: Double, comparisons: Int) -> Double {
        precondition(familyConfidence > 0 && familyConfidence < 1, "a confidence level is between 0 and 1")
        precondition(comparisons >= 1, "a family holds at least one comparison")
        return comparisons == 1 ? familyConfidence : 1 - (1 - familyConfidence) / Double(comparisons)
    }

    /// Simultaneous intervals of the mean differences: each at the Bonferroni level for the
    /// comparisons that have an interval (two pairs or more), nil for the others.
    public static func bonferroniIntervals(_ differences: [PairedDifference], familyConfidence: Double) -> [ClosedRange<Double>?] {
        let m = differences.count { $0.pairs >= 2 }
        guard m > 0 else { return differences.map { _ in nil } }
        let level = bonferroniConfidence(family: familyConfidence, comparisons: m)
        return differences.map { $0.interval(confidence: level) }
    }
}
