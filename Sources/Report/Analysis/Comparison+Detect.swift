extension Comparison.Row {
    /// The power the pairs-to-detect figure is computed for: 80 %, two-sided at 95 %.
    public static let detectionPower = 0.8

    /// The standard deviation of the per-pair differences, recovered from the stored 95 %
    /// interval; nil with fewer than two pairs.
    public var differenceStandardDeviation: Double? {
        guard pairs >= 2, let low = ciLow, let high = ciHigh else { return nil }
        return (high - low) / 2 * Double(pairs).squareRoot() / StudentT.quantile975(degreesOfFreedom: pairs - 1)
    }

    /// How many pairs of runs a paired t-test (two-sided, 95 %) needs to detect a true
    /// difference of `effect` with 80 % power, given the spread of the differences seen here:
    /// the smallest n ≥ 2 with (t₀.₉₇₅ + t₀.₈₀)·s/√n ≤ |effect|, both t at n − 1 degrees of
    /// freedom. Nil without a spread (fewer than two pairs) or for a zero effect; 2 when the
    /// differences do not vary.
    public func pairsToDetect(_ effect: Double) -> Int? {
        guard let s = differenceStandardDeviation, effect != 0, effect.isFinite else { return nil }
        guard s > 0 else { return 2 }
        let limit = 10_000_000
        // The z approximation is a lower bound on n; walk up from it to the first n that holds.
        let z = (1.959963984540054 + 0.8416212335729143) * s / Swift.abs(effect)
        var n = Swift.max(2, Int((z * z).rounded(.down)))
        guard n < limit else { return nil }
        while n < limit {
            let t = StudentT.quantile975(degreesOfFreedom: n - 1) + StudentT.quantile(Self.detectionPower, degreesOfFreedom: n - 1)
            if t * s / Double(n).squareRoot() <= Swift.abs(effect) { return n }
            n += n < 1000 ? 1 : n / 100
        }
        return nil
    }
}

extension Comparison {
    /// The effect `target` asks to detect for a row: an amount in the row's unit (nil for
    /// another unit), or a share of A's mean.
    static func effect(_ row: Row, _ target: PrecisionTarget) -> Double? {
        target.allowedHalfWidth(reference: row.meanA ?? 0, unit: RunMetric.named(row.metric)?.unit ?? "")
    }

    /// The table `keysim compare --detect` adds: per metric, the pairs a difference of
    /// `target` needs to be detected.
    public func detectionTable(_ target: PrecisionTarget) -> String {
        var table = TextTable(headers: ["metric", "difference to detect", "pairs needed (80% power)", "pairs run"])
        for row in rows where row.pairs >= 2 {
            guard let effect = Self.effect(row, target), effect > 0 else { continue }
            let d = Self.decimals(showing: [effect], atLeast: row.decimals)
            table.add([row.label, TextTable.fixed(effect, d), row.pairsToDetect(effect).map(String.init) ?? "-", "\(row.pairs)"])
        }
        return table.render()
    }
}

extension JSONOutput {
    /// The `detect` member of `compare --json --detect`.
    public static func detection(_ comparison: Comparison, _ target: PrecisionTarget) -> JSONTree {
        .object([
            ("difference", .string(target.description)), ("power", .number(Comparison.Row.detectionPower)),
            ("metrics", .array(comparison.rows.compactMap { row -> JSONTree? in
                guard row.pairs >= 2, let effect = Comparison.effect(row, target), effect > 0 else { return nil }
                return .object([("metric", .string(row.metric)), ("effect", .number(effect)),
                                ("pairsNeeded", row.pairsToDetect(effect).map { .integer($0) } ?? .null), ("pairsRun", .integer(row.pairs))])
            })),
        ])
    }
}
