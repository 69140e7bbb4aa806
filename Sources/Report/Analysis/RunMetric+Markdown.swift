extension RunMetric {
    /// The metrics table of `docs/report-schema.md`, made from `all` (between its markers;
    /// `ReportDocsTests` fails when the file and the definitions disagree).
    public static var catalogMarkdown: String {
        var text = "| metric | unit | better | what |\n| --- | --- | --- | --- |\n"
        for metric in all {
            text += "| `\(metric.name)` | \(metric.unit) | \(metric.lowerIsBetter ? "lower" : "higher") | \(metric.description) |\n"
        }
        return text
    }
}
