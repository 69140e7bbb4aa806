/// The memos of pure functions that a job's replications share: the words of the traces'
/// intended texts (for the word aligner and for typing quality) and the digests of modelled
/// language files — what every replication would otherwise compute again from the same
/// inputs.
///
/// Owned by whoever runs replications: a job makes one (Scenarios' `TraceCache` holds the
/// job's) and hands it to every `KeyboardSimulation` it creates, so the runs of one job share
/// its hits and nothing outlives the job. A value from a memo is exactly what computing it
/// would give, so sharing (or not) changes no result.
public final class SimulationCaches: Sendable {
    /// Words of intended texts, numbered, for `WordAligner`.
    private let alignerWords = Memo<String, WordAligner.IntendedWords>(capacity: 4096)
    /// Words of intended texts, lower-cased, for `SuggestionQuality`.
    private let qualityWords = Memo<String, [String]>(capacity: 4096)
    /// Digests of modelled language files, by language and size: a job models a handful.
    private let languageFileDigests = Memo<LanguageFileKey, String>(capacity: 256)

    /// What a language file's digest is a function of.
    private struct LanguageFileKey: Hashable, Sendable {
        var language: String
        var bytes: Int
    }

    /// Empty caches.
    public init() {}

    /// `WordAligner.IntendedWords(text)`, from the memo when known.
    func alignerWords(of text: String) -> WordAligner.IntendedWords {
        alignerWords.value(for: text, WordAligner.IntendedWords.init)
    }

    /// `SuggestionQuality.splitWords(text)`, from the memo when known.
    func qualityWords(of text: String) -> [String] {
        qualityWords.value(for: text, SuggestionQuality.splitWords)
    }

    /// `LanguageFileContent.digest(language:bytes:)`, from the memo when known.
    func languageFileDigest(language: String, bytes: Int) -> String {
        languageFileDigests.value(for: LanguageFileKey(language: language, bytes: bytes)) {
            LanguageFileContent.digest(language: $0.language, bytes: $0.bytes)
        }
    }
}
