import Scenarios
import Sim

/// The `keysim fleet --json` document (`keysim.fleet`, docs/json-output.md).
extension FleetReport {
    /// The document: identity, the day's summary and the hours, then `report` (the file).
    /// `shard` is `K/N`, or nil for the whole fleet.
    public func jsonDocument(report path: String, shard: String?) -> JSONTree {
        let s = result.summary
        let summary: JSONTree = .object([
            ("sessions", .integer(s.sessions)), ("keys", .integer(s.keys)), ("requests", .integer(s.arrivals)),
            ("admitted", .integer(s.admitted)), ("rejected", .integer(s.rejected.reduce(0) { $0 + $1.count })),
            ("rejected_by_reason", .object(s.rejected.map { ($0.reason.rawValue, .integer($0.count)) })),
            ("input_tokens", .integer(s.inputTokens)), ("cached_tokens", .integer(s.cachedTokens)), ("output_tokens", .integer(s.outputTokens)),
            ("cost_usd", .number(s.costUSD)), ("cost_usd_per_day", .number(s.costUSDPerDay)),
            ("cost_usd_per_daily_user", .number(s.costUSDPerDailyUser)), ("rejected_share", .number(s.rejectedShare)),
            ("peak_arrivals_per_s", .number(s.peakArrivalsPerSecond)), ("peak_to_mean", .number(s.peakToMean)),
            ("busiest_hour", s.busiestHour.map { .integer($0) } ?? .null),
            ("busiest_hour_first_token_p95_ms", .number(s.busiestHourFirstTokenP95Ms)),
            ("busiest_hour_verdict_p95_ms", .number(s.busiestHourVerdictP95Ms)),
            ("first_token_p95_ms", .number(s.firstTokenP95Ms)), ("verdict_p95_ms", .number(s.verdictP95Ms)),
            ("verdict_coverage", .number(s.verdictCoverage)), ("utilisation", .number(s.utilisation)),
            ("sessions_open_max", .array(result.sessionsOpenMax.map { .integer($0) })),
        ])
        let hourRows: [JSONTree] = hours.map { hour, span in
            .object([
                ("hour", .integer(hour)), ("arrivals_per_s", .number(span.arrivalsPerSecond)),
                ("admitted", .integer(span.total.backend.admitted)), ("rejected", .integer(span.rejected)),
                ("queue_length_mean", .number(span.meanQueueLength)), ("batch_mean", .number(span.meanBatch)),
                ("utilisation", .number(span.utilisation)), ("first_token_p95_ms", .number(span.firstTokenMs(95))),
                ("verdict_p95_ms", .number(span.verdictMs(95))), ("verdict_coverage", .number(span.verdictCoverage)),
            ])
        }
        return JSONOutput.document("fleet", [
            ("scenario", .string(scenarioPath)), ("scenarioName", .string(result.scenarioName)), ("fingerprint", .string(result.fingerprint)),
            ("seed", .integer(Int64(bitPattern: result.seed))), ("users", .integer(result.users)), ("represents", .integer(result.represents)),
            ("partitionCount", .integer(result.partitionCount)), ("partitions", .array(result.partitions.map { .integer($0) })),
            ("shard", shard.map(JSONTree.string) ?? .null), ("startHour", .integer(result.startHour)),
            ("spanMinutes", .integer(result.spanMinutes)), ("dayShare", .number(result.dayShare)),
            ("minutes", .integer(result.minutes.count)), ("summary", summary), ("hours", .array(hourRows)), ("report", .string(path)),
        ])
    }
}
