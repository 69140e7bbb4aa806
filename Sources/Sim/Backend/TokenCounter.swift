/// Counts the tokens of the text a request sends: the one seam through which a real
/// tokenizer can replace keysim's estimate.
public protocol TokenCounter: Sendable {
    /// The tokens of `utf8`, a text of `characters` grapheme clusters.
    func tokens(utf8: ArraySlice<UInt8>, characters: Int) -> Int
}

/// keysim's estimate: a fixed number of characters per token for the text's language,
/// rounded up (a text of one character is one token, an empty one none).
public struct CharactersPerTokenCounter: TokenCounter, Equatable {
    /// Characters per token, in hundredths (400: four characters a token).
    public let charactersPerTokenHundredths: Int

    /// Creates the estimate for `charactersPerToken` characters a token (at least 0.01).
    public init(charactersPerToken: Double) {
        charactersPerTokenHundredths = max(1, Int((charactersPerToken * 100).rounded()))
    }

    public func tokens(utf8: ArraySlice<UInt8>, characters: Int) -> Int {
        (characters * 100 + charactersPerTokenHundredths - 1) / charactersPerTokenHundredths
    }
}

/// What a check request carries in tokens (`cloud.tokens`): a system prompt the provider
/// may cache, the text sent, and an answer that lists the words the cloud flags.
public struct TokenConfig: Sendable, Equatable {
    /// The system prompt (instructions, output format), tokens; the provider may cache it.
    public var systemPromptTokens = 300
    /// The answer's fixed part (its envelope, an empty list of corrections), tokens.
    public var outputBaseTokens = 10
    /// The answer's part per word the cloud flags (the word, its fix, its place), tokens.
    public var outputTokensPerFlaggedWord = 8
    /// Characters per token by language (BCP 47 tag, lower-cased), for the estimate.
    public var charactersPerToken: [String: Double] = ["en": TokenConfig.englishCharactersPerToken]
    /// Characters per token for a language the table does not name.
    public var defaultCharactersPerToken = TokenConfig.englishCharactersPerToken

    /// OpenAI's rule of thumb: about four characters of English text per token.
    public static let englishCharactersPerToken = 4.0

    /// Creates the default configuration.
    public init() {}

    /// The estimate for text in `language` (its primary subtag is looked up when the full
    /// tag is not named: "en-GB" finds "en").
    public func counter(language: String) -> CharactersPerTokenCounter {
        let tag = language.lowercased()
        let primary = tag.split(separator: "-").first.map(String.init) ?? tag
        return CharactersPerTokenCounter(charactersPerToken: charactersPerToken[tag] ?? charactersPerToken[primary]
                                         ?? defaultCharactersPerToken)
    }

    /// The output tokens of an answer that flags `flaggedWords` words.
    public func outputTokens(flaggedWords: Int) -> Int { outputBaseTokens + outputTokensPerFlaggedWord * flaggedWords }
}
