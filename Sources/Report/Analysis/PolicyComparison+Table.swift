import Scenarios

extension PolicyComparison {
    /// The one table `keysim compare` prints for three or more policies: per metric its mean
    /// under each policy, then per candidate the difference to the baseline (`*` when Holm's
    /// step-down finds it significant) and its Bonferroni interval; then what the marks mean
    /// and which policies no other beats.
    public func table() -> String {
        let baseline = labels[0]
        var headers = ["metric"] + labels
        for comparison in comparisons {
            headers += ["\(comparison.labelB) − \(baseline)", comparison.intervalHeader]
        }
        var table = TextTable(headers: headers)
        for (index, row) in (comparisons.first?.rows ?? []).enumerated() {
            let rows = comparisons.map { $0.rows[index] }
            let shown = rows.flatMap { [$0.meanA, $0.meanB, $0.difference, $0.ciLow, $0.ciHigh] }
            let d = Comparison.decimals(showing: shown, atLeast: row.decimals)
            var cells = [row.label, row.meanA.map { TextTable.fixed($0, d) } ?? "-"]
            cells += rows.map { $0.meanB.map { TextTable.fixed($0, d) } ?? "-" }
            for r in rows {
                let mark = r.pairs >= 2 && r.significant ? "*" : ""
                cells.append(r.difference.map { Comparison.signed($0, d) + mark } ?? "-")
                cells.append(r.ciLow.flatMap { low in r.ciHigh.map { "[\(TextTable.fixed(low, d)), \(TextTable.fixed($0, d))]" } } ?? "-")
            }
            table.add(cells)
        }
        return table.render() + "\n" + notes().joined(separator: "\n") + "\n"
    }

    /// The lines under the table: the correction, and the policies no other beats.
    public func notes() -> [String] {
        let m = comparisons.count
        let level = comparisons.first.map { $0.intervalHeader.replacingOccurrences(of: " CI", with: "") } ?? "95%"
        return [
            "* significant: Holm's step-down over the \(m) comparisons with \(labels[0]), family-wise 5%; "
                + "intervals: Bonferroni, each at \(level), together at least 95%.",
            "not beaten on \(objectives.map(\.name).joined(separator: ", ")): \(unbeaten.joined(separator: ", "))"
                + " (beaten: another policy is better on one objective and better or identical on the others, "
                + "paired \(NumberText.shortest((100_000 * beatingConfidence).rounded() / 1000))% intervals over the "
                + "\(labels.count * (labels.count - 1) / 2) pairs of policies).",
        ]
    }

    /// The `keysim.compare` JSON members that describe the policies (schema version 2).
    public func document() -> [(String, JSONTree)] {
        [
            ("baseline", .string(labels[0])), ("policies", .array(labels.map { .string($0) })),
            ("intervalConfidence", .number(comparisons.first?.intervalConfidence)), ("correction", .string("holm-bonferroni")),
            ("metrics", .array((comparisons.first?.rows ?? []).indices.map { index in
                let row = comparisons[0].rows[index]
                let metric = RunMetric.named(row.metric)
                return .object([
                    ("metric", .string(row.metric)), ("label", .string(row.label)), ("unit", .string(metric?.unit)),
                    ("lowerIsBetter", metric.map { .bool($0.lowerIsBetter) } ?? .null),
                    ("means", .array([.number(row.meanA)] + comparisons.map { .number($0.rows[index].meanB) })),
                    ("differences", .array(comparisons.map { comparison in
                        let r = comparison.rows[index]
                        return .object([
                            ("policy", .string(comparison.labelB)), ("pairs", .integer(r.pairs)),
                            ("difference", .number(r.difference)), ("ciLow", .number(r.ciLow)), ("ciHigh", .number(r.ciHigh)),
                            ("significant", r.pairs < 2 ? .null : .bool(r.significant)),
                        ])
                    })),
                ])
            })),
            ("objectives", .array(objectives.map { .string($0.name) })), ("unbeaten", .array(unbeaten.map { .string($0) })),
            ("beatingConfidence", .number(beatingConfidence)),
        ]
    }
}
