/// What `--replications auto` is asked for: the most replications it may run, how narrow
/// the intervals must be, and which metrics are held to it.
public struct ReplicationPlan: Sendable, Equatable {
    /// The most replications per trace.
    public var maximum: Int
    /// The precision every checked metric must reach.
    public var target: PrecisionTarget
    /// The metrics held to the target; nil for every run metric.
    public var metrics: [String]?
    /// Whether the first two batches are a pair (a comparison): then the interval is that
    /// of the paired difference B − A, relative to A's mean; otherwise that of each batch's
    /// mean.
    public var paired: Bool

    /// The replications of the first round.
    public static let firstRound = 5
    /// The default `--max-replications`.
    public static let defaultMaximum = 100

    /// Creates a plan.
    public init(maximum: Int, target: PrecisionTarget = .standard, metrics: [String]? = nil, paired: Bool) {
        precondition(maximum >= 1)
        self.maximum = maximum
        self.target = target
        self.metrics = metrics
        self.paired = paired
    }

    /// The replication counts after each round: 5, 10, 15, 22, 33, … (each round adds
    /// five or half the count so far, whichever is more), ending at `maximum`. The same
    /// plan always gives the same counts: none of them depends on threads or timing.
    public var rounds: [Int] {
        var counts = [min(Self.firstRound, maximum)]
        while counts.last! < maximum {
            let n = counts.last!
            counts.append(min(maximum, max(n + Self.firstRound, n + n / 2)))
        }
        return counts
    }
}
