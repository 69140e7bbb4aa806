/// Aligns the typed words of a field with its intended words by minimal word-level edit
/// distance, as text-entry research aligns transcribed with presented text, so that a
/// merged, split, missing or extra word affects itself and its neighbours, never the rest
/// of the text. Operations, each costing one: substitute a word, an extra typed word, a
/// missing intended word, two intended words typed as one (a merge: "eventon"), one typed
/// as two (a split: "some thing").
///
/// The alignment grows a row per typed word as words are finished (O(band) each) and is cut
/// back when an edit changes an earlier word. A typed prefix is aligned against any prefix of
/// the intended words (the user has not typed the rest yet). Rows are banded: only columns
/// within `bandWidth` of the previous row's best column are computed, which is exact while
/// the typed text strays fewer than `bandWidth` words from the intended one.
struct WordAligner {
    /// What the alignment says about one typed word.
    enum Verdict: Equatable {
        /// It is the intended word.
        case correct
        /// It stands for `intended` (a substitution, or a merge of two intended words).
        case wrong(intended: String)
        /// It is an extra word, or half of a split word: wrong, with no fix to offer.
        case wrongWithoutFix
    }

    /// Columns computed on each side of the previous row's best column.
    static let bandWidth = 8

    /// The operation that reached a cell, in order of preference between equal costs: an exact
    /// merge or split explains a word better than a substitution.
    private enum Move: UInt8 { case match, merge, split, substitute, extra, missing, none }

    private let intended: [String]
    /// Each intended word's number: equal words, equal numbers. Typed words are compared by
    /// number, so a cell costs integer comparisons; merges and splits compare text only when
    /// the lengths add up.
    private let intendedIDs: [Int32]
    /// Each intended word's length in UTF-8 bytes: what a merge or split is checked against
    /// first, without reading the strings.
    private let intendedLengths: [Int32]
    private let idOf: [String: Int32]
    /// The typed words the rows were computed for; row `i` aligns `typed[0..<i]`.
    private var typed: [String] = []
    private var typedIDs: [Int32] = []
    private var typedLengths: [Int32] = []
    /// The rows, one after another in two flat arrays (a row is a handful of cells, and an
    /// array of its own would cost two allocations a word): row `i` holds the columns
    /// `rowLows[i]...` in cells `rowStarts[i]..<rowStarts[i + 1]` of `costs` and `moves`.
    /// Cells from `rowStarts.last` on are room for the rows to come (or rows cut back).
    private var rowLows: [Int]
    private var rowStarts: [Int]
    /// Each row's best column (`bestColumn(ofRow:)`), found once as the row is made: the
    /// next row's band is centred on it, and the trace back starts from it.
    private var rowBests: [Int]
    private var costs: [Int32]
    private var moves: [Move]
    /// The verdict on each aligned word, as the alignment stood when the word was aligned
    /// (the word the user had just finished was the last): a later question about the word
    /// costs O(1), not a walk back through every row after it.
    private var verdicts: [Verdict] = []

    /// The cost of an unreachable cell.
    private static let unreachable = Int32.max / 2

    /// Aligns against the words of `intendedText` (split at white space, leading and
    /// trailing punctuation removed, as typed words are), found in `caches` when given.
    init(intendedText: String, caches: SimulationCaches? = nil) {
        let words = caches?.alignerWords(of: intendedText) ?? IntendedWords(intendedText)
        intended = words.intended
        intendedIDs = words.ids
        intendedLengths = words.lengths
        idOf = words.idOf
        let width = min(intended.count, Self.bandWidth)
        // Room for a typed word an intended word, each row as wide as the band: a field's
        // words then never regrow the arrays (more words regrow them as usual).
        let rows = intended.count + 1
        costs = Array(repeating: Self.unreachable, count: max(rows * (2 * Self.bandWidth), width + 1))
        moves = Array(repeating: .none, count: costs.count)
        for column in 0...width {
            costs[column] = Int32(column)
            moves[column] = column == 0 ? .none : .missing
        }
        rowLows = [0]
        rowStarts = [0, width + 1]
        rowBests = [0]
        rowLows.reserveCapacity(rows)
        rowStarts.reserveCapacity(rows + 1)
        rowBests.reserveCapacity(rows)
        typed.reserveCapacity(rows)
        typedIDs.reserveCapacity(rows)
        typedLengths.reserveCapacity(rows)
        verdicts.reserveCapacity(rows)
    }

    /// An intended text's words, numbered: what every aligner of the text starts from.
    struct IntendedWords: Sendable {
        var intended: [String]
        var ids: [Int32]
        /// Each word's length in UTF-8 bytes.
        var lengths: [Int32]
        var idOf: [String: Int32]

        init(_ text: String) {
            var text = text
            intended = text.withUTF8 { bytes in
                // ASCII text: words found byte by byte (white space splits, as `split` does;
                // punctuation comes off the ends, as `TextBuffer.word(in:)` takes it off).
                bytes.allSatisfy { $0 < 0x80 } ? Self.asciiWords(bytes) : nil
            } ?? text.split(whereSeparator: \.isWhitespace).map { String(TextBuffer.word(in: $0, tokenStart: 0).text) }
            // One look-up a word: a new word is numbered as it goes in.
            var idOf: [String: Int32] = [:]
            idOf.reserveCapacity(intended.count)
            ids = intended.map { word in
                let next = Int32(idOf.count)
                return Self.read(&idOf[word, default: next])
            }
            self.idOf = idOf
            lengths = intended.map { Int32($0.utf8.count) }
        }

        /// The words of ASCII text: its runs of non-white-space without their leading and
        /// trailing punctuation.
        private static func asciiWords(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
            var words: [String] = []
            var index = 0
            while index < bytes.count {
                while index < bytes.count && TextBuffer.isASCIIWhitespace(bytes[index]) { index += 1 }
                var lower = index
                while index < bytes.count && !TextBuffer.isASCIIWhitespace(bytes[index]) { index += 1 }
                guard index > lower else { break }
                var upper = index
                while lower < upper, TextBuffer.isASCIIPunctuationCategory(bytes[lower]) { lower += 1 }
                while upper > lower, TextBuffer.isASCIIPunctuationCategory(bytes[upper - 1]) { upper -= 1 }
                words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self))
            }
            return words
        }

        private static func read(_ value: inout Int32) -> Int32 { value }
    }

    /// Typed words aligned so far.
    var alignedWordCount: Int { typed.count }

    /// The words from `ordinal` on changed: their rows go.
    mutating func invalidate(fromWord ordinal: Int) {
        guard ordinal < typed.count else { return }
        let keep = max(0, ordinal)
        typed.removeSubrange(keep...)
        typedIDs.removeSubrange(keep...)
        typedLengths.removeSubrange(keep...)
        verdicts.removeSubrange(keep...)
        rowLows.removeSubrange((keep + 1)...)
        rowBests.removeSubrange((keep + 1)...)
        rowStarts.removeSubrange((keep + 2)...)
    }

    /// The verdict on typed word `ordinal`, with `words(i)` giving typed word `i` for every
    /// `i` not yet aligned up to `ordinal`: the alignment's word for it when it was aligned,
    /// the typed words up to it against any prefix of the intended ones.
    /// - Complexity: O(`bandWidth`) per word aligned on the way, O(1) for one aligned before.
    mutating func verdict(ofWord ordinal: Int, words: (Int) -> String) -> Verdict {
        while typed.count <= ordinal {
            append(words(typed.count))
            verdicts.append(traceBack(to: typed.count - 1))
        }
        return verdicts[ordinal]
    }

    /// The number of operations that turn all typed words aligned so far into all intended words.
    var totalDistance: Int {
        Int(cost(row: typed.count, column: intended.count))
    }

    // MARK: - Rows

    /// The cost of cell `column` of row `row` (unreachable outside the row's band).
    private func cost(row: Int, column: Int) -> Int32 {
        let index = column - rowLows[row], start = rowStarts[row]
        return index >= 0 && index < rowStarts[row + 1] - start ? costs[start + index] : Self.unreachable
    }

    /// The move that reached cell `column` of row `row` (none outside the row's band).
    private func move(row: Int, column: Int) -> Move {
        let index = column - rowLows[row], start = rowStarts[row]
        return index >= 0 && index < rowStarts[row + 1] - start ? moves[start + index] : .none
    }

    private mutating func append(_ word: String) {
        typed.append(word)
        let id = idOf[word] ?? -1
        let length = Int32(word.utf8.count)
        typedIDs.append(id)
        typedLengths.append(length)
        let i = typed.count
        let centre = rowBests[i - 1]
        let low = max(0, centre - Self.bandWidth + 1), high = min(intended.count, centre + Self.bandWidth)
        // Room for the row: the arrays grow geometrically, rarely (`init` made room for a
        // typed word an intended word).
        let first = rowStarts[i], width = high - low + 1
        if costs.count < first + width {
            let room = max(first + width, 2 * costs.count) - costs.count
            costs.append(contentsOf: repeatElement(Self.unreachable, count: room))
            moves.append(contentsOf: repeatElement(.none, count: room))
        }
        // Row `i - 1`'s cells, and row `i - 2`'s for splits.
        let previousLow = rowLows[i - 1], previousStart = rowStarts[i - 1], previousCount = first - previousStart
        let splitLow = i > 1 ? rowLows[i - 2] : 0, splitStart = i > 1 ? rowStarts[i - 2] : 0
        let splitCount = i > 1 ? previousStart - splitStart : 0
        let previousWord = i > 1 ? typed[i - 2] : "", previousLength = i > 1 ? typedLengths[i - 2] : 0
        let intended = self.intended, intendedIDs = self.intendedIDs, intendedLengths = self.intendedLengths
        // The cells are written through buffers of the arrays taken out of `self` for the
        // while (each then the only reference to its storage): no check per cell.
        var costs = self.costs, moves = self.moves
        self.costs = []
        self.moves = []
        costs.withUnsafeMutableBufferPointer { costs in
            moves.withUnsafeMutableBufferPointer { moves in
                func cell(_ start: Int, _ low: Int, _ count: Int, _ column: Int) -> Int32 {
                    let index = column - low
                    return index >= 0 && index < count ? costs[start + index] : Self.unreachable
                }
                for j in low...high {
                    var best = cell(previousStart, previousLow, previousCount, j) + 1, move = Move.extra
                    func consider(_ cost: Int32, _ candidate: Move) {
                        if cost < best || (cost == best && candidate.rawValue < move.rawValue) { best = cost; move = candidate }
                    }
                    if j > 0 {
                        let same = id >= 0 && id == intendedIDs[j - 1]
                        consider(cell(previousStart, previousLow, previousCount, j - 1) + (same ? 0 : 1), same ? .match : .substitute)
                        if j > 1 && length == intendedLengths[j - 2] + intendedLengths[j - 1]
                            && word == intended[j - 2] + intended[j - 1] {
                            consider(cell(previousStart, previousLow, previousCount, j - 2) + 1, .merge)
                        }
                        if i > 1 && previousLength + length == intendedLengths[j - 1] && previousWord + word == intended[j - 1] {
                            consider(cell(splitStart, splitLow, splitCount, j - 1) + 1, .split)
                        }
                        if j > low { consider(costs[first + j - 1 - low] + 1, .missing) }
                    }
                    costs[first + j - low] = best
                    moves[first + j - low] = move
                }
            }
        }
        self.costs = costs
        self.moves = moves
        rowLows.append(low)
        rowStarts.append(first + width)
        rowBests.append(bestColumn(ofRow: i))
    }

    /// The best column of row `row`: the least cost; among equals the most preferred move,
    /// then the earliest column.
    private func bestColumn(ofRow row: Int) -> Int {
        let start = rowStarts[row], end = rowStarts[row + 1]
        var best = start
        for index in (start + 1)..<end {
            let cost = costs[index], bestCost = costs[best]
            if cost < bestCost || (cost == bestCost && moves[index].rawValue < moves[best].rawValue) { best = index }
        }
        return rowLows[row] + best - start
    }

    /// Follows the best alignment of everything aligned so far back to typed word `ordinal`.
    private func traceBack(to ordinal: Int) -> Verdict {
        var i = typed.count, j = rowBests[i]
        while i > 0 {
            let move = move(row: i, column: j)
            switch move {
            case .missing:
                j -= 1
                continue
            case .split:
                if i - 2 <= ordinal { return .wrongWithoutFix }
                i -= 2; j -= 1
                continue
            default:
                break
            }
            if i - 1 == ordinal {
                switch move {
                case .match: return .correct
                case .substitute: return .wrong(intended: intended[j - 1])
                case .merge: return .wrong(intended: intended[j - 2] + " " + intended[j - 1])
                default: return .wrongWithoutFix
                }
            }
            switch move {
            case .match, .substitute: i -= 1; j -= 1
            case .merge: i -= 1; j -= 2
            default: i -= 1
            }
        }
        return .wrongWithoutFix
    }
}
