/// One recorded user action or condition change, replayed by the models.
///
/// The wire format (JSON Lines) is documented in `docs/trace-format.md`; this is its
/// decoded, validated form. Times are simulated times from the start of the trace.
public struct TraceEvent: Sendable, Equatable {
    /// When the action happened (for a key: touch-down).
    public var time: SimTime
    /// What happened.
    public var kind: Kind

    /// Creates an event.
    public init(time: SimTime, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// The kinds of recorded events. The wire name of each is in `wireName`.
    public enum Kind: Sendable, Equatable {
        /// A key tap that inserted `text` (usually one grapheme cluster; may be longer for
        /// keys such as ".com"). `touchUp` and `point` are optional recordings.
        case key(text: String, touchUp: SimTime?, point: TouchPoint?)
        /// A backspace tap: `deleteBackward()` once, removing one grapheme cluster.
        case backspace(touchUp: SimTime?, point: TouchPoint?)
        /// The user picked a suggestion from the bar: the current word is replaced by `text`.
        case suggestionPicked(text: String)
        /// The cursor moved by `offset` grapheme clusters (negative: towards the start).
        case cursorMove(offset: Int)
        /// Text pasted at the cursor.
        case paste(text: String)
        /// The keyboard appeared.
        case keyboardShown
        /// The keyboard was dismissed.
        case keyboardHidden
        /// The user switched the keyboard language (a BCP 47 tag such as "en" or "ru").
        case languageSwitch(language: String)
        /// The network condition changed.
        case network(NetworkCondition)
        /// The mic button was tapped to start dictating.
        case dictationStart(audio: DictationAudio)
        /// The mic button was tapped to stop dictating.
        case dictationStop
        /// The user accepted the correction chip for the word at `wordIndex` (0-based among
        /// the words of the current text), or the most recent chip when `nil`.
        case chipAccepted(wordIndex: Int?)
        /// The text field changed: a message sent and the field cleared, another field, or a
        /// field opened with text before the cursor.
        case field(FieldChange)

        /// The `type` field of this kind in the JSON Lines format.
        public var wireName: String {
            switch self {
            case .key: "key"
            case .backspace: "backspace"
            case .suggestionPicked: "suggestion"
            case .cursorMove: "cursor"
            case .paste: "paste"
            case .keyboardShown: "keyboard.show"
            case .keyboardHidden: "keyboard.hide"
            case .languageSwitch: "language"
            case .network: "network"
            case .dictationStart: "dictation.start"
            case .dictationStop: "dictation.stop"
            case .chipAccepted: "chip.accept"
            case .field: "field"
            }
        }

        /// Every wire name, in the order of the documentation.
        public static let wireNames = [
            "key", "backspace", "suggestion", "cursor", "paste", "keyboard.show", "keyboard.hide",
            "language", "network", "dictation.start", "dictation.stop", "chip.accept", "field",
        ]
    }
}

/// A touch location on the keyboard, in points from the keyboard view's top-left corner.
public struct TouchPoint: Sendable, Equatable {
    /// Horizontal position in points.
    public var x: Double
    /// Vertical position in points.
    public var y: Double
    /// Creates a point.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// A network condition set by the trace (the user toggled Full Access, went into a tunnel…).
public enum NetworkCondition: String, Sendable, Equatable, CaseIterable {
    /// The scenario's normal network model applies.
    case online
    /// No request gets through.
    case offline
    /// The network is in its bad state (high latency, losses) until the next change.
    case slow
}

/// The speech behind a dictation: a WAV file beside the trace, or inline timing.
public enum DictationAudio: Sendable, Equatable {
    /// A WAV file, relative to the trace's folder; onset and end come from an energy detector.
    case wavFile(path: String, transcript: String?)
    /// Speech that starts `onset` after the start tap and lasts `length`.
    case inline(onset: SimDuration, length: SimDuration, transcript: String?)
}

/// The first line of every trace.
public struct TraceHeader: Sendable, Equatable {
    /// The newest format version this build reads.
    public static let currentVersion = 1

    /// The format version the trace was written in.
    public var version: Int
    /// A free-form name for the trace.
    public var name: String?
    /// The keyboard language at the start (BCP 47), "en" when absent.
    public var language: String
    /// The text the user meant to type, when known: it decides which typed words are errors.
    public var intendedText: String?
    /// Where the trace came from (recorder, synthesiser, importer), free-form.
    public var source: String?

    /// Creates a header.
    public init(version: Int = TraceHeader.currentVersion, name: String? = nil, language: String = "en",
                intendedText: String? = nil, source: String? = nil) {
        self.version = version
        self.name = name
        self.language = language
        self.intendedText = intendedText
        self.source = source
    }
}

/// Something that yields trace events in time order, one at a time, so that a replay holds
/// only the next event in memory. Implemented by the streaming readers in `Scenarios` and
/// by arrays in tests.
public protocol TraceEventSource {
    /// The next event, or `nil` at the end of the trace. Throws on a malformed line.
    mutating func next() throws -> TraceEvent?
}

/// A trace held in memory.
public struct ArrayTraceSource: TraceEventSource {
    private var events: [TraceEvent]
    private var index = 0
    /// Creates a source over events already in time order.
    public init(_ events: [TraceEvent]) { self.events = events }
    /// The next event, or `nil` at the end.
    public mutating func next() -> TraceEvent? {
        guard index < events.count else { return nil }
        defer { index += 1 }
        return events[index]
    }
}
