import Foundation

extension Gate {
    /// The gate as Markdown for a CI job summary (GitHub's `$GITHUB_STEP_SUMMARY`, a GitLab
    /// report artifact): the verdict, one table row per check, and the comparison's table.
    public func markdown(seed: UInt64, replications: Int, comparison: Comparison) -> String {
        let verdict = passed ? "passed" : "failed: \(failures.count) of \(checks.count) check(s)"
        var lines = [
            "### keysim gate \(passed ? "✅" : "❌") \(verdict)",
            "",
            "`\(Self.cell(scenarioName))`: candidate **\(Self.cell(candidate))** against baseline **\(Self.cell(baseline))**, "
                + "\(pairs) pairs of runs (seed \(seed), \(replications) replication(s) per trace, common random numbers).",
            "",
            "| result | check | figures |",
            "| --- | --- | --- |",
        ]
        for check in checks {
            lines.append("| \(check.passed ? "pass" : "**FAIL**") | \(Self.cell(check.name)) | \(Self.cell(check.detail)) |")
        }
        lines += ["", "<details><summary>paired differences (candidate − baseline)</summary>", "",
                  "| metric | \(Self.cell(comparison.labelA)) | \(Self.cell(comparison.labelB)) | difference | 95% CI | significant |",
                  "| --- | ---: | ---: | ---: | --- | --- |"]
        for row in comparison.rows where row.pairs > 0 {
            let d = Comparison.decimals(showing: [row.difference, row.ciLow, row.ciHigh], atLeast: row.decimals)
            let interval = row.ciLow.flatMap { low in row.ciHigh.map { "[\(TextTable.fixed(low, d)), \(TextTable.fixed($0, d))]" } } ?? "-"
            lines.append("| \(Self.cell(row.label)) | \(row.meanA.map { TextTable.fixed($0, d) } ?? "-") | "
                + "\(row.meanB.map { TextTable.fixed($0, d) } ?? "-") | \(row.difference.map { Comparison.signed($0, d) } ?? "-") | "
                + "\(interval) | \(row.pairs < 2 ? "-" : (row.significant ? "yes" : "no")) |")
        }
        lines += ["", "</details>", ""]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text safe in a Markdown table cell: pipes escaped, line breaks as spaces.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
