/// A shared, finite backend (`SharedBackend`): replicas serving with continuous batching, a
/// queue with a limit, admission control, limits and prices. Every figure of the presets is
/// in `docs/models.md` ("Shared backend") with its source and date.
public struct SharedBackendConfig: Sendable, Equatable {
    /// Model replicas, each serving one batch (one GPU, or one tensor-parallel group).
    public var replicas: Int
    /// The most requests in a replica's batch at once.
    public var maxBatch: Int
    /// How long an iteration takes.
    public var iteration: IterationCost
    /// The most requests waiting for a batch; one more is refused (503, `queue-full`).
    public var queueLimit: Int
    /// Admission control; `nil` admits every request the queue has room for.
    public var admission: AdmissionControl?
    /// Per-user limits (each user its own buckets) and the backend's global limits (the
    /// `provider` limit, one set of buckets for everyone); the overload answers are not used.
    public var limits: CloudLimits
    /// The prompt cache, shared by every user (the system prompt is the same for all).
    public var promptCache: PromptCacheConfig
    /// What tokens cost.
    public var pricing: PriceTable

    /// Creates a configuration; every default is the `selfHostedSmall` preset's but
    /// admission control, which is off unless given.
    public init(replicas: Int = 1, maxBatch: Int = 8, iteration: IterationCost = .selfHostedSmall, queueLimit: Int = 64,
                admission: AdmissionControl? = nil,
                limits: CloudLimits = CloudLimits(), promptCache: PromptCacheConfig = PromptCacheConfig(ttl: .seconds(300), minTokens: 1_024),
                pricing: PriceTable = .preset(.nanoClass)) {
        self.replicas = replicas
        self.maxBatch = maxBatch
        self.iteration = iteration
        self.queueLimit = queueLimit
        self.admission = admission
        self.limits = limits
        self.promptCache = promptCache
        self.pricing = pricing
    }

    /// The time of one continuous-batching iteration: a fixed part, a part per request in
    /// the batch, and a part per prompt token prefilled in it (the requests that joined at
    /// its start):
    ///
    ///     iteration = base + perRequest × batch size + perPrefillToken × prefill tokens
    public struct IterationCost: Sendable, Equatable {
        /// The fixed part, nanoseconds (reading the weights once).
        public var baseNanos: Int64
        /// Per request in the batch, nanoseconds (its KV cache and its token).
        public var perRequestNanos: Int64
        /// Per prompt token prefilled in the iteration, nanoseconds.
        public var perPrefillTokenNanos: Int64
        /// Creates an iteration cost.
        public init(baseNanos: Int64, perRequestNanos: Int64, perPrefillTokenNanos: Int64) {
            self.baseNanos = baseNanos
            self.perRequestNanos = perRequestNanos
            self.perPrefillTokenNanos = perPrefillTokenNanos
        }

        /// The `selfHostedSmall` preset's iteration: 12.9 ms + 0.4 ms a request + 0.1 ms a
        /// prompt token.
        public static let selfHostedSmall = IterationCost(baseNanos: 12_900_000, perRequestNanos: 400_000, perPrefillTokenNanos: 100_000)

        /// An iteration of `batch` requests prefilling `prefillTokens` tokens.
        public func nanos(batch: Int, prefillTokens: Int) -> Int64 {
            baseNanos + perRequestNanos * Int64(batch) + perPrefillTokenNanos * Int64(prefillTokens)
        }
    }

    /// Refuse a request on arrival when its predicted time to first token would break a
    /// target: better a fast "no" the client retries or carries over than a late answer.
    public struct AdmissionControl: Sendable, Equatable {
        /// The longest predicted arrival-to-first-token time admitted.
        public var firstTokenTarget: SimDuration
        /// The status a refusal answers: 503 (overloaded) or 429.
        public var status: Int
        /// The `Retry-After` sent with a refusal, if any.
        public var retryAfter: SimDuration?
        /// Creates admission control.
        public init(firstTokenTarget: SimDuration, status: Int = 503, retryAfter: SimDuration? = nil) {
            self.firstTokenTarget = firstTokenTarget
            self.status = status
            self.retryAfter = retryAfter
        }
    }

    /// The presets.
    public enum Preset: String, Sendable, CaseIterable {
        /// A small open model self-hosted on one GPU: Llama-3.1-8B on one A100 under vLLM.
        case selfHostedSmall = "self-hosted-small"
        /// A hosted API's share of a provider's fleet for a nano-class model.
        case hostedAPI = "hosted-api"
    }

    /// A preset's configuration (sources in `docs/models.md`, "Shared backend").
    ///
    /// - `selfHostedSmall`: one replica, batches of at most 8 (the knee of a vLLM concurrency
    ///   sweep of Llama-3.1-8B on one A100: 75 tokens/s alone, 6.6× the throughput at 8 at
    ///   almost no latency cost); an iteration of 12.9 ms + 0.4 ms a request (13.3 ms alone,
    ///   16.1 ms at 8) + 0.1 ms a prefilled token (16 GFLOP a token at half of the A100's
    ///   312 TFLOPS); a queue of 64; admission at MLPerf Inference's interactive limit of
    ///   450 ms to the first token.
    /// - `hostedAPI`: 16 replicas of batches of 64 whose full iteration is the nano class's
    ///   decode time per token (181 tokens/s: 5.524862 ms = 3.924862 ms + 0.025 ms a
    ///   request), its prefill per token (a hundredth of decode, LLMPerf's rule of thumb:
    ///   55.248 µs), a queue of 1,024, admission at 450 ms; nano-class prices.
    public static func preset(_ preset: Preset) -> SharedBackendConfig {
        switch preset {
        case .selfHostedSmall:
            SharedBackendConfig(admission: AdmissionControl(firstTokenTarget: .milliseconds(450)))
        case .hostedAPI:
            SharedBackendConfig(replicas: 16, maxBatch: 64,
                                iteration: IterationCost(baseNanos: 3_924_862, perRequestNanos: 25_000, perPrefillTokenNanos: 55_248),
                                queueLimit: 1_024, admission: AdmissionControl(firstTokenTarget: .milliseconds(450)))
        }
    }

    /// Checks the figures a backend needs; a programmer error otherwise.
    func validate() {
        precondition(replicas >= 1 && maxBatch >= 1 && queueLimit >= 0, "a backend has replicas, a batch and a queue")
        precondition(iteration.baseNanos + iteration.perRequestNanos >= 1 && iteration.baseNanos >= 0 && iteration.perRequestNanos >= 0
                     && iteration.perPrefillTokenNanos >= 0, "an iteration takes time")
    }
}
