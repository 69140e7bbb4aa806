import Scenarios
import Sim

extension BatchSummary {
    /// The suggestion bar's quality pooled over runs: sums of keystrokes saved, keystrokes
    /// and words over every run that measured it (see `docs/models.md`, "Typing quality").
    public struct TypingFigures: Sendable, Equatable {
        /// Runs that measured typing quality.
        public var runs = 0
        /// Keystrokes replayed in those runs.
        public var keystrokes = 0
        /// Keystrokes saved by picking words from the first bar that held them.
        public var keystrokesSaved = 0
        /// Keystrokes saved counting only bars on screen before the next touch.
        public var keystrokesSavedInTime = 0
        /// Words of the intended text reached.
        public var words = 0
        /// Words the bar held before they were complete.
        public var wordsPredicted = 0
        /// Reached words that are in the dictionary.
        public var wordsInDictionary = 0

        /// Pools the typing quality of `results`; nil when no run measured it.
        public init?(results: [RunResult]) {
            var sum = Sum()
            for result in results { sum.add(result) }
            guard let figures = sum.figures else { return nil }
            self = figures
        }

        /// Nothing pooled.
        init() {}

        /// Typing figures pooled one run at a time.
        struct Sum: Sendable {
            private var pooled = TypingFigures()

            /// Adds one run (nothing when it did not measure typing quality).
            mutating func add(_ result: RunResult) {
                guard let quality = result.summary.typingQuality else { return }
                pooled.runs += 1
                pooled.keystrokes += quality.keystrokes
                pooled.keystrokesSaved += quality.keystrokesSaved
                pooled.keystrokesSavedInTime += quality.keystrokesSavedInTime
                pooled.words += quality.words.count
                pooled.wordsPredicted += quality.wordsPredicted
                pooled.wordsInDictionary += quality.words.filter(\.inDictionary).count
            }

            /// The pooled figures; nil when no run measured typing quality.
            var figures: TypingFigures? { pooled.runs == 0 ? nil : pooled }
        }

        /// Keystroke savings KS, pooled.
        public var keystrokeSavings: Double { keystrokes > 0 ? Double(keystrokesSaved) / Double(keystrokes) : 0 }
        /// Latency-adjusted keystroke savings, pooled.
        public var keystrokeSavingsInTime: Double { keystrokes > 0 ? Double(keystrokesSavedInTime) / Double(keystrokes) : 0 }
        /// Word prediction rate WPR, pooled.
        public var wordPredictionRate: Double { words > 0 ? Double(wordsPredicted) / Double(words) : 0 }

        /// The block `keysim run` prints after the counts.
        public func block() -> String {
            """
            quality      keystroke savings \(TextTable.percent(keystrokeSavings)) (\(TextTable.percent(keystrokeSavingsInTime)) with bars shown in time), word prediction rate \(TextTable.percent(wordPredictionRate)) (\(wordsPredicted) of \(words) words, \(wordsInDictionary) in the dictionary)

            """
        }
    }
}
