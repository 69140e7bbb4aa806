/// What a provider charges per token, as whole picodollars (10⁻¹² USD) per token so that a
/// request's cost is exact integer arithmetic: a price of $0.10 per million tokens is
/// 100,000 picodollars a token. Sources and dates in `docs/models.md`.
public struct PriceTable: Sendable, Equatable {
    /// An input token the provider read afresh.
    public var inputPicoUSD: Int64
    /// An input token read from the prompt cache.
    public var cachedInputPicoUSD: Int64
    /// An input token written to the prompt cache (Anthropic charges a premium; OpenAI
    /// charges the input price).
    public var cacheWritePicoUSD: Int64
    /// An output token.
    public var outputPicoUSD: Int64
    /// Words a user types in a day, for the cost per user-day.
    public var wordsPerUserDay: Double = PriceTable.defaultWordsPerUserDay
    /// The preset it started from, if any.
    public var preset: ModelClass?

    /// Creates a table from prices in picodollars per token.
    public init(inputPicoUSD: Int64, cachedInputPicoUSD: Int64, cacheWritePicoUSD: Int64, outputPicoUSD: Int64,
                preset: ModelClass? = nil) {
        self.inputPicoUSD = inputPicoUSD
        self.cachedInputPicoUSD = cachedInputPicoUSD
        self.cacheWritePicoUSD = cacheWritePicoUSD
        self.outputPicoUSD = outputPicoUSD
        self.preset = preset
    }

    /// Picodollars per token for a price in USD per million tokens (a whole number of
    /// picodollars for any price with at most six decimals).
    public static func picoUSDPerToken(usdPerMillion: Double) -> Int64 { Int64((usdPerMillion * 1e6).rounded()) }

    /// The cost of one served request, picodollars: `fresh` input tokens at the input price,
    /// `written` at the cache-write price, `cached` at the cached price, `output` at the
    /// output price.
    public func costPicoUSD(freshInput fresh: Int, cacheWritten written: Int, cached: Int, output: Int) -> Int64 {
        Int64(fresh) * inputPicoUSD + Int64(written) * cacheWritePicoUSD + Int64(cached) * cachedInputPicoUSD
            + Int64(output) * outputPicoUSD
    }

    /// The preset's prices, USD per million tokens (input, cached input, cache write, output):
    /// GPT-4.1 nano 0.10, 0.025, 0.10, 0.40; GPT-4.1 mini 0.40, 0.10, 0.40, 1.60; Claude
    /// Haiku 4.5 1.00, 0.10, 1.25 (five-minute cache), 5.00.
    public static func preset(_ preset: ModelClass) -> PriceTable {
        let (input, cached, write, output): (Double, Double, Double, Double) = switch preset {
        case .nanoClass: (0.10, 0.025, 0.10, 0.40)
        case .miniClass: (0.40, 0.10, 0.40, 1.60)
        case .haikuClass: (1.00, 0.10, 1.25, 5.00)
        }
        return PriceTable(inputPicoUSD: picoUSDPerToken(usdPerMillion: input),
                          cachedInputPicoUSD: picoUSDPerToken(usdPerMillion: cached),
                          cacheWritePicoUSD: picoUSDPerToken(usdPerMillion: write),
                          outputPicoUSD: picoUSDPerToken(usdPerMillion: output), preset: preset)
    }

    /// Words typed in a day by an active user: 20.75 messages sent a day (half of the 41.5
    /// an average US texter sends or receives, Pew Research Center, 2011) of 8.67 words, the
    /// mean message of the bundled chat session (260 words in 30 messages): 180 words.
    public static let defaultWordsPerUserDay = 180.0
}
