/// One minute of a fleet's day: what the shared backend did and what the users saw, kept in
/// additive form (counts, sums, time integrals and histograms) so that the minutes of
/// independent partitions add up, by `merge`, to exactly the minute one machine running them
/// all would report. Means and percentiles are read from it (`FleetMinute+Figures`), never
/// stored.
///
/// Which minute a thing belongs to: an arrival, a refusal or a start to the minute it
/// happened in; an answered request's first token and service to the minute its answer
/// reached the keyboard; a verdict to the minute it came in; the
/// integrals (queue length, busy replicas, batched requests, open sessions) are cut at the
/// minute's boundaries.
public struct FleetMinute: Sendable, Equatable {
    /// 0-based minute of the day.
    public var minute: Int
    /// Model replicas serving in this minute (summed over partitions).
    public var replicas: Int
    /// The backend's meter over this minute: the difference of its readings at the minute's
    /// end and start (`SharedBackendMeter.-`).
    public var backend = SharedBackendMeter()
    /// Sessions that started in this minute.
    public var sessionsStarted = 0
    /// ∫ open sessions dt over the minute, session-nanoseconds.
    public var openSessionNanos: Int64 = 0
    /// Keys the sessions handled in this minute.
    public var keys = 0
    /// Arrival to first token of the answered requests' served attempts, in the minute the
    /// answer reached the keyboard, ns.
    public var firstToken = LatencyHistogram()
    /// Arrival to last token of the same attempts, in the same minute, ns.
    public var service = LatencyHistogram()
    /// Word finished to the cloud's verdict on its local underline, for the verdicts that
    /// came in this minute, ns (`underline_verdict_p95_ms` is the same figure for one run).
    public var verdict = LatencyHistogram()
    /// Local underlines whose chip ended in this minute (`verdict_coverage`'s denominator).
    public var underlinesEnded = 0
    /// Of those, the ones the cloud gave a verdict on in time.
    public var underlinesWithVerdict = 0

    /// An empty minute.
    public init(minute: Int, replicas: Int) {
        self.minute = minute
        self.replicas = replicas
    }

    /// Adds the same minute of another partition: every count, sum, integral and histogram
    /// adds, the replicas too.
    public mutating func merge(_ other: FleetMinute) {
        precondition(other.minute == minute, "minutes merge with the same minute")
        replicas += other.replicas
        backend += other.backend
        sessionsStarted += other.sessionsStarted
        openSessionNanos += other.openSessionNanos
        keys += other.keys
        firstToken.merge(other.firstToken)
        service.merge(other.service)
        verdict.merge(other.verdict)
        underlinesEnded += other.underlinesEnded
        underlinesWithVerdict += other.underlinesWithVerdict
    }
}
