import Synchronization

/// The memos of pure functions that a job's replications share: the words of the traces'
/// intended texts (for the word aligner and for typing quality), the digests of modelled
/// language files and the keyboard's work tables — what every replication would otherwise
/// compute again from the same inputs.
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

    /// The work tables of the last configuration asked about. A job's replications share one
    /// configuration's threads and work (a fleet's sessions copy one keyboard), whose arrays
    /// then compare equal at once, by their shared storage.
    private let lastWorkTables = Mutex<WorkTablesEntry?>(nil)

    /// Work tables and what they are a function of.
    private struct WorkTablesEntry: Sendable {
        var threads: [ExecutorConfig]
        var work: [KeyboardWork: WorkConfig]
        var tables: KeyboardIO.WorkTables
    }

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

    /// `KeyboardIO.WorkTables(config:)`, from the memo when `config`'s threads and work are
    /// those of the last configuration asked about.
    func workTables(for config: KeyboardConfig) -> KeyboardIO.WorkTables {
        let known = lastWorkTables.withLock { entry in
            entry.flatMap { $0.threads == config.threads && $0.work == config.work ? $0.tables : nil }
        }
        if let known { return known }
        let tables = KeyboardIO.WorkTables(config: config)
        lastWorkTables.withLock { $0 = WorkTablesEntry(threads: config.threads, work: config.work, tables: tables) }
        return tables
    }

    /// `LanguageFileContent.digest(language:bytes:)`, from the memo when known.
    func languageFileDigest(language: String, bytes: Int) -> String {
        languageFileDigests.value(for: LanguageFileKey(language: language, bytes: bytes)) {
            LanguageFileContent.digest(language: $0.language, bytes: $0.bytes)
        }
    }
}
