/// One user action or condition change, as a keyboard extension records it. Times are
/// nanoseconds since the recorder was created (`TraceRecorder.nowNanos`).
public enum TraceRecorderEvent: Sendable, Equatable {
    /// A touch location in points from the keyboard view's top-left corner.
    public struct Point: Sendable, Equatable {
        /// Horizontal position in points.
        public var x: Double
        /// Vertical position in points.
        public var y: Double
        /// Creates a point.
        public init(x: Double, y: Double) { self.x = x; self.y = y }
    }

    /// A network condition.
    public enum NetworkState: String, Sendable, Equatable {
        /// The normal network.
        case online
        /// No request gets through.
        case offline
        /// High latency, losses.
        case slow
    }

    /// The speech of a dictation.
    public enum Speech: Sendable, Equatable {
        /// A WAV file relative to the trace's folder.
        case audioFile(String)
        /// Speech starting `onsetNanos` after the start tap and lasting `lengthNanos`.
        case timing(onsetNanos: Int64, lengthNanos: Int64)
    }

    /// How the text field changed.
    public enum FieldChange: String, Sendable, Equatable {
        /// The message was sent and the field emptied.
        case cleared
        /// Another text field got focus.
        case replaced
        /// A field opened with text before the cursor.
        case opened
    }

    /// A key tap that inserted `text`; `upNanos` is the touch-up time.
    case key(text: String, upNanos: Int64? = nil, point: Point? = nil)
    /// A backspace tap.
    case backspace(upNanos: Int64? = nil, point: Point? = nil)
    /// The user picked the suggestion `text`.
    case suggestion(text: String)
    /// The cursor moved by `offset` grapheme clusters.
    case cursor(offset: Int)
    /// Text pasted at the cursor.
    case paste(text: String)
    /// The keyboard appeared.
    case keyboardShow
    /// The keyboard was dismissed.
    case keyboardHide
    /// The keyboard language changed (a BCP 47 tag).
    case language(String)
    /// The network condition changed.
    case network(NetworkState)
    /// The mic button was tapped to start dictating.
    case dictationStart(speech: Speech, transcript: String? = nil)
    /// The mic button was tapped to stop dictating.
    case dictationStop
    /// The user accepted a correction chip (the word's index, or the latest chip).
    case chipAccept(word: Int? = nil)
    /// The text field changed; `text` is the text before the cursor in the new field
    /// (`opened`, `replaced`), `intended` what the user means to type there, when known.
    case field(FieldChange, text: String = "", intended: String? = nil)

    /// The event with its text anonymised.
    func scrambled(by scrambler: LetterScrambler) -> TraceRecorderEvent {
        switch self {
        case let .key(text, up, point): .key(text: scrambler.scramble(text), upNanos: up, point: point)
        case let .suggestion(text): .suggestion(text: scrambler.scramble(text))
        case let .paste(text): .paste(text: scrambler.scramble(text))
        case let .dictationStart(speech, transcript): .dictationStart(speech: speech, transcript: transcript.map(scrambler.scramble))
        case let .field(change, text, intended): .field(change, text: scrambler.scramble(text), intended: intended.map(scrambler.scramble))
        default: self
        }
    }
}
