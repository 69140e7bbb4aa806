// Meters add and subtract field by field: every field is a count, a sum or a time integral,
// so the meter of a span is the difference of two readings, and the meter of two backends
// (two partitions of a fleet) is the sum of theirs.

extension SharedBackendMeter {
    /// Every field of `lhs` minus the same field of `rhs`: what happened between two readings.
    public static func - (lhs: SharedBackendMeter, rhs: SharedBackendMeter) -> SharedBackendMeter {
        lhs.combined(with: rhs, -)
    }

    /// Every field of both added.
    public static func + (lhs: SharedBackendMeter, rhs: SharedBackendMeter) -> SharedBackendMeter {
        lhs.combined(with: rhs, +)
    }

    /// Adds `rhs` field by field.
    public static func += (lhs: inout SharedBackendMeter, rhs: SharedBackendMeter) { lhs = lhs + rhs }

    private func combined(with other: SharedBackendMeter, _ op: (Int64, Int64) -> Int64) -> SharedBackendMeter {
        func int(_ a: Int, _ b: Int) -> Int { Int(op(Int64(a), Int64(b))) }
        var meter = SharedBackendMeter()
        meter.arrivals = int(arrivals, other.arrivals)
        meter.admitted = int(admitted, other.admitted)
        meter.rejected = zip(rejected, other.rejected).map(int)
        meter.started = int(started, other.started)
        meter.served = int(served, other.served)
        meter.abandoned = int(abandoned, other.abandoned)
        meter.queueWaitNanos = op(queueWaitNanos, other.queueWaitNanos)
        meter.inputTokens = op(inputTokens, other.inputTokens)
        meter.cachedTokens = op(cachedTokens, other.cachedTokens)
        meter.outputTokens = op(outputTokens, other.outputTokens)
        meter.costPicoUSD = op(costPicoUSD, other.costPicoUSD)
        meter.queueLengthNanos = op(queueLengthNanos, other.queueLengthNanos)
        meter.busyReplicaNanos = op(busyReplicaNanos, other.busyReplicaNanos)
        meter.batchedRequestNanos = op(batchedRequestNanos, other.batchedRequestNanos)
        return meter
    }
}
