/// The suggestion bar's quality settings: which dictionary fills the bar and how often the
/// re-ranker lifts the intended word into it. Without a dictionary nothing is measured.
public struct TypingConfig: Sendable, Equatable {
    /// The word-frequency dictionary behind the bar, or nil: no quality metrics.
    public var dictionary: WordDictionary?
    /// Where the dictionary came from (a path), for reports; "" when none.
    public var dictionarySource: String = ""
    /// The probability that the re-ranker lifts the intended word into the bar when it is a
    /// candidate for the typed prefix but not among the dictionary's plain top 3. 0 is a
    /// keyboard without a re-ranker.
    public var rerankLift: Double = TypingConfig.defaultRerankLift

    /// The default lift, calibrated on the bundled English traces so that the re-ranker moves
    /// keystroke savings and word prediction rate the way the seed reports (see `docs/models.md`).
    public static let defaultRerankLift = 0.85

    /// No dictionary: quality is not measured.
    public init() {}
}

/// What the suggestion bar did for one word of the intended text.
public struct WordQuality: Sendable, Equatable {
    /// The word's ordinal (its place among the white-space separated words).
    public var ordinal: Int
    /// Its length in characters (punctuation around it not counted).
    public var intendedLength: Int
    /// Edits that left the text inside this word (letters, typos, their backspaces).
    public var keystrokes: Int
    /// Whether the word is in the dictionary.
    public var inDictionary: Bool
    /// The length of the typed prefix whose bar first held the word (nil: never).
    public var firstInBarPrefix: Int?
    /// The same, counting only bars shown before the next touch.
    public var firstInBarInTimePrefix: Int?

    /// Keystrokes a user saves by picking the word from the first bar holding it: the rest
    /// of the word, less the tap.
    public var keystrokesSaved: Int { firstInBarPrefix.map { max(0, intendedLength - $0 - 1) } ?? 0 }
    /// The same for the first bar that was on screen in time.
    public var keystrokesSavedInTime: Int { firstInBarInTimePrefix.map { max(0, intendedLength - $0 - 1) } ?? 0 }

    /// Creates a word record.
    public init(ordinal: Int, intendedLength: Int, keystrokes: Int, inDictionary: Bool,
                firstInBarPrefix: Int?, firstInBarInTimePrefix: Int?) {
        self.ordinal = ordinal
        self.intendedLength = intendedLength
        self.keystrokes = keystrokes
        self.inDictionary = inDictionary
        self.firstInBarPrefix = firstInBarPrefix
        self.firstInBarInTimePrefix = firstInBarInTimePrefix
    }
}

/// The suggestion bar's quality over one replication: per-word records and the three figures
/// defined in `docs/models.md` ("Typing quality").
public struct TypingQuality: Sendable, Equatable {
    /// The words of the intended text the replay reached, in ordinal order.
    public var words: [WordQuality]
    /// Every keystroke replayed (keys, backspaces, pastes, picked suggestions).
    public var keystrokes: Int

    /// Creates a summary.
    public init(words: [WordQuality], keystrokes: Int) {
        self.words = words
        self.keystrokes = keystrokes
    }

    /// Keystrokes saved by picking each word from the first bar that held it.
    public var keystrokesSaved: Int { words.reduce(0) { $0 + $1.keystrokesSaved } }
    /// Keystrokes saved counting only bars on screen before the next touch.
    public var keystrokesSavedInTime: Int { words.reduce(0) { $0 + $1.keystrokesSavedInTime } }
    /// Words whose bar held them before they were complete.
    public var wordsPredicted: Int { words.filter { $0.firstInBarPrefix != nil }.count }

    /// Keystroke savings KS: keystrokes saved / keystrokes (nil without keystrokes).
    public var keystrokeSavings: Double? { keystrokes > 0 ? Double(keystrokesSaved) / Double(keystrokes) : nil }
    /// Latency-adjusted keystroke savings.
    public var keystrokeSavingsInTime: Double? { keystrokes > 0 ? Double(keystrokesSavedInTime) / Double(keystrokes) : nil }
    /// Word prediction rate WPR: words predicted / words (nil without words).
    public var wordPredictionRate: Double? { words.isEmpty ? nil : Double(wordsPredicted) / Double(words.count) }
}
