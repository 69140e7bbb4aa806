/// One `RateLimit` in force: its request and token buckets.
struct RateLimiter: Sendable, Equatable {
    private var requests: TokenBucket?
    private var tokens: TokenBucket?

    init(_ limit: RateLimit) {
        if let rate = limit.requestsPerMinute, let burst = limit.effectiveRequestBurst {
            requests = TokenBucket(ratePerMinute: Int64(rate), capacity: Int64(burst))
        }
        if let rate = limit.tokensPerMinute, let burst = limit.effectiveTokenBurst {
            tokens = TokenBucket(ratePerMinute: Int64(rate), capacity: Int64(burst))
        }
    }

    /// Admits a request of `tokenCount` tokens at `now`, taking from both buckets, or says
    /// why not: which bucket, and how long until it would pass (`nil`: never).
    mutating func admit(tokenCount: Int, at now: SimTime) -> (requests: Bool, wait: SimDuration?)? {
        requests?.refill(to: now)
        tokens?.refill(to: now)
        let tokenCount = Int64(tokenCount)
        if let bucket = requests, let wait = bucket.wait(for: 1), wait > .zero { return (true, wait) }
        if let bucket = tokens {
            guard let wait = bucket.wait(for: tokenCount) else { return (false, nil) }
            if wait > .zero { return (false, wait) }
        }
        requests?.take(1)
        tokens?.take(tokenCount)
        return nil
    }

    func checkInvariants() {
        requests?.checkInvariants()
        tokens?.checkInvariants()
    }
}
