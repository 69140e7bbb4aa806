/// Which typed words are errors, and their fixes: the field's intended text when known,
/// aligned with the typed words by minimal word-level edit distance (`WordAligner`); else
/// the checker's lexicon; else none.
struct GroundTruth {
    /// The field's aligner, once a verdict has been asked for.
    private var aligner: WordAligner?
    /// The field's intended text while no verdict has been asked for: its aligner is built
    /// then, so that a field replaced before any verdict costs nothing (a fleet's session
    /// opens its first message's field right after it starts, replacing the session's whole
    /// text). An aligner with nothing aligned yet ignores edits, so none is lost.
    private var unalignedText: String?
    private let lexicon: Set<String>
    /// The job's memos, for the words of intended texts.
    private let caches: SimulationCaches
    /// Where the last aligned word ends: edits after it change no aligned word.
    private var alignedEndUTF8 = 0

    init(intendedText: String?, lexicon: Set<String>, caches: SimulationCaches) {
        unalignedText = intendedText
        self.lexicon = lexicon
        self.caches = caches
    }

    /// A new field: its intended text, if known, decides from now on.
    mutating func fieldChanged(intendedText: String?) {
        aligner = nil
        unalignedText = intendedText
        alignedEndUTF8 = 0
    }

    /// The text changed: aligned words the edit touched are aligned again when next asked about.
    mutating func edited(_ edit: TextEdit, text: TextBuffer) {
        guard aligner != nil, edit.atUTF8 <= alignedEndUTF8 else { return }
        // The word holding the edit's start, or ending right at it, may have changed.
        let ordinal = max(0, text.tokenOrdinal(atOrAfterUTF8: max(0, edit.atUTF8 - 1)))
        aligner!.invalidate(fromWord: ordinal)
        alignedEndUTF8 = aligner!.alignedWordCount == 0 ? 0 : (text.tokenRange(aligner!.alignedWordCount - 1)?.upperBound ?? 0)
    }

    /// Whether the word typed as the `ordinal`-th word of `text` is an error, and its fix when known.
    mutating func verdict(ordinal: Int, word: String, text: TextBuffer) -> (isError: Bool, fix: String?) {
        if let intendedText = unalignedText.take() { aligner = WordAligner(intendedText: intendedText, caches: caches) }
        if aligner != nil {
            let verdict = aligner!.verdict(ofWord: ordinal) { i in
                text.wordRange(ofToken: i).map { text.string(utf8: $0) } ?? ""
            }
            if let end = text.tokenRange(aligner!.alignedWordCount - 1)?.upperBound { alignedEndUTF8 = max(alignedEndUTF8, end) }
            switch verdict {
            case .correct: return (false, nil)
            case .wrong(let intended): return (true, intended)
            case .wrongWithoutFix: return (true, nil)
            }
        }
        if !lexicon.isEmpty { return (!lexicon.contains(word.lowercased()), nil) }
        return (false, nil)
    }
}
