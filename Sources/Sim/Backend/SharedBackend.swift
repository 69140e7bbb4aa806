/// A backend that many sessions share, finite as a real one is: `replicas` model replicas,
/// each serving a batch of at most `maxBatch` requests with continuous batching
/// (`BatchingReplica`), one first-come-first-served queue with a limit in front of them,
/// admission control, per-user and global limits (the cloud's token buckets), a shared
/// prompt cache and prices. It answers every attempt `.later`: `.started` when the attempt
/// joins a batch (billed from then on), `.finished` when its last token is out or when it
/// is refused.
///
/// Order, so that a run is the same on every machine: attempts are taken in the order of
/// (arrival, submission); at one instant the backend first advances the replicas at an
/// iteration boundary (their finished requests leave), then takes the attempts that have
/// arrived (limits, queue limit, admission), then fills the replicas at a boundary from the
/// queue's head, each request to the one with the fewest requests (the lowest index on a
/// tie). Integer nanoseconds throughout; no random draw.
public struct SharedBackend: CloudBackend {
    /// The configuration.
    public let config: SharedBackendConfig
    var replicas: [BatchingReplica]
    /// Attempts submitted and not yet arrived, keyed by (arrival, submission).
    private var arriving = Heap<SharedBackendJob>()
    /// Attempts abandoned before they arrived (dropped when they do).
    private var abandonedEarly = Set<BackendAttemptID>()
    /// Admitted attempts waiting for a batch, first come first served.
    var queue = SharedBackendQueue()
    var userLimits: [Int: RateLimiter] = [:]
    var globalLimit: RateLimiter?
    /// When the shared prompt was last used, if ever.
    var promptLastUsed: SimTime?
    private var submissions = 0
    /// The latest time the backend acted at.
    public private(set) var clock = SimTime.zero
    /// What it did so far: counts and time integrals (`meter(at:)` reads it at any later time).
    private(set) var meterSoFar = SharedBackendMeter()
    /// `nextWake`, kept up to date by every change (a fleet reads it at every step).
    private var wakeAt: SimTime?

    /// Creates an idle backend.
    public init(config: SharedBackendConfig) {
        config.validate()
        self.config = config
        replicas = Array(repeating: BatchingReplica(), count: config.replicas)
        globalLimit = config.limits.provider.map(RateLimiter.init)
    }

    public mutating func submit(_ request: BackendRequest, arrivingAt arrival: SimTime) -> BackendReceipt {
        precondition(arrival >= clock, "an attempt arrives no earlier than the backend's time")
        let job = SharedBackendJob(request: request, arrival: arrival, sequence: submissions)
        arriving.insert(job, key: UInt128(UInt64(arrival.nanoseconds)) << 64 | UInt128(submissions))
        submissions += 1
        wakeAt = min(wakeAt ?? arrival, arrival)
        return .later
    }

    /// The earliest of the next arrival and, per busy replica, its next boundary when the
    /// queue waits and the batch has room, else its next finish.
    /// - Complexity: O(1): kept by `submit`, `wake` and `abandon`, each already O(R) or less.
    public var nextWake: SimTime? { wakeAt }

    /// `nextWake` worked out afresh, O(R).
    func earliestWake() -> SimTime? {
        var wake = arriving.isEmpty ? nil : SimTime(nanoseconds: Int64(arriving.minKeyOrMax >> 64))
        for replica in replicas where !replica.isIdle {
            let hasRoom = replica.members.count < config.maxBatch
            let at = !queue.isEmpty && hasRoom ? replica.nextBoundary(atOrAfter: clock) : replica.nextFinish!
            wake = min(wake ?? at, at)
        }
        return wake
    }

    public mutating func wake(at now: SimTime) -> [BackendReply] {
        precondition(now >= clock, "the backend's time never goes backwards")
        meterSoFar = meter(at: now)
        clock = now
        var replies: [BackendReply] = []
        // 1. Replicas at a boundary: their finished requests leave.
        var atBoundary: [Int] = []
        for index in replicas.indices where replicas[index].isAtBoundary(now) {
            atBoundary.append(index)
            for member in replicas[index].advance(to: now) { replies.append(finished(member, at: now)) }
        }
        // 2. Arrivals, in (arrival, submission) order.
        while !arriving.isEmpty, SimTime(nanoseconds: Int64(arriving.minKeyOrMax >> 64)) <= now {
            let job = arriving.removeMin().value
            if abandonedEarly.remove(job.request.id) != nil { continue }
            meterSoFar.arrivals += 1
            if let rejection = admit(job, at: now) {
                meterSoFar.rejected[rejection.reason.meterIndex] += 1
                replies.append(BackendReply(id: job.request.id, message: .finished(.rejected(rejection))))
            } else {
                meterSoFar.admitted += 1
                queue.append(job)
            }
        }
        // 3. The queue's head fills the replicas at a boundary.
        while !queue.isEmpty, let index = emptiestWithRoom(atBoundary) {
            var job = queue.removeFirst()
            prepare(&job, at: now)
            replicas[index].join(job, at: now)
            meterSoFar.started += 1
            meterSoFar.queueWaitNanos += (now - job.arrival).nanoseconds
            meterSoFar.inputTokens += Int64(job.bill.inputTokens)
            meterSoFar.cachedTokens += Int64(job.bill.cachedTokens)
            meterSoFar.outputTokens += Int64(job.bill.outputTokens)
            meterSoFar.costPicoUSD += job.bill.costPicoUSD
            replies.append(BackendReply(id: job.request.id, message: .started(job.bill)))
        }
        for index in atBoundary { replicas[index].beginSegment(cost: config.iteration) }
        wakeAt = earliestWake()
        #if KEYSIM_INTERNAL_CHECKS
        checkInvariants()
        #endif
        return replies
    }

    /// The replica at a boundary with room and the fewest requests (the lowest index on a tie).
    private func emptiestWithRoom(_ candidates: [Int]) -> Int? {
        var best: Int?
        for index in candidates where replicas[index].members.count < config.maxBatch {
            if best == nil || replicas[index].members.count < replicas[best!].members.count { best = index }
        }
        return best
    }

    /// The prompt cache and the bill of an attempt whose service begins at `now`.
    private mutating func prepare(_ job: inout SharedBackendJob, at now: SimTime) {
        let cached = cachedTokens(job.request, at: now)
        let written = cached == 0 && job.request.cacheableTokens >= config.promptCache.minTokens ? job.request.cacheableTokens : 0
        if job.request.cacheableTokens >= config.promptCache.minTokens { promptLastUsed = now }
        job.prefillTokens = job.request.inputTokens - cached
        let cost = config.pricing.costPicoUSD(freshInput: job.request.inputTokens - cached - written, cacheWritten: written,
                                              cached: cached, output: job.request.outputTokens)
        job.bill = BackendBill(inputTokens: job.request.inputTokens, cachedTokens: cached, outputTokens: job.request.outputTokens,
                               costPicoUSD: cost)
    }

    /// The input tokens of `request` the shared prompt cache holds at `now`.
    func cachedTokens(_ request: BackendRequest, at now: SimTime) -> Int {
        guard request.cacheableTokens >= config.promptCache.minTokens, let last = promptLastUsed,
              now - last <= config.promptCache.ttl else { return 0 }
        return request.cacheableTokens
    }

    /// The reply of a member whose last token is out at `now`.
    private mutating func finished(_ member: BatchingReplica.Member, at now: SimTime) -> BackendReply {
        let job = member.job
        meterSoFar.served += 1
        let service = BackendService(service: now - job.arrival, firstToken: member.firstToken! - job.arrival,
                                     queueWait: member.started - job.arrival, bill: job.bill)
        return BackendReply(id: job.request.id, message: .finished(.served(service)))
    }

    public mutating func abandon(_ attempt: BackendAttemptID, at now: SimTime) {
        // The integrals run to now at the queue length before the removal.
        meterSoFar = meter(at: max(now, clock))
        clock = max(now, clock)
        if queue.remove(attempt) {
            meterSoFar.abandoned += 1
        } else {
            var arriving = false
            self.arriving.forEachUnordered { _, job in arriving = arriving || job.request.id == attempt }
            if arriving { abandonedEarly.insert(attempt) }
        }
        wakeAt = earliestWake()
    }

    public var isIdle: Bool { arriving.isEmpty && queue.isEmpty && replicas.allSatisfy(\.isIdle) }
}
