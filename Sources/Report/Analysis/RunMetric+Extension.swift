import Sim

extension RunMetric {
    /// Times the system killed the extension for going over its memory limit.
    public static let kills = RunMetric(
        name: "kills", label: "extension kills", unit: "count", lowerIsBetter: true,
        description: "Times the extension's memory footprint went over the limit and the system killed it."
    ) { run in Double(run.observations.extensionRecords.kills.count) }

    /// Corrupt language models loaded: partial files loaded without verification.
    public static let corruptLoads = RunMetric(
        name: "corrupt_loads", label: "corrupt models loaded", unit: "count", lowerIsBetter: true,
        description: "Partial language files loaded as if complete (no SHA-256 verification): silently wrong models."
    ) { run in Double(run.observations.extensionRecords.corruptLoads) }

    /// Suggestion bars computed by a corrupt model.
    public static let silentlyWrongSuggestions = RunMetric(
        name: "silently_wrong_suggestions", label: "suggestions from a corrupt model", unit: "count", lowerIsBetter: true,
        description: "Suggestion bars shown while the language in use had a corrupt model loaded."
    ) { run in Double(run.observations.extensionRecords.totals.silentlyWrongSuggestions) }

    /// Requests the server refused for their device token (expired or revoked).
    public static let tokenRejectedRequests = RunMetric(
        name: "token_rejected_requests", label: "token rejections", unit: "count", lowerIsBetter: true,
        description: "Request attempts the server refused because their device token was expired or revoked."
    ) { run in Double(run.observations.extensionRecords.tokenRejections.count) }

    /// Latency the token rejections added to the run's requests, in all.
    public static let tokenAddedLatencyMs = RunMetric(
        name: "token_added_latency_ms", label: "latency added by token rejections (ms)", unit: "ms", lowerIsBetter: true,
        description: "Time from attempts refused for an expired token to their retries with a refreshed token, summed over the run."
    ) { run in
        let rejections = run.observations.extensionRecords.tokenRejections
        return Double(rejections.reduce(Int64(0)) { $0 + ($1.reason == .expired ? $1.added.nanoseconds : 0) }) / 1e6
    }

    /// The metrics of the extension's life, in table order.
    static let extensionMetrics: [RunMetric] = [kills, corruptLoads, silentlyWrongSuggestions, tokenRejectedRequests, tokenAddedLatencyMs]
}
