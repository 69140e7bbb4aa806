/// The cloud LLM checker: what it judges, how long it takes, what it costs and how it
/// pushes back. Every field is documented in `docs/models.md` ("Cloud") with its sources.
public struct CloudConfig: Sendable, Equatable {
    /// Time the model takes to answer (the seed: about 300 ms): the single service
    /// distribution, used unless `timesFromTokens`.
    public var service: Distribution = .lognormal(median: 300, p99: 900)
    /// Whether the service time comes from the request's tokens through `model` (the
    /// scenario's `cloud.model`) rather than from `service`.
    public var timesFromTokens = false
    /// The model: time to first token, prefill and decode per token, prompt caching. Its
    /// prompt cache decides the cached tokens of every request, whichever gives the time.
    public var model = CloudModel.preset(.nanoClass)
    /// What a request carries in tokens.
    public var tokens = TokenConfig()
    /// What tokens cost.
    public var pricing = PriceTable.preset(.nanoClass)
    /// Per-user and provider limits, and the provider's overload answers (none by default).
    public var limits = CloudLimits()
    /// The client's retry policy; `nil` for the one `network.maxAttempts`,
    /// `network.retryBackoffMs` and `network.retryBackoffMaxMs` describe.
    public var retry: RetryPolicy?
    /// Share of true errors it flags.
    public var recall: Double = 0.97
    /// Share of correct words it flags.
    public var falsePositiveRate: Double = 0.005
    /// What happens to a pending debounce and to requests in flight when the keyboard is
    /// hidden. `cancel` by default: iOS suspends a hidden keyboard extension within moments,
    /// so its timers would not fire and no answer could be shown; a request then would cost
    /// tokens for text the user already sent or left.
    public var whenHidden: PendingWorkRule = .cancel
    /// The same when the text field changes (a message sent, another field): `cancel` by
    /// default, since the text the timer was armed for, and every answer's words, are gone.
    public var whenFieldChanges: PendingWorkRule = .cancel
    /// Creates the default cloud.
    public init() {}
}
