import Sim

/// What the cloud cost a run, in tokens, dollars and refusals: the figures a debounce or
/// retry policy is priced by. Tokens and cost are computed for every request whatever gives
/// its service time (`docs/models.md`, "Cloud").
extension RunMetric {
    /// Input tokens billed per 100 words typed, cached ones included.
    public static let inputTokensPer100Words = RunMetric(
        name: "input_tokens_per_100_words", label: "input tokens per 100 words", unit: "per 100 words", lowerIsBetter: true,
        description: "Input tokens the cloud billed (system prompt and text, cached ones included) per 100 words of final text."
    ) { run in per100Words(run, run.observations.requests.reduce(0) { $0 + $1.inputTokens }) }

    /// Input tokens read from the prompt cache per 100 words typed: cheaper than fresh ones,
    /// but billed all the same, so fewer is better (the cost metrics weigh the two).
    public static let cachedTokensPer100Words = RunMetric(
        name: "cached_tokens_per_100_words", label: "cached input tokens per 100 words", unit: "per 100 words",
        lowerIsBetter: true,
        description: "Input tokens read from the provider's prompt cache, at the cached price, per 100 words of final text."
    ) { run in per100Words(run, run.observations.requests.reduce(0) { $0 + $1.cachedTokens }) }

    /// Output tokens billed per 100 words typed.
    public static let outputTokensPer100Words = RunMetric(
        name: "output_tokens_per_100_words", label: "output tokens per 100 words", unit: "per 100 words", lowerIsBetter: true,
        description: "Output tokens the cloud billed per 100 words of final text."
    ) { run in per100Words(run, run.observations.requests.reduce(0) { $0 + $1.outputTokens }) }

    /// Dollars the cloud cost per 1,000 words typed.
    public static let costUSDPer1000Words = RunMetric(
        name: "cost_usd_per_1000_words", label: "cloud cost (USD per 1,000 words)", unit: "USD per 1000 words",
        lowerIsBetter: true,
        description: "What the run's requests cost (tokens × the scenario's prices) per 1,000 words of final text."
    ) { run in
        guard run.summary.words > 0 else { return nil }
        return 1000.0 * costUSD(run) / Double(run.summary.words)
    }

    /// Dollars the cloud costs a user a day: the cost per word times the words a user types
    /// in a day (`cloud.pricing.wordsPerUserDay`, 180 by default; source in `docs/models.md`).
    public static let costUSDPerUserDay = RunMetric(
        name: "cost_usd_per_user_day", label: "cloud cost (USD per user-day)", unit: "USD per user-day", lowerIsBetter: true,
        description: "The cost per word times the words a user types in a day (`cloud.pricing.wordsPerUserDay`, default 180)."
    ) { run in
        guard run.summary.words > 0 else { return nil }
        return costUSD(run) / Double(run.summary.words) * run.wordsPerUserDay
    }

    /// Requests the backend refused at least once (a limit or an overload).
    public static let rejectedRequests = RunMetric(
        name: "rejected_requests", label: "requests refused", unit: "count", lowerIsBetter: true,
        description: "Requests the cloud backend refused at least once (a per-user or provider limit, or an overload)."
    ) { run in Double(run.observations.requests.count { $0.rejections > 0 }) }

    /// The cloud's cost metrics, in table order.
    static let cloudMetrics = [inputTokensPer100Words, cachedTokensPer100Words, outputTokensPer100Words, costUSDPer1000Words,
                               costUSDPerUserDay, rejectedRequests]

    /// `count` per 100 words of the run's final text; nil without words.
    private static func per100Words(_ run: Run, _ count: Int) -> Double? {
        run.summary.words > 0 ? 100.0 * Double(count) / Double(run.summary.words) : nil
    }

    /// The run's cloud cost, USD, summed exactly in picodollars first.
    private static func costUSD(_ run: Run) -> Double {
        Double(run.observations.requests.reduce(Int64(0)) { $0 + $1.costPicoUSD }) / 1e12
    }
}
