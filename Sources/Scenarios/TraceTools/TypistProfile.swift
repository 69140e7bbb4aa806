/// The parameters of a human typist (`HumanTypist`): how long each kind of interval between
/// taps lasts, where and how long the typist pauses, how often a letter slips and what
/// happens to the slip, how often a suggestion is picked, and how messages follow one
/// another. `keysim trace fit` measures one from recordings; `keysim trace synth --typist`
/// types with one. The model and the presets' sources are in `docs/trace-format.md`,
/// "Typist profiles".
public struct TypistProfile: Sendable, Equatable {
    /// The kinds of interval before a tap, by what came before it.
    public enum Context: String, Sendable, Equatable, CaseIterable {
        /// After a letter or digit of the same word (the space that ends a word included).
        case withinWord
        /// After a punctuation mark (usually the space after it).
        case afterPunctuation
        /// The first letter of a word, after a space.
        case wordStart
        /// The first letter after a comma, semicolon or colon and a space.
        case phraseStart
        /// The first letter after a sentence end (`.`, `!`, `?`, `…` or a line break) and a space.
        case sentenceStart
        /// The first tap of a message, after the keyboard showed or the field changed.
        case messageStart
        /// The tap after a backspace.
        case afterBackspace
        /// The first backspace of a run: the typist noticed a slip.
        case correction
        /// A picked suggestion, after the letters typed before it.
        case suggestion

        /// The context's place in `allCases` and in a profile's `contexts` (a switch: a
        /// synthesising typist asks it of every tap; `TypistProfileTests` checks it against
        /// `allCases`).
        var index: Int {
            switch self {
            case .withinWord: 0
            case .afterPunctuation: 1
            case .wordStart: 2
            case .phraseStart: 3
            case .sentenceStart: 4
            case .messageStart: 5
            case .afterBackspace: 6
            case .correction: 7
            case .suggestion: 8
            }
        }
    }

    /// A lognormal interval: half are shorter than `medianMs`; `sigma` is the standard
    /// deviation of its logarithm.
    public struct Interval: Sendable, Equatable {
        /// The median, in milliseconds.
        public var medianMs: Double
        /// The σ of the logarithm.
        public var sigma: Double
        /// Creates an interval.
        public init(medianMs: Double, sigma: Double) { self.medianMs = medianMs; self.sigma = sigma }
    }

    /// The slower component of a context's typing intervals: the hesitations below the pause
    /// threshold (a word to recall, a glance at the text) that make more intervals than a
    /// single lognormal over 400 ms or so.
    public struct Hesitation: Sendable, Equatable {
        /// The share of typing intervals that are hesitations, 0…0.5.
        public var share: Double
        /// The hesitations' lognormal: median, in milliseconds.
        public var medianMs: Double
        /// The σ of the hesitations' logarithm.
        public var sigma: Double
        /// Creates a hesitation component.
        public init(share: Double, medianMs: Double, sigma: Double) {
            self.share = share
            self.medianMs = medianMs
            self.sigma = sigma
        }
    }

    /// The interval of one context: a lognormal typing interval cut at the pause threshold,
    /// or, with probability `pauseProbability`, a pause.
    public struct ContextTiming: Sendable, Equatable {
        /// The typing interval (drawn again when it would exceed the pause threshold).
        public var interval: Interval
        /// The probability that the interval is a pause instead.
        public var pauseProbability: Double
        /// The typing intervals' slower component, if any: they are then a mixture of
        /// `interval` and the hesitation's lognormal, cut at the pause threshold.
        public var hesitation: Hesitation?
        /// Creates the timing of a context.
        public init(interval: Interval, pauseProbability: Double, hesitation: Hesitation? = nil) {
            self.interval = interval
            self.pauseProbability = pauseProbability
            self.hesitation = hesitation
        }
    }

    /// Pauses: the pause threshold plus a log-logistic excess (heavy-tailed: its density falls
    /// as a power, `shape` + 1, of the length), cut at `maxMs`.
    public struct Pauses: Sendable, Equatable {
        /// Intervals longer than this are pauses, in milliseconds.
        public var thresholdMs: Double
        /// The median of the excess over the threshold (the log-logistic's scale), in milliseconds.
        public var excessMedianMs: Double
        /// The log-logistic's shape β (a larger shape, a lighter tail).
        public var shape: Double
        /// The longest pause, in milliseconds.
        public var maxMs: Double
        /// Creates the pause model.
        public init(thresholdMs: Double, excessMedianMs: Double, shape: Double, maxMs: Double) {
            self.thresholdMs = thresholdMs
            self.excessMedianMs = excessMedianMs
            self.shape = shape
            self.maxMs = maxMs
        }
    }

    /// Slips and what becomes of them.
    public struct Errors: Sendable, Equatable {
        /// The probability that a letter is mistyped as a neighbouring key.
        public var slipRate: Double
        /// The share of slips noticed within the word (deleted back before the word ends).
        public var noticedInWordShare: Double
        /// The share of slips noticed after the word's space.
        public var noticedAfterWordShare: Double
        /// Of the slips noticed after the word, the share fixed by moving the cursor back (the
        /// rest backspace over the space and the letters after the slip).
        public var cursorFixShare: Double
        /// Creates the error model. The slips neither noticed in nor after the word are left
        /// in the text.
        public init(slipRate: Double, noticedInWordShare: Double, noticedAfterWordShare: Double, cursorFixShare: Double) {
            self.slipRate = slipRate
            self.noticedInWordShare = noticedInWordShare
            self.noticedAfterWordShare = noticedAfterWordShare
            self.cursorFixShare = cursorFixShare
        }

        /// The share of slips left in the text.
        public var uncorrectedShare: Double { max(0, 1 - noticedInWordShare - noticedAfterWordShare) }
    }

    /// Messages: how one follows another.
    public struct Messages: Sendable, Equatable {
        /// Whether each line of the text is a message of its own, sent and cleared (chat, a
        /// transcription task), or the text is one field with returns between its lines (email).
        public var perLine: Bool
        /// From the last tap of a message to its sending (the field is cleared).
        public var sendDelay: Interval
        /// From the sending to the next message's keyboard show (or first tap): reading the
        /// reply, thinking.
        public var gap: Interval
        /// The probability that the keyboard is hidden between two messages.
        public var hideProbability: Double
        /// Creates the message model.
        public init(perLine: Bool, sendDelay: Interval, gap: Interval, hideProbability: Double) {
            self.perLine = perLine
            self.sendDelay = sendDelay
            self.gap = gap
            self.hideProbability = hideProbability
        }
    }

    /// Picked suggestions.
    public struct Suggestions: Sendable, Equatable {
        /// The probability that a word of at least `minimumLength` letters is completed from
        /// the suggestion bar.
        public var pickRate: Double
        /// The shortest word the typist completes from the bar.
        public var minimumLength: Int
        /// Creates the suggestion model.
        public init(pickRate: Double, minimumLength: Int) {
            self.pickRate = pickRate
            self.minimumLength = minimumLength
        }
    }

    /// A short name ("chat").
    public var name: String
    /// Where the parameters came from, free-form.
    public var source: String
    /// The timing of each context, in the order of `Context.allCases`.
    public var contexts: [ContextTiming]
    /// The pause model.
    public var pauses: Pauses
    /// The error model.
    public var errors: Errors
    /// The message model.
    public var messages: Messages
    /// The suggestion model.
    public var suggestions: Suggestions
    /// The σ of a touch around the key's centre, in points.
    public var touchSpreadPoints: Double
    /// The keyboard language at the start.
    public var language: String
    /// The within-word rhythm and the coupling of consecutive intervals; `nil` (the presets)
    /// draws each interval from its context alone.
    public var rhythm: TypistRhythm?

    /// Creates a profile.
    /// - Precondition: `contexts` has one entry per context.
    public init(name: String, source: String, contexts: [ContextTiming], pauses: Pauses, errors: Errors,
                messages: Messages, suggestions: Suggestions, touchSpreadPoints: Double = 6, language: String = "en",
                rhythm: TypistRhythm? = nil) {
        precondition(contexts.count == Context.allCases.count, "one timing per context")
        self.name = name
        self.source = source
        self.contexts = contexts
        self.pauses = pauses
        self.errors = errors
        self.messages = messages
        self.suggestions = suggestions
        self.touchSpreadPoints = touchSpreadPoints
        self.language = language
        self.rhythm = rhythm
    }

    /// Whether the typist draws its typing intervals through the rhythm model (`HumanTypist`'s
    /// copula draws): when it has a rhythm or any context has a hesitation component.
    public var drawsWithRhythm: Bool {
        rhythm != nil || contexts.contains { $0.hesitation != nil }
    }

    /// The timing of `context`.
    public subscript(context: Context) -> ContextTiming {
        get { contexts[context.index] }
        set { contexts[context.index] = newValue }
    }

    /// The profile with every typing interval's median multiplied by `factor`, its
    /// hesitations' too (pauses and message gaps unchanged): a faster or slower typist of the
    /// same kind.
    public func scaled(by factor: Double) -> TypistProfile {
        var copy = self
        for index in copy.contexts.indices {
            copy.contexts[index].interval.medianMs *= factor
            copy.contexts[index].hesitation?.medianMs *= factor
        }
        return copy
    }
}
