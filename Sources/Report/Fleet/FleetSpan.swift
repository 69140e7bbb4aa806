import Sim

/// Consecutive minutes of a fleet's day added into one (an hour, the whole day), and the
/// figures read from them: rates and means per second of the span, percentiles of the
/// span's histograms.
public struct FleetSpan: Sendable, Equatable {
    /// The first minute's index.
    public var firstMinute: Int
    /// How many minutes it spans.
    public var minuteCount: Int
    /// Every figure of its minutes added; `replicas` is the sum of the minutes' replicas, so
    /// `utilisation` weighs each minute by the replicas it had.
    public var total: FleetMinute

    /// The span of `minutes` (consecutive, at least one).
    public init(_ minutes: some Collection<FleetMinute>) {
        precondition(!minutes.isEmpty, "a span holds a minute at least")
        var total = minutes.first!
        for var minute in minutes.dropFirst() {
            minute.minute = total.minute
            total.merge(minute)
        }
        firstMinute = total.minute
        minuteCount = minutes.count
        self.total = total
    }

    private var seconds: Double { Double(minuteCount) * Double(FleetMinute.lengthNanos) / 1e9 }

    /// Arrivals per second over the span.
    public var arrivalsPerSecond: Double { Double(total.backend.arrivals) / seconds }
    /// Mean queue length over the span.
    public var meanQueueLength: Double { Double(total.backend.queueLengthNanos) / (seconds * 1e9) }
    /// Mean requests in a busy replica's batch; nil when none was busy.
    public var meanBatch: Double? { total.meanBatch }
    /// Share of replica time serving a batch; nil with no replica.
    public var utilisation: Double? { total.utilisation }
    /// Refused / arrivals; nil for no arrival.
    public var rejectedShare: Double? { total.rejectedShare }
    /// Underlines with a verdict / underlines ended; nil for none.
    public var verdictCoverage: Double? { total.verdictCoverage }
    /// Refusals, every reason.
    public var rejected: Int { total.backend.rejected.reduce(0, +) }
    /// The p-th percentile of arrival to first token, ms; nil for none.
    public func firstTokenMs(_ percent: Double) -> Double? { FleetMinute.percentileMs(total.firstToken, percent) }
    /// The p-th percentile of word finished to verdict, ms; nil for none.
    public func verdictMs(_ percent: Double) -> Double? { FleetMinute.percentileMs(total.verdict, percent) }
}
