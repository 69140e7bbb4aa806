import Scenarios
import Sim

extension FleetDayPage {
    /// The page of a fleet run: its summary table is the busiest hour and every
    /// `FleetMetric`, computed once from the result.
    public init(_ result: FleetResult) {
        let day = FleetMetric.Day(result)
        let hour = day.summary.busiestHour
        var rows = [SummaryRow(label: "busiest hour (most arrivals)",
                               value: hour.map { "\(SVGTimeSeriesChart.clockText($0 * 60))–\(SVGTimeSeriesChart.clockText(($0 + 1) * 60))" } ?? "–",
                               name: "busiest_hour")]
        rows += FleetMetric.all.map { SummaryRow(label: $0.label, value: $0.text($0.value(for: day)), name: $0.name) }
        let span = result.spanMinutes / 60
        let meta = "\(result.users) simulated users standing for \(result.represents) daily users; \(result.sessions) sessions; "
            + "\(span) hour\(span == 1 ? "" : "s") from \(SVGTimeSeriesChart.clockText(result.startHour * 60))"
            + (result.minutes.count > result.spanMinutes ? " (and \(result.minutes.count - result.spanMinutes) minutes while the last sessions end)" : "")
            + "; \(result.partitionCount) partition\(result.partitionCount == 1 ? "" : "s"); seed \(result.seed); keysim \(KeysimVersion.current)."
        self.init(scenarioName: result.scenarioName, meta: meta, summary: rows, minutes: result.minutes, startHour: result.startHour,
                  busiestHour: hour)
    }
}
