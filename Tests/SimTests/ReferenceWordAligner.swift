@testable import Sim

// The word aligner as keysim had it before its rows were kept in flat arrays (one pair of
// arrays a row, lengths read from the strings), kept as the reference that
// `WordAlignerTests` holds `WordAligner` to, verdict by verdict. Only the names changed:
// it shares the intended words (`WordAligner.IntendedWords`) and the verdict type.

/// The row-per-array word aligner: the reference for `WordAligner`.
struct ReferenceWordAligner {
    /// Columns computed on each side of the previous row's best column.
    static let bandWidth = 8

    /// The operation that reached a cell, in order of preference between equal costs: an exact
    /// merge or split explains a word better than a substitution.
    private enum Move: UInt8 { case match, merge, split, substitute, extra, missing, none }

    private struct Row {
        /// The first column held.
        var low: Int
        var costs: [Int32]
        var moves: [Move]
        func cost(_ column: Int) -> Int32 {
            let index = column - low
            return index >= 0 && index < costs.count ? costs[index] : .max / 2
        }
        func move(_ column: Int) -> Move {
            let index = column - low
            return index >= 0 && index < moves.count ? moves[index] : .none
        }
    }

    private let intended: [String]
    /// Each intended word's number: equal words, equal numbers. Typed words are compared by
    /// number, so a cell costs integer comparisons; merges and splits compare text only when
    /// the lengths add up.
    private let intendedIDs: [Int32]
    private let idOf: [String: Int32]
    /// The typed words the rows were computed for; `rows[i]` aligns `typed[0..<i]`.
    private var typed: [String] = []
    private var typedIDs: [Int32] = []
    private var rows: [Row]
    /// The verdict on each aligned word, as the alignment stood when the word was aligned
    /// (the word the user had just finished was the last): a later question about the word
    /// costs O(1), not a walk back through every row after it.
    private var verdicts: [WordAligner.Verdict] = []

    /// Aligns against the words of `intendedText` (split at white space, leading and
    /// trailing punctuation removed, as typed words are), found in `caches` when given.
    init(intendedText: String, caches: SimulationCaches? = nil) {
        let words = caches?.alignerWords(of: intendedText) ?? WordAligner.IntendedWords(intendedText)
        intended = words.intended
        intendedIDs = words.ids
        idOf = words.idOf
        let width = min(intended.count, Self.bandWidth)
        rows = [Row(low: 0, costs: (0...width).map(Int32.init), moves: [.none] + Array(repeating: .missing, count: width))]
    }

    /// Typed words aligned so far.
    var alignedWordCount: Int { typed.count }

    /// The words from `ordinal` on changed: their rows go.
    mutating func invalidate(fromWord ordinal: Int) {
        guard ordinal < typed.count else { return }
        let keep = max(0, ordinal)
        typed.removeSubrange(keep...)
        typedIDs.removeSubrange(keep...)
        verdicts.removeSubrange(keep...)
        rows.removeSubrange((keep + 1)...)
    }

    /// The verdict on typed word `ordinal`, with `words(i)` giving typed word `i` for every
    /// `i` not yet aligned up to `ordinal`: the alignment's word for it when it was aligned,
    /// the typed words up to it against any prefix of the intended ones.
    /// - Complexity: O(`bandWidth`) per word aligned on the way, O(1) for one aligned before.
    mutating func verdict(ofWord ordinal: Int, words: (Int) -> String) -> WordAligner.Verdict {
        while typed.count <= ordinal {
            append(words(typed.count))
            verdicts.append(traceBack(to: typed.count - 1))
        }
        return verdicts[ordinal]
    }

    /// The number of operations that turn all typed words aligned so far into all intended words.
    var totalDistance: Int {
        let last = rows[rows.count - 1]
        return Int(last.cost(intended.count))
    }

    // MARK: - Rows

    private mutating func append(_ word: String) {
        typed.append(word)
        let id = idOf[word] ?? -1
        typedIDs.append(id)
        let i = typed.count
        let previous = rows[i - 1]
        let centre = bestColumn(of: previous)
        let low = max(0, centre - Self.bandWidth + 1), high = min(intended.count, centre + Self.bandWidth)
        var costs = [Int32](repeating: .max / 2, count: high - low + 1)
        var moves = [Move](repeating: .none, count: high - low + 1)
        for j in low...high {
            var best = previous.cost(j) + 1, move = Move.extra
            func consider(_ cost: Int32, _ candidate: Move) {
                if cost < best || (cost == best && candidate.rawValue < move.rawValue) { best = cost; move = candidate }
            }
            if j > 0 {
                let same = id >= 0 && id == intendedIDs[j - 1]
                consider(previous.cost(j - 1) + (same ? 0 : 1), same ? .match : .substitute)
                if j > 1 && word.utf8.count == intended[j - 2].utf8.count + intended[j - 1].utf8.count
                    && word == intended[j - 2] + intended[j - 1] {
                    consider(previous.cost(j - 2) + 1, .merge)
                }
                if i > 1 && typed[i - 2].utf8.count + word.utf8.count == intended[j - 1].utf8.count
                    && typed[i - 2] + word == intended[j - 1] {
                    consider(rows[i - 2].cost(j - 1) + 1, .split)
                }
                if j > low { consider(costs[j - 1 - low] + 1, .missing) }
            }
            costs[j - low] = best
            moves[j - low] = move
        }
        rows.append(Row(low: low, costs: costs, moves: moves))
    }

    /// The best column of a row: the least cost; among equals the most preferred move, then
    /// the earliest column.
    private func bestColumn(of row: Row) -> Int {
        var best = 0
        for index in row.costs.indices.dropFirst() {
            let cost = row.costs[index], bestCost = row.costs[best]
            if cost < bestCost || (cost == bestCost && row.moves[index].rawValue < row.moves[best].rawValue) { best = index }
        }
        return row.low + best
    }

    /// Follows the best alignment of everything aligned so far back to typed word `ordinal`.
    private func traceBack(to ordinal: Int) -> WordAligner.Verdict {
        var i = typed.count, j = bestColumn(of: rows[i])
        while i > 0 {
            let move = rows[i].move(j)
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

/// The intended words as `WordAligner.IntendedWords` found them before ASCII text was split
/// byte by byte and each word numbered with one look-up: the reference for it.
func referenceIntendedWords(_ text: String) -> (intended: [String], ids: [Int32]) {
    let words = text.utf8.allSatisfy { $0 < 0x80 }
        ? text.utf8.split(whereSeparator: TextBuffer.isASCIIWhitespace).map { Substring($0) }
        : text.split(whereSeparator: \.isWhitespace)
    let intended = words.map { String(TextBuffer.word(in: $0, tokenStart: 0).text) }
    var idOf: [String: Int32] = [:]
    let ids = intended.map { word in
        if let id = idOf[word] { return id }
        let id = Int32(idOf.count)
        idOf[word] = id
        return id
    }
    return (intended, ids)
}
