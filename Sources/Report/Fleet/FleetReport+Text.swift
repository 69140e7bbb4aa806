/// The terminal view of a fleet report: the day's summary and a table of its hours.
extension FleetReport {
    /// The day's figures, one a line.
    public func summaryTable() -> String {
        let day = day
        let busiest = busiestHour.map { hours[$0] }
        var table = TextTable(headers: ["figure", "value"])
        table.add(["users simulated", "\(users)"])
        table.add(["daily users represented", "\(represents)"])
        table.add(["partitions", partitions.count == partitionCount ? "\(partitionCount)" : "\(partitions.count) of \(partitionCount)"])
        table.add(["sessions", "\(sessions)"])
        table.add(["keys", "\(keys)"])
        table.add(["requests", "\(day.total.backend.arrivals)"])
        table.add(["tokens (input / cached / output)", "\(day.total.backend.inputTokens) / \(day.total.backend.cachedTokens) / \(day.total.backend.outputTokens)"])
        table.add(["cost per day (USD)", Self.cell(costUSDPerDay, 2)])
        table.add(["cost per daily user (USD)", Self.cell(costUSDPerDailyUser, 6)])
        table.add(["rejected share", Self.percent(day.rejectedShare)])
        table.add(["peak arrivals/s", Self.cell(peakArrivalsPerSecond, 2)])
        table.add(["peak-to-mean", Self.cell(peakToMean, 2)])
        table.add(["busiest hour", busiestHour.map { "\($0)" } ?? "-"])
        table.add(["busiest hour first token p95 (ms)", Self.cell(busiest?.firstTokenMs(95), 1)])
        table.add(["busiest hour verdict p95 (ms)", Self.cell(busiest?.verdictMs(95), 1)])
        table.add(["verdict coverage", Self.percent(day.verdictCoverage)])
        table.add(["replica utilisation", Self.percent(day.utilisation)])
        return table.render()
    }

    /// The day by hour.
    public func hourTable() -> String {
        var table = TextTable(headers: ["hour", "arrivals/s", "admitted", "rejected", "queue mean", "batch mean", "utilisation",
                                        "first token p95 ms", "verdict p95 ms", "coverage"])
        for (hour, span) in hours.enumerated() {
            table.add(["\(hour)", TextTable.fixed(span.arrivalsPerSecond, 2), "\(span.total.backend.admitted)", "\(span.rejected)",
                       TextTable.fixed(span.meanQueueLength, 2), Self.cell(span.meanBatch, 2), Self.percent(span.utilisation),
                       Self.cell(span.firstTokenMs(95), 1), Self.cell(span.verdictMs(95), 1), Self.percent(span.verdictCoverage)])
        }
        return table.render()
    }

    private static func cell(_ value: Double?, _ decimals: Int) -> String { value.map { TextTable.fixed($0, decimals) } ?? "-" }
    private static func percent(_ share: Double?) -> String { share.map(TextTable.percent) ?? "-" }
}
