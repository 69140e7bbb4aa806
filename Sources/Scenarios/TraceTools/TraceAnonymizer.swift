import Sim

/// Anonymises traces: every text a trace holds — key text, suggestions, pastes, dictation
/// transcripts, a field's text and intended text, and the header's intended text — goes through one `TextAnonymizer`, so the
/// same letter becomes the same letter everywhere and the trace still rebuilds a consistent
/// text. Times, touch points, cursor moves and everything else stay as they are.
public struct TraceAnonymizer: Sendable {
    private var text: TextAnonymizer

    /// Creates the anonymizer for `seed`.
    public init(seed: UInt64) {
        text = TextAnonymizer(seed: seed)
    }

    /// The header with its intended text anonymised and its source marked.
    public mutating func anonymize(_ header: TraceHeader) -> TraceHeader {
        var result = header
        result.intendedText = header.intendedText.map { text.anonymize($0) }
        result.source = (header.source.map { $0 + ", " } ?? "") + "anonymized"
        return result
    }

    /// The event with its text anonymised.
    public mutating func anonymize(_ event: TraceEvent) -> TraceEvent {
        var result = event
        switch event.kind {
        case let .key(inserted, touchUp, point):
            result.kind = .key(text: text.anonymize(inserted), touchUp: touchUp, point: point)
        case .suggestionPicked(let word):
            result.kind = .suggestionPicked(text: text.anonymize(word))
        case .paste(let pasted):
            result.kind = .paste(text: text.anonymize(pasted))
        case .dictationStart(.wavFile(let path, let transcript)):
            result.kind = .dictationStart(audio: .wavFile(path: path, transcript: transcript.map { text.anonymize($0) }))
        case let .dictationStart(.inline(onset, length, transcript)):
            result.kind = .dictationStart(audio: .inline(onset: onset, length: length,
                                                         transcript: transcript.map { text.anonymize($0) }))
        case .field(var field):
            field.text = text.anonymize(field.text)
            field.intendedText = field.intendedText.map { text.anonymize($0) }
            result.kind = .field(field)
        case .backspace, .cursorMove, .keyboardShown, .keyboardHidden, .languageSwitch, .network,
             .dictationStop, .chipAccepted:
            break
        }
        return result
    }
}
