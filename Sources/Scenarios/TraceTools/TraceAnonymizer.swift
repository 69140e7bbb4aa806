import Sim

/// Anonymises traces for sharing. Two ways:
///
/// - `init(seed:traceDigest:language:)`, what `keysim trace anonymize` does: every word is
///   replaced by random letters drawn for that word from a key made of the seed and the
///   original trace's bytes (see `WordAnonymizer`), touch points move with their letters,
///   and the trace is read twice (`learn(_:)` on every event, `finishLearning()`, then
///   `anonymize(_:)` on every event). Recovering the text needs the seed and the original.
/// - `init(letterSeed:)`: one letter substitution for the whole text, as the on-device
///   `TraceRecorder` writes in one pass. Frequency analysis undoes it; it only keeps a text
///   from being read at a glance. Run `trace anonymize` before sharing such a trace.
///
/// Either way every text a trace holds is covered — key text, suggestions, pastes,
/// dictation transcripts, a field's text and intended text, the header's intended text and
/// name (its source is dropped) — and times, backspaces, cursor moves, word lengths, case,
/// punctuation, emoji and the events' kinds stay as they are.
public struct TraceAnonymizer: Sendable {
    private var words: WordAnonymizer?
    private var letters: TextAnonymizer?

    /// The word-keyed anonymiser of one trace. `traceDigest` identifies the original trace
    /// (SHA-256 of its bytes), so that each trace gets its own key.
    public init(seed: UInt64, traceDigest: String, language: String = "en") {
        words = WordAnonymizer(seed: seed, traceDigest: traceDigest, language: language)
    }

    /// The one-pass letter substitution of `TraceRecorder` (weak; see the type's notes).
    public init(letterSeed: UInt64) {
        letters = TextAnonymizer(seed: letterSeed)
    }

    /// First pass of the word-keyed anonymiser: every event of the trace, in order.
    public mutating func learn(_ event: TraceEvent) { words?.learn(event.kind) }

    /// Ends the first pass.
    public mutating func finishLearning() { words?.finishLearning() }

    /// The header with every free-text field anonymised or dropped: the intended text and
    /// the name are replaced word by word as the events' text is (a name may well be taken
    /// from the content); the source, free text about where the trace came from (a command
    /// line, a device, a person), is dropped for the single word "anonymized". The version
    /// and the language (a checked BCP 47 tag, which picks the layout and the dictionary)
    /// stay.
    public mutating func anonymize(_ header: TraceHeader) -> TraceHeader {
        var result = header
        result.intendedText = header.intendedText.map { anonymizeText($0) }
        result.name = header.name.map { anonymizeText($0) }
        result.source = Self.anonymizedSource
        return result
    }

    /// The `source` of every anonymised trace.
    public static let anonymizedSource = "anonymized"

    private mutating func anonymizeText(_ text: String) -> String {
        if words != nil { return words!.anonymizeText(text) }
        return letters!.anonymize(text)
    }

    /// The event with its text anonymised (and, word-keyed, its touch point moved).
    public mutating func anonymize(_ event: TraceEvent) -> TraceEvent {
        var result = event
        if words != nil {
            result.kind = words!.anonymize(event.kind)
            return result
        }
        switch event.kind {
        case let .key(inserted, touchUp, point):
            result.kind = .key(text: letters!.anonymize(inserted), touchUp: touchUp, point: point)
        case .suggestionPicked(let word):
            result.kind = .suggestionPicked(text: letters!.anonymize(word))
        case .paste(let pasted):
            result.kind = .paste(text: letters!.anonymize(pasted))
        case .dictationStart(.wavFile(let path, let transcript)):
            result.kind = .dictationStart(audio: .wavFile(path: path, transcript: transcript.map { letters!.anonymize($0) }))
        case let .dictationStart(.inline(onset, length, transcript)):
            result.kind = .dictationStart(audio: .inline(onset: onset, length: length,
                                                         transcript: transcript.map { letters!.anonymize($0) }))
        case .field(var field):
            field.text = letters!.anonymize(field.text)
            field.intendedText = field.intendedText.map { letters!.anonymize($0) }
            result.kind = .field(field)
        case .backspace, .cursorMove, .keyboardShown, .keyboardHidden, .languageSwitch, .network,
             .dictationStop, .chipAccepted:
            break
        }
        return result
    }
}
