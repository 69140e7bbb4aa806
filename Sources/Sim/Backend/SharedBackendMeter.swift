/// What a `SharedBackend` did up to a time: counts, and time integrals from which a sample
/// over any span (the difference of two readings) gives means — mean queue length, busy
/// replicas, batch size — exactly, with no sampling.
public struct SharedBackendMeter: Sendable, Equatable {
    /// Attempts that arrived (abandoned before arriving: not counted).
    public var arrivals = 0
    /// Attempts admitted to the queue.
    public var admitted = 0
    /// Attempts refused, by reason (indexed as `RejectionReason.allCases`).
    public var rejected = Array(repeating: 0, count: RejectionReason.allCases.count)
    /// Attempts whose service began.
    public var started = 0
    /// Attempts served to the last token.
    public var served = 0
    /// Attempts the clients gave up while they waited in the queue.
    public var abandoned = 0
    /// Sum of the queue waits of the attempts whose service began, nanoseconds.
    public var queueWaitNanos: Int64 = 0
    /// Input tokens (cached included) billed: of the attempts whose service began, billed
    /// from then on as providers bill.
    public var inputTokens: Int64 = 0
    /// Cached input tokens billed.
    public var cachedTokens: Int64 = 0
    /// Output tokens billed.
    public var outputTokens: Int64 = 0
    /// What the attempts billed cost, picodollars.
    public var costPicoUSD: Int64 = 0
    /// ∫ queue length dt, request-nanoseconds.
    public var queueLengthNanos: Int64 = 0
    /// ∫ replicas with a non-empty batch dt, replica-nanoseconds.
    public var busyReplicaNanos: Int64 = 0
    /// ∫ requests in batches dt, request-nanoseconds.
    public var batchedRequestNanos: Int64 = 0

    /// Creates an empty meter.
    public init() {}

    /// Refusals for `reason`.
    public func rejected(_ reason: RejectionReason) -> Int { rejected[reason.meterIndex] }
}

extension RejectionReason {
    /// The reason's place in `allCases`: its slot in a meter.
    var meterIndex: Int { Self.allCases.firstIndex(of: self)! }
}

extension SharedBackend {
    /// The meter read at `time` (no earlier than the backend's last action): the integrals
    /// run on at the queue length, busy replicas and batch sizes that hold since.
    public func meter(at time: SimTime) -> SharedBackendMeter {
        precondition(time >= clock, "a meter is read at or after the backend's time")
        var meter = meterSoFar
        let span = (time - clock).nanoseconds
        meter.queueLengthNanos += Int64(queue.count) * span
        for replica in replicas where !replica.isIdle {
            meter.busyReplicaNanos += span
            meter.batchedRequestNanos += Int64(replica.members.count) * span
        }
        return meter
    }
}
