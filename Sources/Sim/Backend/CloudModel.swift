/// A hosted LLM's service time from the tokens of a request: a time to first token (drawn,
/// heavy-tailed), plus the prefill of every input token the provider has not cached, plus
/// the decode of every output token:
///
///     service = firstToken + prefill × (input − cached) + decode × output
///
/// The per-token times are whole nanoseconds, so a service time is exact integer arithmetic.
/// Prompt caching: a leading part of the input (the system prompt) used again within the
/// cache's time to live costs no prefill and a lower price, once it is at least the
/// provider's minimum cacheable length.
public struct CloudModel: Sendable, Equatable {
    /// The time to the first token of an empty prompt, milliseconds: queueing at the
    /// provider, scheduling, the first decode step.
    public var firstToken: Distribution
    /// Prefill time per input token not cached, nanoseconds.
    public var prefillNanosPerToken: Int64
    /// Decode time per output token, nanoseconds.
    public var decodeNanosPerToken: Int64
    /// The provider's prompt cache.
    public var promptCache: PromptCacheConfig
    /// The preset it started from, if any.
    public var preset: ModelClass?

    /// Creates a model.
    public init(firstToken: Distribution, prefillNanosPerToken: Int64, decodeNanosPerToken: Int64,
                promptCache: PromptCacheConfig, preset: ModelClass? = nil) {
        self.firstToken = firstToken
        self.prefillNanosPerToken = prefillNanosPerToken
        self.decodeNanosPerToken = decodeNanosPerToken
        self.promptCache = promptCache
        self.preset = preset
    }

    /// The service time of a request whose first token took `firstToken`.
    public func serviceTime(firstToken: SimDuration, uncachedInputTokens: Int, outputTokens: Int) -> SimDuration {
        firstToken + prefillTime(uncachedInputTokens: uncachedInputTokens)
            + SimDuration(nanoseconds: decodeNanosPerToken * Int64(outputTokens))
    }

    /// The prefill of `uncachedInputTokens`.
    public func prefillTime(uncachedInputTokens: Int) -> SimDuration {
        SimDuration(nanoseconds: prefillNanosPerToken * Int64(uncachedInputTokens))
    }

    /// The preset's model. Output speed and time to first token from Artificial Analysis;
    /// prefill at a hundredth of decode per token (Anyscale's LLMPerf: "100 input tokens
    /// have approximately the same impact on latency as a single output token"); the first
    /// token is the measured time to first token less the prefill of the 1,000-token prompt
    /// it was measured with, lognormal with p95 ≈ 3 × median (p99 = 4.73 × median).
    public static func preset(_ preset: ModelClass) -> CloudModel {
        // (tokens per second, measured time to first token in ms, cache minimum in tokens)
        let (speed, timeToFirstTokenMs, cacheMinimum): (Double, Double, Int) = switch preset {
        case .nanoClass: (181, 630, 1_024)
        case .miniClass: (77.2, 930, 1_024)
        case .haikuClass: (53, 480, 4_096)
        }
        let decode = Int64((1e9 / speed).rounded())
        let prefill = decode / 100
        let firstTokenMs = timeToFirstTokenMs - Double(prefill * 1_000) / 1e6
        return CloudModel(firstToken: .lognormal(median: firstTokenMs, p99: firstTokenMs * 4.73),
                          prefillNanosPerToken: prefill, decodeNanosPerToken: decode,
                          promptCache: PromptCacheConfig(ttl: .seconds(300), minTokens: cacheMinimum), preset: preset)
    }
}

/// A provider's prompt cache: a prefix of at least `minTokens` tokens is cached when used
/// and read from the cache when used again within `ttl` of its last use (each use renews it).
public struct PromptCacheConfig: Sendable, Equatable {
    /// How long a cached prefix lives after its last use.
    public var ttl: SimDuration
    /// The shortest prefix the provider caches.
    public var minTokens: Int
    /// Creates a cache configuration.
    public init(ttl: SimDuration, minTokens: Int) {
        self.ttl = ttl
        self.minTokens = minTokens
    }
}
