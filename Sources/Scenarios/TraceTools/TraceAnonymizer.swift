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
/// dictation transcripts, a field's text and intended text, the header's intended text —
/// and times, backspaces, cursor moves, word lengths, case, punctuation, emoji and the
/// events' kinds stay as they are.
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

    /// The header with its intended text anonymised and its source marked.
    public mutating func anonymize(_ header: TraceHeader) -> TraceHeader {
        var result = header
        result.intendedText = header.intendedText.map { text in words?.anonymizeText(text) ?? letters!.anonymize(text) }
        result.source = (header.source.map { $0 + ", " } ?? "") + "anonymized"
        return result
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
