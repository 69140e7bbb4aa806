/// When the cloud client tries a request again (`cloud.retry`): after a rejection that
/// carries a `Retry-After`, exactly then (when honoured); otherwise after an exponential
/// backoff — `base` doubled for each attempt made, at most `cap` — of which "full jitter"
/// waits a uniform share (AWS's "Exponential Backoff and Jitter", 2015), at most
/// `maxAttempts` attempts in all. A request whose text a newer request already carries is
/// not tried again (`dropSuperseded`): the newer one asks the cloud about the same words.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts per request, the first included.
    public var maxAttempts: Int
    /// The first backoff.
    public var base: SimDuration
    /// The longest backoff.
    public var cap: SimDuration
    /// How much of the backoff is waited.
    public var jitter: RetryJitter
    /// Whether a rejection's `Retry-After` sets the wait.
    public var honourRetryAfter: Bool
    /// Whether a request superseded by a newer one is dropped rather than tried again.
    public var dropSuperseded: Bool

    /// Creates a policy.
    public init(maxAttempts: Int, base: SimDuration, cap: SimDuration, jitter: RetryJitter, honourRetryAfter: Bool,
                dropSuperseded: Bool) {
        self.maxAttempts = maxAttempts
        self.base = base
        self.cap = cap
        self.jitter = jitter
        self.honourRetryAfter = honourRetryAfter
        self.dropSuperseded = dropSuperseded
    }

    /// What `cloud.retry` starts from: 4 attempts, 500 ms doubled up to 8 s, full jitter,
    /// `Retry-After` honoured, superseded requests dropped.
    public static let standard = RetryPolicy(maxAttempts: 4, base: .milliseconds(500), cap: .milliseconds(8_000),
                                             jitter: .full, honourRetryAfter: true, dropSuperseded: true)

    /// The policy of a scenario without `cloud.retry`: the network's attempts and backoff,
    /// no jitter, every failed request tried again (keysim's first client).
    public static func legacy(_ network: NetworkConfig) -> RetryPolicy {
        RetryPolicy(maxAttempts: network.maxAttempts, base: network.retryBackoff, cap: network.retryBackoffMax, jitter: .none,
                    honourRetryAfter: true, dropSuperseded: false)
    }

    /// The wait before the next attempt of a request that has made `attempts` attempts: the
    /// exponential backoff `base × 2^(attempts − 1)`, each doubling capped at `cap`, jittered
    /// from `draws` (drawn only under full jitter).
    public func backoff(afterAttempts attempts: Int, draws: inout RandomStream) -> SimDuration {
        var ceiling = base
        for _ in 1..<max(attempts, 1) { ceiling = min(ceiling * 2, cap) }
        switch jitter {
        case .none: return ceiling
        case .full: return SimDuration(nanoseconds: Int64(draws.nextInt(below: Int(ceiling.nanoseconds) + 1)))
        }
    }
}

/// How much of an exponential backoff is waited.
public enum RetryJitter: String, Sendable, Equatable, CaseIterable {
    /// All of it.
    case none
    /// A uniform draw between zero and all of it (stream `cloud.retry-jitter`).
    case full
}
