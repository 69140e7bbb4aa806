// The figures a minute is read as: rates, means and percentiles from its additive parts.

extension FleetMinute {
    /// A minute, nanoseconds.
    public static let lengthNanos: Int64 = 60_000_000_000

    /// Attempts arriving per second.
    public var arrivalsPerSecond: Double { Double(backend.arrivals) / 60 }
    /// Mean attempts waiting in the queue.
    public var meanQueueLength: Double { Double(backend.queueLengthNanos) / Double(Self.lengthNanos) }
    /// Mean sessions open.
    public var meanOpenSessions: Double { Double(openSessionNanos) / Double(Self.lengthNanos) }
    /// Share of replica time with a non-empty batch, 0…1; nil with no replica.
    public var utilisation: Double? {
        replicas == 0 ? nil : Double(backend.busyReplicaNanos) / (Double(replicas) * Double(Self.lengthNanos))
    }
    /// Mean requests in a batch while the replica serves one; nil when no replica was busy.
    public var meanBatch: Double? {
        backend.busyReplicaNanos == 0 ? nil : Double(backend.batchedRequestNanos) / Double(backend.busyReplicaNanos)
    }
    /// Mean queue wait of the attempts whose service began in this minute, ms; nil for none.
    public var meanQueueWaitMs: Double? {
        backend.started == 0 ? nil : Double(backend.queueWaitNanos) / Double(backend.started) / 1e6
    }
    /// Share of the local underlines ending in this minute that had a verdict; nil for none.
    public var verdictCoverage: Double? {
        underlinesEnded == 0 ? nil : Double(underlinesWithVerdict) / Double(underlinesEnded)
    }
    /// Share of the arrivals refused; nil for none.
    public var rejectedShare: Double? {
        backend.arrivals == 0 ? nil : Double(backend.rejected.reduce(0, +)) / Double(backend.arrivals)
    }
    /// The `percent`th percentile (nearest rank, bucket midpoint) of a histogram, ms; nil
    /// when empty.
    public static func percentileMs(_ histogram: LatencyHistogram, _ percent: Double) -> Double? {
        histogram.count == 0 ? nil : histogram.percentile(percent) / 1e6
    }
}
