/// Who may send how much, and how the provider pushes back (`cloud.limits`): the app's own
/// backend keeps per-user limits (the seed's "per-user limits" beside the device token);
/// the provider keeps its own and answers overload. None are on by default.
public struct CloudLimits: Sendable, Equatable {
    /// The app backend's limits on each user; `nil` for none.
    public var perUser: RateLimit?
    /// The provider's limits on the app's account; `nil` for none.
    public var provider: RateLimit?
    /// The provider's overload answers (none by default).
    public var overload = OverloadConfig()
    /// Creates no limits.
    public init() {}

    /// Whether any limit keeps state (and so must see requests in the order they arrive).
    public var hasBuckets: Bool { perUser != nil || provider != nil }
}

/// Requests and tokens a minute, each a token bucket refilled continuously (as OpenAI and
/// Anthropic describe their limits). A request over either is answered 429 with a
/// `Retry-After` of the whole seconds until it would pass.
public struct RateLimit: Sendable, Equatable {
    /// Requests a minute; `nil` for no limit.
    public var requestsPerMinute: Int?
    /// Tokens a minute (input and output); `nil` for no limit.
    public var tokensPerMinute: Int?
    /// The request bucket's capacity; `nil` for one second's worth of `requestsPerMinute`
    /// (at least 1), as providers enforce a minute's limit over shorter spans.
    public var requestBurst: Int?
    /// The token bucket's capacity; `nil` for a minute's worth of `tokensPerMinute`.
    public var tokenBurst: Int?
    /// Creates a limit.
    public init(requestsPerMinute: Int? = nil, tokensPerMinute: Int? = nil, requestBurst: Int? = nil, tokenBurst: Int? = nil) {
        self.requestsPerMinute = requestsPerMinute
        self.tokensPerMinute = tokensPerMinute
        self.requestBurst = requestBurst
        self.tokenBurst = tokenBurst
    }

    /// The request bucket's capacity.
    public var effectiveRequestBurst: Int? { requestsPerMinute.map { requestBurst ?? max(1, $0 / 60) } }
    /// The token bucket's capacity.
    public var effectiveTokenBurst: Int? { tokensPerMinute.map { tokenBurst ?? $0 } }
}

/// The provider answers some requests "overloaded" (Anthropic's 529, OpenAI's 503), with no
/// `Retry-After`: a share of them at random (stream `cloud.overload`), and all of them in
/// the configured periods.
public struct OverloadConfig: Sendable, Equatable {
    /// Share of requests answered overloaded.
    public var share: Double = 0
    /// The status answered: 529 or 503.
    public var status = 529
    /// Periods, [start, end) in trace time, when every request is answered overloaded.
    public var periods: [Range<SimTime>] = []
    /// Creates no overload.
    public init() {}

    /// Whether the provider ever answers overloaded.
    public var isOn: Bool { share > 0 || !periods.isEmpty }
}
