import Scenarios

/// The terminal view of a fleet report: the day's summary (`FleetResult.summary`) and a
/// table of its hours.
extension FleetReport {
    /// The day's figures, one a line.
    public func summaryTable() -> String {
        let summary = result.summary
        let held = result.partitions.count
        var table = TextTable(headers: ["figure", "value"])
        table.add(["users simulated", "\(result.users)"])
        table.add(["daily users represented", "\(result.represents)"])
        table.add(["partitions", held == result.partitionCount ? "\(held)" : "\(held) of \(result.partitionCount)"])
        table.add(["sessions", "\(summary.sessions)"])
        table.add(["keys", "\(summary.keys)"])
        table.add(["requests", "\(summary.arrivals)"])
        table.add(["tokens (input / cached / output)", "\(summary.inputTokens) / \(summary.cachedTokens) / \(summary.outputTokens)"])
        table.add(["cost per day (USD)", TextTable.fixed(summary.costUSDPerDay, 2)])
        table.add(["cost per daily user (USD)", TextTable.fixed(summary.costUSDPerDailyUser, 6)])
        table.add(["rejected share", Self.percent(summary.rejectedShare)])
        table.add(["peak arrivals/s", TextTable.fixed(summary.peakArrivalsPerSecond, 2)])
        table.add(["peak-to-mean", Self.cell(summary.peakToMean, 2)])
        table.add(["busiest hour", summary.busiestHour.map { "\($0):00" } ?? "-"])
        table.add(["busiest hour first token p95 (ms)", Self.cell(summary.busiestHourFirstTokenP95Ms, 1)])
        table.add(["busiest hour verdict p95 (ms)", Self.cell(summary.busiestHourVerdictP95Ms, 1)])
        table.add(["verdict coverage", Self.percent(summary.verdictCoverage)])
        table.add(["replica utilisation", Self.percent(summary.utilisation)])
        return table.render()
    }

    /// The day by hour (hours of the day; the last holds the minutes the last sessions drained in).
    public func hourTable() -> String {
        var table = TextTable(headers: ["hour", "arrivals/s", "admitted", "rejected", "queue mean", "batch mean", "utilisation",
                                        "first token p95 ms", "verdict p95 ms", "coverage"])
        for (hour, span) in hours {
            table.add(["\(hour):00", TextTable.fixed(span.arrivalsPerSecond, 2), "\(span.total.backend.admitted)", "\(span.rejected)",
                       TextTable.fixed(span.meanQueueLength, 2), Self.cell(span.meanBatch, 2), Self.percent(span.utilisation),
                       Self.cell(span.firstTokenMs(95), 1), Self.cell(span.verdictMs(95), 1), Self.percent(span.verdictCoverage)])
        }
        return table.render()
    }

    private static func cell(_ value: Double?, _ decimals: Int) -> String { value.map { TextTable.fixed($0, decimals) } ?? "-" }
    private static func percent(_ share: Double?) -> String { share.map(TextTable.percent) ?? "-" }
}
