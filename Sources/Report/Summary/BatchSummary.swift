import Scenarios
import Sim

/// The headline figures of a batch of runs, pooled over replications: what `keysim run` prints.
public struct BatchSummary: Sendable, Equatable {
    /// Key latency (touch to inserted), milliseconds.
    public var keyLatencyMs: SampleSummary
    /// The key budget.
    public var keyBudget: SimDuration
    /// Share of keys over the key budget.
    public var keyShareOverBudget: Double
    /// Round trips of cloud requests, milliseconds.
    public var requestRoundTripMs: SampleSummary
    /// Requests sent, all runs together.
    public var requests: Int
    /// Words typed, all runs together.
    public var words: Int
    /// Characters sent to the cloud, all runs together.
    public var charactersSent: Int
    /// Number of runs.
    public var runs: Int

    /// Pools the observations of `results`.
    public init(results: [RunResult], keyBudget: SimDuration) {
        let latencies = results.flatMap { $0.observations.keys.map { $0.latency.milliseconds } }
        keyLatencyMs = SampleSummary(latencies)
        self.keyBudget = keyBudget
        let over = results.reduce(0) { $0 + $1.observations.keys.filter { $0.latency > keyBudget }.count }
        keyShareOverBudget = latencies.isEmpty ? 0 : Double(over) / Double(latencies.count)
        requestRoundTripMs = SampleSummary(results.flatMap { $0.observations.requests.map { $0.roundTrip.milliseconds } })
        requests = results.reduce(0) { $0 + $1.observations.requests.count }
        words = results.reduce(0) { $0 + $1.summary.words }
        charactersSent = results.reduce(0) { $0 + $1.observations.requests.reduce(0) { $0 + $1.characters } }
        runs = results.count
    }

    /// Requests per 100 words typed.
    public var requestsPer100Words: Double { words > 0 ? 100 * Double(requests) / Double(words) : 0 }

    /// The table `keysim run` prints.
    public func table() -> String {
        var table = TextTable(headers: ["metric", "count", "p50", "p95", "p99", "max", "budget", "over budget"])
        let k = keyLatencyMs
        table.add(["key latency (ms)", "\(k.count)", TextTable.fixed(k.p50), TextTable.fixed(k.p95), TextTable.fixed(k.p99),
                   TextTable.fixed(k.max), TextTable.fixed(keyBudget.milliseconds, 0) + " ms", TextTable.percent(keyShareOverBudget)])
        let r = requestRoundTripMs
        table.add(["request round trip (ms)", "\(r.count)", TextTable.fixed(r.p50, 0), TextTable.fixed(r.p95, 0),
                   TextTable.fixed(r.p99, 0), TextTable.fixed(r.max, 0), "-", "-"])
        let perRun = runs > 0 ? Double(requests) / Double(runs) : 0
        return table.render()
            + "requests sent: \(requests) (\(TextTable.fixed(perRun, 1)) per run, \(TextTable.fixed(requestsPer100Words, 1)) per 100 words, \(charactersSent) characters)\n"
    }
}
