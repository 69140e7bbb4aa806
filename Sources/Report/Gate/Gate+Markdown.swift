import Foundation

extension Gate {
    /// The gate as Markdown for a CI job summary (GitHub's `$GITHUB_STEP_SUMMARY`, a GitLab
    /// report artifact): the verdict, one table row per check, and the comparison's table.
    public func markdown(seed: UInt64, replications: Int, comparison: Comparison) -> String {
        let verdict = passed ? "passed" : "failed: \(failures.count) of \(checks.count) check(s)"
        var lines = [
            "### keysim gate \(passed ? "✅" : "❌") \(verdict)",
            "",
            "`\(MarkdownEscaper.tableCell(scenarioName))`: candidate **\(MarkdownEscaper.tableCell(candidate))** against baseline **\(MarkdownEscaper.tableCell(baseline))**, "
                + "\(pairs) pairs of runs (seed \(seed), \(replications) replication(s) per trace, common random numbers).",
            "",
            "| result | check | figures |",
            "| --- | --- | --- |",
        ]
        for check in checks {
            lines.append("| \(check.passed ? "pass" : "**FAIL**") | \(MarkdownEscaper.tableCell(check.name)) | \(MarkdownEscaper.tableCell(check.detail)) |")
        }
        lines += ["", "<details><summary>paired differences (candidate − baseline)</summary>", "",
                  "| metric | \(MarkdownEscaper.tableCell(comparison.labelA)) | \(MarkdownEscaper.tableCell(comparison.labelB)) | difference | 95% CI | significant |",
                  "| --- | ---: | ---: | ---: | --- | --- |"]
        for row in comparison.rows where row.pairs > 0 {
            let d = Comparison.decimals(showing: [row.difference, row.ciLow, row.ciHigh], atLeast: row.decimals)
            let interval = row.ciLow.flatMap { low in row.ciHigh.map { "[\(TextTable.fixed(low, d)), \(TextTable.fixed($0, d))]" } } ?? "-"
            lines.append("| \(MarkdownEscaper.tableCell(row.label)) | \(row.meanA.map { TextTable.fixed($0, d) } ?? "-") | "
                + "\(row.meanB.map { TextTable.fixed($0, d) } ?? "-") | \(row.difference.map { Comparison.signed($0, d) } ?? "-") | "
                + "\(interval) | \(row.pairs < 2 ? "-" : (row.significant ? "yes" : "no")) |")
        }
        lines += ["", "</details>", ""]
        return lines.joined(separator: "\n") + "\n"
    }
}
