import Sim

/// Counts the words of texts into a dictionary (`keysim dict build`).
///
/// A word is a run of letters, lower-cased, that may hold single apostrophes or hyphens
/// between letters (`don't`, `rabbit-hole`); the typographic apostrophe ’ counts as `'`.
/// Anything else (digits, punctuation, white space, a doubled hyphen) separates words.
public struct DictionaryBuilder {
    /// Word counts so far.
    public private(set) var counts: [String: Int] = [:]
    /// Words counted so far (tokens).
    public private(set) var tokens = 0

    /// An empty builder.
    public init() {}

    /// Counts the words of one line (or any text).
    public mutating func add(_ text: some StringProtocol) {
        var word = ""
        var joiner: Character?
        for character in text {
            if character.isLetter {
                if let pending = joiner { word.append(pending); joiner = nil }
                if character.isASCII { word.append(Character(character.lowercased())) } else { word += character.lowercased() }
            } else if (character == "'" || character == "\u{2019}" || character == "-") && !word.isEmpty && joiner == nil {
                joiner = character == "-" ? "-" : "'"
            } else {
                flush(&word)
                joiner = nil
            }
        }
        flush(&word)
    }

    private mutating func flush(_ word: inout String) {
        guard !word.isEmpty else { return }
        counts[word, default: 0] += 1
        tokens += 1
        word = ""
    }

    /// The entries in file order (count descending, then word ascending by UTF-8 bytes),
    /// without words counted fewer than `minCount` times, at most `maxWords` of them.
    public func entries(minCount: Int = 1, maxWords: Int? = nil) -> [(word: String, count: Int)] {
        let kept = counts.filter { $0.value >= minCount }.map { (word: $0.key, count: $0.value) }
        let sorted = kept.sorted { a, b in a.count != b.count ? a.count > b.count : DictionaryFile.precedes(a.word, b.word) }
        return maxWords.map { Array(sorted.prefix($0)) } ?? sorted
    }
}
