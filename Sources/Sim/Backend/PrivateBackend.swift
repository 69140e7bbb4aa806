/// One user's cloud, as a keyboard simulated alone sees it: infinite replicas (no queue),
/// the app backend's per-user limits, the provider's limits and overload answers, the
/// service model, the prompt cache and the prices. It decides every attempt at once.
///
/// Without limits it decides each attempt at its arrival. With limits, whose buckets must
/// see time move forward, attempts are decided in the order they were sent, each at its
/// arrival or at the previous decision, whichever is later: the requests of one connection
/// arrive in the order they were sent (TCP delivers in order).
///
/// Random streams: `cloud.service` (the single service distribution), `cloud.first-token`
/// (the token model), `cloud.overload` (overload answers; drawn only with a share above 0).
public struct PrivateBackend: CloudBackend {
    private let config: CloudConfig
    private var serviceTimes: RandomStream
    private var firstTokens: RandomStream
    private var overloads: RandomStream
    private var userLimit: RateLimiter?
    private var providerLimit: RateLimiter?
    /// When the cached prompt was last used, if it ever was.
    private var promptLastUsed: SimTime?
    /// The last decision's time (only kept with limits).
    private var decided = SimTime.zero

    /// Creates the backend; `stream` gives a named random stream.
    public init(config: CloudConfig, stream: (String) -> RandomStream) {
        self.config = config
        serviceTimes = stream("cloud.service")
        firstTokens = stream("cloud.first-token")
        overloads = stream("cloud.overload")
        userLimit = config.limits.perUser.map(RateLimiter.init)
        providerLimit = config.limits.provider.map(RateLimiter.init)
    }

    public mutating func submit(_ request: BackendRequest, arrivingAt arrival: SimTime) -> BackendReceipt {
        var at = arrival
        if config.limits.hasBuckets {
            at = max(arrival, decided)
            decided = at
        }
        if let rejection = admit(request, at: at) { return .decided(.rejected(rejection), repliesAt: at) }
        let service = serve(request, at: at)
        return .decided(.served(service), repliesAt: at + service.service)
    }

    /// The limits and the overload answers, in the order a request meets them: the app
    /// backend's, then the provider's.
    private mutating func admit(_ request: BackendRequest, at now: SimTime) -> BackendRejection? {
        let tokens = request.inputTokens + request.outputTokens
        if let refusal = userLimit?.admit(tokenCount: tokens, at: now) ?? nil {
            return Self.rejection(refusal, requests: .userRequests, tokens: .userTokens)
        }
        if let refusal = providerLimit?.admit(tokenCount: tokens, at: now) ?? nil {
            return Self.rejection(refusal, requests: .providerRequests, tokens: .providerTokens)
        }
        let overload = config.limits.overload
        if overload.periods.contains(where: { $0.contains(now) }) || (overload.share > 0 && overloads.bernoulli(overload.share)) {
            return BackendRejection(reason: .overloaded, status: overload.status, retryAfter: nil)
        }
        return nil
    }

    static func rejection(_ refusal: (requests: Bool, wait: SimDuration?), requests: RejectionReason,
                                  tokens: RejectionReason) -> BackendRejection {
        guard let wait = refusal.wait else { return BackendRejection(reason: .tooLarge, status: 429, retryAfter: nil) }
        // `Retry-After` is whole seconds (RFC 9110), rounded up so that a retry then passes.
        let second: Int64 = 1_000_000_000
        let seconds = max(1, (wait.nanoseconds + second - 1) / second)
        return BackendRejection(reason: refusal.requests ? requests : tokens, status: 429, retryAfter: .seconds(seconds))
    }

    /// Serves an admitted request: the prompt cache, the service time, the bill.
    private mutating func serve(_ request: BackendRequest, at now: SimTime) -> BackendService {
        let cache = config.model.promptCache
        let cacheable = request.cacheableTokens >= cache.minTokens ? request.cacheableTokens : 0
        var cached = 0, written = 0
        if cacheable > 0 {
            if let until = promptLastUsed, now - until <= cache.ttl { cached = cacheable } else { written = cacheable }
            promptLastUsed = now
        }
        let fresh = request.inputTokens - cached - written
        let firstToken: SimDuration, service: SimDuration
        if config.timesFromTokens {
            let draw = config.model.firstToken.sampleDuration(&firstTokens)
            firstToken = draw + config.model.prefillTime(uncachedInputTokens: request.inputTokens - cached)
            service = config.model.serviceTime(firstToken: draw, uncachedInputTokens: request.inputTokens - cached,
                                               outputTokens: request.outputTokens)
        } else {
            service = config.service.sampleDuration(&serviceTimes)
            firstToken = service
        }
        let cost = config.pricing.costPicoUSD(freshInput: fresh, cacheWritten: written, cached: cached, output: request.outputTokens)
        return BackendService(service: service, firstToken: firstToken, queueWait: .zero,
                              bill: BackendBill(inputTokens: request.inputTokens, cachedTokens: cached, outputTokens: request.outputTokens,
                                                costPicoUSD: cost))
    }

    /// Checks the buckets' levels.
    public func checkInvariants() {
        userLimit?.checkInvariants()
        providerLimit?.checkInvariants()
    }
}
