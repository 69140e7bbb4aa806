/// Which typed words are errors, and their fixes: the trace's intended text when it has
/// one, else the checker's lexicon, else none.
struct GroundTruth {
    /// The intended words, as strings of their own: comparing two short strings is a
    /// comparison of their inline bytes, where comparing substrings of one long text is not.
    private let intendedWords: [String]?
    private let lexicon: Set<String>
    /// Set once a fix damaged the text: words no longer line up with the intended text, so
    /// it stops deciding which words are errors (a corrupted text would otherwise look like
    /// nothing but errors from there on).
    private(set) var alignmentBroken = false

    init(intendedText: String?, lexicon: Set<String>) {
        intendedWords = intendedText.map {
            $0.split(whereSeparator: \.isWhitespace).map { String(TextBuffer.word(in: $0, tokenStart: 0).text) }
        }
        self.lexicon = lexicon
    }

    /// Whether the word typed as the `ordinal`-th word is an error, and its fix when known.
    func verdict(ordinal: Int, word: String) -> (isError: Bool, fix: String?) {
        if let intendedWords, !alignmentBroken {
            guard ordinal < intendedWords.count else { return (false, nil) }
            let intended = intendedWords[ordinal]
            return intended == word ? (false, nil) : (true, intended)
        }
        if !lexicon.isEmpty { return (!lexicon.contains(word.lowercased()), nil) }
        return (false, nil)
    }

    /// A fix corrupted the text: from now on the intended text decides nothing.
    mutating func breakAlignment() { alignmentBroken = true }
}
