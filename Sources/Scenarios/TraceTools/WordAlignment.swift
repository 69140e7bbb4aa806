/// Minimal edit distances between a typed and an intended text, as text-entry research
/// aligns transcribed with presented text (Soukoreff and MacKenzie's minimum string
/// distance): over words, a merged, split, missing or extra word costs itself and at most
/// its neighbour, never the rest of the text; over characters, it is the measure of the
/// errors left behind that mobile typing studies report (Palin et al., MobileHCI 2019).
///
/// Words are runs of characters other than white space, compared exactly; characters are
/// grapheme clusters.
public enum WordAlignment {
    /// The most words of either text aligned; longer texts are cut (the cost is quadratic).
    public static let wordCountMax = 4096
    /// The most cells (characters typed × characters intended) a character distance is
    /// computed over; beyond it `characterDistance` gives `nil`.
    public static let characterCellsMax = 25_000_000

    /// The words of `text`.
    public static func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: \.isWhitespace)
    }

    /// The number of word substitutions, insertions and deletions that turn `typed` into
    /// `intended`.
    /// - Complexity: O(n·m) time, O(m) memory, n and m the word counts (each at most
    ///   `wordCountMax`).
    public static func distance(typed: String, intended: String) -> Int {
        editDistance(Array(words(typed).prefix(wordCountMax)), Array(words(intended).prefix(wordCountMax)))
    }

    /// The minimum string distance over grapheme clusters between `typed` and `intended`;
    /// `nil` when the texts are too long to compare (`characterCellsMax`).
    ///
    /// The common start and end are set aside first; when what is left has as many lines on
    /// both sides (typists do not slip on return), the lines are compared pairwise, which
    /// keeps a long text with a few slips far from quadratic.
    public static func characterDistance(typed: String, intended: String) -> Int? {
        var a = Array(typed)[...], b = Array(intended)[...]
        while let x = a.first, let y = b.first, x == y { a.removeFirst(); b.removeFirst() }
        while let x = a.last, let y = b.last, x == y { a.removeLast(); b.removeLast() }
        let linesA = a.split(separator: "\n", omittingEmptySubsequences: false)
        let linesB = b.split(separator: "\n", omittingEmptySubsequences: false)
        if linesA.count == linesB.count && linesA.count > 1 {
            var total = 0
            for (x, y) in zip(linesA, linesB) {
                guard x.count * y.count <= characterCellsMax else { return nil }
                total += editDistance(Array(x), Array(y))
            }
            return total
        }
        guard a.count * b.count <= characterCellsMax else { return nil }
        return editDistance(Array(a), Array(b))
    }

    /// The Levenshtein distance between two sequences (unit costs).
    static func editDistance<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
