import Sim

/// The `keysim fleet --json` document (`keysim.fleet`, docs/json-output.md).
extension FleetReport {
    /// The document: identity, the day's summary and the hours, then `report` (the file) and
    /// `shard` (`K/N`, or null for the whole fleet).
    public func jsonDocument(report path: String, shard: String?) -> JSONTree {
        let day = day
        let busiest = busiestHour.map { hours[$0] }
        let summary: JSONTree = .object([
            ("sessions", .integer(sessions)), ("keys", .integer(keys)), ("requests", .integer(day.total.backend.arrivals)),
            ("admitted", .integer(day.total.backend.admitted)), ("rejected", .integer(day.rejected)),
            ("rejected_by_reason", .object(zip(RejectionReason.allCases.map(\.rawValue), day.total.backend.rejected).map { ($0, .integer($1)) })),
            ("input_tokens", .integer(day.total.backend.inputTokens)), ("cached_tokens", .integer(day.total.backend.cachedTokens)),
            ("output_tokens", .integer(day.total.backend.outputTokens)),
            ("cost_usd_per_day", .number(costUSDPerDay)), ("cost_usd_per_daily_user", .number(costUSDPerDailyUser)),
            ("rejected_share", .number(day.rejectedShare)), ("peak_arrivals_per_s", .number(peakArrivalsPerSecond)),
            ("peak_to_mean", .number(peakToMean)), ("busiest_hour", busiestHour.map { .integer($0) } ?? .null),
            ("busiest_hour_first_token_p95_ms", .number(busiest?.firstTokenMs(95))),
            ("busiest_hour_verdict_p95_ms", .number(busiest?.verdictMs(95))),
            ("verdict_coverage", .number(day.verdictCoverage)), ("utilisation", .number(day.utilisation)),
            ("sessions_open_max", .array(sessionsOpenMax.map { .integer($0) })),
        ])
        let hourRows: [JSONTree] = hours.enumerated().map { hour, span in
            .object([
                ("hour", .integer(hour)), ("arrivals_per_s", .number(span.arrivalsPerSecond)),
                ("admitted", .integer(span.total.backend.admitted)), ("rejected", .integer(span.rejected)),
                ("queue_length_mean", .number(span.meanQueueLength)), ("batch_mean", .number(span.meanBatch)),
                ("utilisation", .number(span.utilisation)), ("first_token_p95_ms", .number(span.firstTokenMs(95))),
                ("verdict_p95_ms", .number(span.verdictMs(95))), ("verdict_coverage", .number(span.verdictCoverage)),
            ])
        }
        return JSONOutput.document("fleet", [
            ("scenario", .string(scenarioPath)), ("scenarioName", .string(scenarioName)), ("fingerprint", .string(fingerprint)),
            ("seed", .integer(Int64(bitPattern: seed))), ("users", .integer(users)), ("represents", .integer(represents)),
            ("partitionCount", .integer(partitionCount)), ("partitions", .array(partitions.map { .integer($0) })),
            ("shard", shard.map(JSONTree.string) ?? .null), ("minutes", .integer(minutes.count)),
            ("summary", summary), ("hours", .array(hourRows)), ("report", .string(path)),
        ])
    }
}
