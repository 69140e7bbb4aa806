/// The document text as the keyboard extension sees it, with a cursor and a version that
/// every edit bumps.
///
/// Edits happen at the cursor. While the cursor is at the end of the text — nearly always —
/// every edit takes a fast path at the end; an edit elsewhere splices the text in O(text).
/// `lastEdit` says what the latest edit replaced, so that anchors (underlines, the words of
/// requests in flight) can follow their words. Counts are in grapheme
/// clusters (`Character`s), as `deleteBackward()` removes them; the grapheme count, the token
/// (word) starts and the start of the last cluster are kept incrementally, so a key costs
/// O(key), not O(text).
///
/// The text is kept as UTF-8 bytes, not as a `String`: appending one byte to an array is a
/// store, where appending to a `String` costs hundreds of instructions of Unicode
/// bookkeeping, and every question a key asks (did a word just end? which word is it?) is a
/// look at the last few bytes. Grapheme clusters still decide counts and deletions. Any
/// Unicode question is answered on a short window decoded as a `String`, cut at places
/// that are cluster boundaries whatever surrounds them: the start of the last cluster
/// (tracked), the start of the text, and any place between two ASCII bytes other than CR
/// and LF (no Unicode rule joins two such characters; every joining rule involves a
/// non-ASCII character or CR LF).
public struct TextBuffer: Sendable, Equatable {
    /// The text, as UTF-8.
    public private(set) var utf8: [UInt8] = []
    /// Bumped by every edit; a request carries the version it saw.
    public private(set) var version: Int = 0
    /// The number of grapheme clusters in the text.
    public private(set) var count: Int = 0
    /// The lowest UTF-8 offset changed since `markClean()`.
    public private(set) var dirtyFromUTF8: Int = 0
    /// UTF-8 offsets where tokens (runs of non-white-space) start, ascending.
    public private(set) var tokenStarts: [Int] = []
    /// The UTF-8 offset where the last grapheme cluster starts (0 when the text is empty).
    private var lastClusterStart: Int = 0
    /// The cursor, as a UTF-8 offset on a cluster boundary.
    public private(set) var cursorUTF8: Int = 0
    /// What the latest edit did.
    public private(set) var lastEdit = TextEdit(atUTF8: 0, removedUTF8: 0, insertedUTF8: 0)

    /// Creates a buffer holding `text`, the cursor at its end.
    public init(_ text: String = "") {
        if !text.isEmpty { insert(text) }
        version = 0
        dirtyFromUTF8 = utf8.count
        lastEdit = TextEdit(atUTF8: 0, removedUTF8: 0, insertedUTF8: 0)
    }

    /// Whether the cursor is at the end of the text (the fast paths).
    @inline(__always) public var isCursorAtEnd: Bool { cursorUTF8 == utf8.count }

    /// The text. Builds a `String`: O(text).
    public var text: String { String(decoding: utf8, as: UTF8.self) }

    /// The text of a UTF-8 range that starts and ends on cluster boundaries.
    public func string(utf8 range: Range<Int>) -> String { String(decoding: utf8[range], as: UTF8.self) }

    // MARK: - Edits

    /// Inserts text at the cursor, which moves past it.
    public mutating func insert(_ inserted: String) {
        guard !inserted.isEmpty else { return }
        guard isCursorAtEnd else { return splice(removingCharactersBeforeCursor: 0, inserting: inserted) }
        if inserted.utf8.count == 1, let byte = inserted.utf8.first, insertASCII(byte) { return }
        if insertASCII(inserted) { return }
        // Appending can merge with the last cluster (a combining mark, a skin tone, a ZWJ
        // sequence): count the clusters of the joined tail, from the last cluster's start,
        // to know the true change.
        let oldLast = lastCharacter
        let tailOffset = oldLast == nil ? 0 : lastClusterStart
        var previousIsSpace = oldLast.map(\.isWhitespace) ?? true
        var offset = utf8.count
        for scalarRun in inserted {
            if !scalarRun.isWhitespace && previousIsSpace { tokenStarts.append(offset) }
            previousIsSpace = scalarRun.isWhitespace
            offset += scalarRun.utf8.count
        }
        utf8.append(contentsOf: inserted.utf8)
        let tail = string(utf8: tailOffset..<utf8.count)
        count += tail.count - (oldLast == nil ? 0 : 1)
        lastClusterStart = tailOffset + Self.lastClusterOffset(in: tail)
        let lastUnchanged = oldLast != nil && tail.first == oldLast
        dirtyFromUTF8 = min(dirtyFromUTF8, lastUnchanged ? tailOffset + oldLast!.utf8.count : tailOffset)
        version += 1
        lastEdit = TextEdit(atUTF8: utf8.count - inserted.utf8.count, removedUTF8: 0, insertedUTF8: inserted.utf8.count)
        cursorUTF8 = utf8.count
    }

    /// Appends one ASCII character, the common case, in O(1) without Unicode tables.
    /// Returns `false`, changing nothing, when the byte is not ASCII or might join the last
    /// cluster: after a non-ASCII byte (a prepended mark), or as the LF of a CR LF pair.
    @discardableResult
    public mutating func insertASCII(_ byte: UInt8) -> Bool {
        guard byte < 0x80, byte != 0x0A, isCursorAtEnd else { return false }
        let previous = utf8.last
        if let previous, previous >= 0x80 { return false }
        let offset = utf8.count
        let previousIsSpace = previous.map(Self.isASCIIWhitespace) ?? true
        if !Self.isASCIIWhitespace(byte) && previousIsSpace { tokenStarts.append(offset) }
        utf8.append(byte)
        lastClusterStart = offset
        count += 1
        dirtyFromUTF8 = min(dirtyFromUTF8, offset)
        version += 1
        lastEdit = TextEdit(atUTF8: offset, removedUTF8: 0, insertedUTF8: 1)
        cursorUTF8 = offset + 1
        return true
    }

    /// Whether the text is empty or its last cluster is one byte: an ASCII byte after it
    /// starts a cluster of its own, and the last character is white space exactly when its
    /// byte is.
    private var endsInOneByteCluster: Bool { utf8.isEmpty || lastClusterStart == utf8.count - 1 }

    /// Appends ASCII text at the end in O(inserted) without Unicode tables, every byte a
    /// cluster of its own: what the general path of `insert` does, character by character.
    /// Returns `false`, changing nothing, when a byte is not ASCII or might join another
    /// cluster: a CR (of a CR LF pair) in the text, or text after a cluster of more than one
    /// byte, a non-ASCII byte or a CR.
    private mutating func insertASCII(_ inserted: String) -> Bool {
        guard isCursorAtEnd, endsInOneByteCluster, utf8.last.map({ $0 < 0x80 && $0 != 0x0D }) ?? true,
              inserted.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return false }
        let offset = utf8.count
        var previousIsSpace = utf8.last.map(Self.isASCIIWhitespace) ?? true
        for (index, byte) in inserted.utf8.enumerated() {
            let isSpace = Self.isASCIIWhitespace(byte)
            if !isSpace && previousIsSpace { tokenStarts.append(offset + index) }
            previousIsSpace = isSpace
        }
        utf8.append(contentsOf: inserted.utf8)
        count += inserted.utf8.count
        lastClusterStart = utf8.count - 1
        dirtyFromUTF8 = min(dirtyFromUTF8, offset)
        version += 1
        lastEdit = TextEdit(atUTF8: offset, removedUTF8: 0, insertedUTF8: inserted.utf8.count)
        cursorUTF8 = utf8.count
        return true
    }

    /// Removes the grapheme cluster before the cursor, as `deleteBackward()` does. At the
    /// start of the text nothing changes, but the key was still handled and counts as an edit.
    public mutating func deleteBackward() {
        guard isCursorAtEnd else { return splice(removingCharactersBeforeCursor: 1, inserting: "") }
        let before = utf8.count
        if count > 0 {
            removeLastCluster()
            dirtyFromUTF8 = min(dirtyFromUTF8, utf8.count)
            while let last = tokenStarts.last, last >= utf8.count { tokenStarts.removeLast() }
        }
        version += 1
        lastEdit = TextEdit(atUTF8: utf8.count, removedUTF8: before - utf8.count, insertedUTF8: 0)
        cursorUTF8 = utf8.count
    }

    /// Replaces the token before the cursor by `word`, as picking a suggestion does.
    public mutating func replaceCurrentWord(with word: String) {
        guard isCursorAtEnd else {
            let before = string(utf8: 0..<cursorUTF8)
            let kept = before.reversed().drop { !Self.isWhitespace($0) }.count
            return splice(removingCharactersBeforeCursor: before.count - kept, inserting: word)
        }
        let before = utf8.count
        while let last = lastCharacter, !Self.isWhitespace(last) { removeLastCluster() }
        while let last = tokenStarts.last, last >= utf8.count { tokenStarts.removeLast() }
        dirtyFromUTF8 = min(dirtyFromUTF8, utf8.count)
        let start = utf8.count
        cursorUTF8 = start
        insert(word)
        lastEdit = TextEdit(atUTF8: start, removedUTF8: before - start, insertedUTF8: word.utf8.count)
    }

    /// Replaces the whole text (a fix applied through the text proxy, a field opened with
    /// text in it). Recomputes the tokens; the cursor goes to `cursorUTF8`, the end by default.
    public mutating func replaceAll(with newText: String, cursorUTF8 newCursor: Int? = nil) {
        let oldDirty = dirtyFromUTF8
        let oldVersion = version
        let old = text
        let prefix = Self.commonPrefixUTF8(old, newText)
        let suffix = min(Self.commonSuffixUTF8(old, newText), min(old.utf8.count, newText.utf8.count) - prefix)
        utf8 = []
        count = 0
        tokenStarts = []
        lastClusterStart = 0
        cursorUTF8 = 0
        insert(newText)
        version = oldVersion + 1
        dirtyFromUTF8 = min(oldDirty, prefix)
        lastEdit = TextEdit(atUTF8: prefix, removedUTF8: old.utf8.count - prefix - suffix,
                            insertedUTF8: newText.utf8.count - prefix - suffix)
        if let newCursor {
            precondition(newCursor >= 0 && newCursor <= utf8.count, "the cursor stays inside the text")
            cursorUTF8 = newCursor
        }
    }

    /// Moves the cursor by `offset` grapheme clusters (negative: towards the start), stopping
    /// at either end. Not an edit: the version does not change.
    public mutating func moveCursor(byCharacters offset: Int) {
        guard offset != 0 else { return }
        if offset < 0 {
            let before = string(utf8: 0..<cursorUTF8)
            cursorUTF8 -= before.reversed().prefix(-offset).reduce(0) { $0 + $1.utf8.count }
        } else {
            let after = string(utf8: cursorUTF8..<utf8.count)
            cursorUTF8 += after.prefix(offset).reduce(0) { $0 + $1.utf8.count }
        }
    }

    /// An edit away from the end: the text is rebuilt around the cursor. O(text).
    private mutating func splice(removingCharactersBeforeCursor removed: Int, inserting inserted: String) {
        let before = string(utf8: 0..<cursorUTF8), after = string(utf8: cursorUTF8..<utf8.count)
        let kept = String(before.dropLast(removed))
        let removedUTF8 = before.utf8.count - kept.utf8.count
        let oldDirty = dirtyFromUTF8, oldVersion = version
        utf8 = []
        count = 0
        tokenStarts = []
        lastClusterStart = 0
        cursorUTF8 = 0
        insert(kept + inserted + after)
        version = oldVersion + 1
        dirtyFromUTF8 = min(oldDirty, kept.utf8.count)
        lastEdit = TextEdit(atUTF8: kept.utf8.count, removedUTF8: removedUTF8, insertedUTF8: inserted.utf8.count)
        cursorUTF8 = kept.utf8.count + inserted.utf8.count
    }

    /// Marks the current text as sent; later edits start a new dirty range.
    public mutating func markClean() { dirtyFromUTF8 = utf8.count }

    /// Marks the text from a UTF-8 offset as changed again (a request that never got through).
    public mutating func markDirty(fromUTF8 offset: Int) { dirtyFromUTF8 = min(dirtyFromUTF8, max(0, offset)) }

    // MARK: - Clusters

    /// Removes the last cluster and finds where the one before it starts.
    private mutating func removeLastCluster() {
        utf8.removeSubrange(lastClusterStart...)
        count -= 1
        let end = utf8.count
        if end == 0 {
            lastClusterStart = 0
        } else if utf8[end - 1] < 0x80 && (end == 1 || isBoundaryBetweenASCII(end - 1)) {
            lastClusterStart = end - 1
        } else {
            let from = safeBoundary(atOrBefore: end - 1)
            lastClusterStart = from + Self.lastClusterOffset(in: string(utf8: from..<end))
        }
    }

    /// The UTF-8 offset of the last `Character` of a non-empty string.
    private static func lastClusterOffset(in string: String) -> Int {
        string.utf8.distance(from: string.startIndex, to: string.index(before: string.endIndex))
    }

    /// Whether `offset` lies between two ASCII bytes that are not CR LF: a cluster boundary.
    @inline(__always) private func isBoundaryBetweenASCII(_ offset: Int) -> Bool {
        let before = utf8[offset - 1], after = utf8[offset]
        return before < 0x80 && after < 0x80 && !(before == 0x0D && after == 0x0A)
    }

    /// The greatest cluster boundary at or before `offset` (< `utf8.count`) that holds
    /// whatever comes before it: 0, or a place between two ASCII bytes.
    private func safeBoundary(atOrBefore offset: Int) -> Int {
        var p = offset
        while p > 0 && !isBoundaryBetweenASCII(p) { p -= 1 }
        return p
    }

    /// The least such boundary at or after `offset` (≥ 1), or the end of the text.
    private func safeBoundary(atOrAfter offset: Int) -> Int {
        var p = offset
        while p < utf8.count && !isBoundaryBetweenASCII(p) { p += 1 }
        return p
    }

    /// The last character, if any.
    public var lastCharacter: Character? {
        guard !utf8.isEmpty else { return nil }
        if lastClusterStart == utf8.count - 1 && utf8[lastClusterStart] < 0x80 {
            return Character(Unicode.Scalar(utf8[lastClusterStart]))
        }
        return string(utf8: lastClusterStart..<utf8.count).first
    }

    /// The last character but one.
    public var characterBeforeLast: Character? {
        guard lastClusterStart > 0 else { return nil }
        let from = safeBoundary(atOrBefore: lastClusterStart - 1)
        return string(utf8: from..<lastClusterStart).last
    }

    /// Grapheme clusters changed since the last `markClean()`. O(changed text).
    public var dirtyCount: Int { characterCount(utf8: min(dirtyFromUTF8, utf8.count)..<utf8.count) }

    /// Grapheme clusters in a UTF-8 range that starts and ends on cluster boundaries:
    /// counted byte by byte while the text is ASCII (only CR LF joins two ASCII bytes).
    /// O(range).
    public func characterCount(utf8 range: Range<Int>) -> Int {
        var clusters = 0
        var previous: UInt8 = 0
        for byte in utf8[range] {
            guard byte < 0x80 else { return string(utf8: range).count }
            if !(previous == 0x0D && byte == 0x0A) { clusters += 1 }
            previous = byte
        }
        return clusters
    }

    // MARK: - What the last edit did

    /// The last two bytes when both are ASCII and not CR LF (then they are the last two characters).
    @inline(__always) private var lastTwoASCII: (UInt8, UInt8)? {
        let end = utf8.count
        guard end >= 2, isBoundaryBetweenASCII(end - 1) else { return nil }
        return (utf8[end - 2], utf8[end - 1])
    }

    /// Whether the last character is white space right after a non-space: a token just ended.
    private var endsTokenAtEnd: Bool {
        if let (beforeLast, last) = lastTwoASCII { return Self.isASCIIWhitespace(last) && !Self.isASCIIWhitespace(beforeLast) }
        guard let last = lastCharacter, last.isWhitespace, let beforeLast = characterBeforeLast else { return false }
        return !beforeLast.isWhitespace
    }

    /// Whether the text, ignoring trailing white space, ends with `.`, `!` or `?`.
    private var endsSentenceAtEnd: Bool {
        for byte in utf8.reversed() {
            if byte >= 0x80 { break }
            if Self.isASCIIWhitespace(byte) { continue }
            return byte == 0x2E || byte == 0x21 || byte == 0x3F
        }
        // Rare path, past a non-ASCII byte: the last non-space character, looked for window
        // by window back from the end (a window can be all white space: no-break spaces).
        var windowEnd = utf8.count
        while windowEnd > 0 {
            let from = safeBoundary(atOrBefore: windowEnd - 1)
            if let last = string(utf8: from..<windowEnd).last(where: { !$0.isWhitespace }) {
                return last == "." || last == "!" || last == "?"
            }
            windowEnd = from
        }
        return false
    }

    /// Whether the last character just ended a word: white space or punctuation right after
    /// a letter or digit.
    private var endsWordAtEnd: Bool {
        if let (beforeLast, last) = lastTwoASCII {
            return (Self.isASCIIWhitespace(last) || Self.isASCIIPunctuationCategory(last)) && Self.isASCIIAlphanumeric(beforeLast)
        }
        guard let last = lastCharacter, last.isWhitespace || last.isPunctuation else { return false }
        guard let beforeLast = characterBeforeLast else { return false }
        return beforeLast.isLetter || beforeLast.isNumber
    }

    /// Whether the last character just finished a word: white space or punctuation (other than
    /// the apostrophes and hyphens inside words) right after a character that is neither.
    private var finishesWordAtEnd: Bool {
        if let (beforeLast, last) = lastTwoASCII {
            return Self.isASCIIWordBoundary(last) && !Self.isASCIIWordBoundary(beforeLast)
        }
        guard let last = lastCharacter, Self.isWordBoundary(last), let beforeLast = characterBeforeLast else { return false }
        return !Self.isWordBoundary(beforeLast)
    }

    /// White space or punctuation that ends a word: not `'`, `’`, `-` or `‐`, which stand inside words.
    @inline(__always) static func isASCIIWordBoundary(_ byte: UInt8) -> Bool {
        isASCIIWhitespace(byte) || (isASCIIPunctuationCategory(byte) && byte != 0x27 && byte != 0x2D)
    }

    static func isWordBoundary(_ character: Character) -> Bool {
        if character.isASCII, let byte = character.asciiValue { return isASCIIWordBoundary(byte) }
        return character.isWhitespace || (character.isPunctuation && character != "’" && character != "‐")
    }

    /// Whether the last character just ended a sentence: `.`, `!` or `?` right after a letter
    /// or digit.
    private var justEndedSentenceAtEnd: Bool {
        if let (beforeLast, last) = lastTwoASCII {
            return (last == 0x2E || last == 0x21 || last == 0x3F) && Self.isASCIIAlphanumeric(beforeLast)
        }
        guard let last = lastCharacter, last == "." || last == "!" || last == "?" else { return false }
        guard let beforeLast = characterBeforeLast else { return false }
        return beforeLast.isLetter || beforeLast.isNumber
    }

    // MARK: - Tokens and words

    /// The number of tokens (runs of non-white-space).
    public var wordCount: Int { tokenStarts.count }

    /// The ordinal of the token holding or following UTF-8 offset `offset`.
    public func tokenOrdinal(atOrAfterUTF8 offset: Int) -> Int {
        var low = 0, high = tokenStarts.count
        while low < high {
            let mid = (low + high) / 2
            if tokenStarts[mid] <= offset { low = mid + 1 } else { high = mid }
        }
        // `low` tokens start at or before the offset; the last of them may still hold it.
        if low > 0, let range = tokenRange(low - 1), range.upperBound > offset { return low - 1 }
        return low
    }

    /// The UTF-8 range of the token at `ordinal`, white space excluded.
    public func tokenRange(_ ordinal: Int) -> Range<Int>? {
        guard ordinal >= 0, ordinal < tokenStarts.count else { return nil }
        let start = tokenStarts[ordinal]
        var end = ordinal + 1 < tokenStarts.count ? tokenStarts[ordinal + 1] : utf8.count
        // ASCII fast path: while the cluster before `end` is one ASCII byte (the byte before
        // it ASCII too, and not CR before LF), it is white space exactly when the byte is.
        while end > start {
            let byte = utf8[end - 1]
            guard byte < 0x80, end - 1 == start || isBoundaryBetweenASCII(end - 1) else {
                // Rare path: trim white-space characters off the token's own text.
                var token = string(utf8: start..<end)[...]
                while let last = token.last, Self.isWhitespace(last) { token = token.dropLast() }
                return start..<(start + token.utf8.count)
            }
            guard Self.isASCIIWhitespace(byte) else { break }
            end -= 1
        }
        return start..<end
    }

    /// The token at `ordinal`: its UTF-8 start and text (white space excluded).
    public func token(_ ordinal: Int) -> (start: Int, text: Substring)? {
        tokenRange(ordinal).map { ($0.lowerBound, string(utf8: $0)[...]) }
    }

    /// The UTF-8 range of the checkable word in the token at `ordinal`: the token without
    /// leading and trailing punctuation (see `word(in:tokenStart:)`).
    public func wordRange(ofToken ordinal: Int) -> Range<Int>? {
        guard let token = tokenRange(ordinal) else { return nil }
        var lower = token.lowerBound
        var upper = token.upperBound
        // ASCII fast path (no CR either): every byte is a character.
        for offset in token where utf8[offset] >= 0x80 || utf8[offset] == 0x0D {
            let word = Self.word(in: string(utf8: token)[...], tokenStart: token.lowerBound)
            return word.start..<(word.start + word.text.utf8.count)
        }
        while lower < upper, Self.isASCIIPunctuationCategory(utf8[lower]) { lower += 1 }
        while upper > lower, Self.isASCIIPunctuationCategory(utf8[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// The checkable word inside a token: the token without leading and trailing punctuation,
    /// and its UTF-8 start.
    public static func word(in token: Substring, tokenStart: Int) -> (start: Int, text: Substring) {
        // ASCII fast path (no CR either): every byte is a character.
        let bounds: (Int, Int)?? = token.utf8.withContiguousStorageIfAvailable { bytes -> (Int, Int)? in
            for byte in bytes where byte >= 0x80 || byte == 0x0D { return nil }
            var lower = 0
            var upper = bytes.count
            while lower < upper, isASCIIPunctuationCategory(bytes[lower]) { lower += 1 }
            while upper > lower, isASCIIPunctuationCategory(bytes[upper - 1]) { upper -= 1 }
            return (lower, upper)
        }
        if let bounds, let (lowerOffset, upperOffset) = bounds {
            let utf8 = token.utf8
            let lower = utf8.index(utf8.startIndex, offsetBy: lowerOffset)
            let upper = utf8.index(lower, offsetBy: upperOffset - lowerOffset)
            return (tokenStart + lowerOffset, token[lower..<upper])
        }
        var lower = token.startIndex
        var upper = token.endIndex
        while lower < upper, isPunctuation(token[lower]) { lower = token.index(after: lower) }
        while upper > lower, isPunctuation(token[token.index(before: upper)]) { upper = token.index(before: upper) }
        let leading = token.utf8.distance(from: token.startIndex, to: lower)
        return (tokenStart + leading, token[lower..<upper])
    }

    /// Whether `word` still stands at UTF-8 offset `start` as a whole word.
    public func hasWord(_ word: String, at start: Int) -> Bool {
        let length = word.utf8.count
        guard start >= 0, start + length <= utf8.count else { return false }
        // ASCII fast path: an ASCII word over ASCII text, its neighbours single-byte clusters.
        // Anything else (nil) takes the Character path below.
        let fast: Bool? = utf8.withUnsafeBufferPointer { text -> Bool? in
            let matches: Bool?? = word.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
                for index in 0..<length {
                    guard bytes[index] < 0x80 else { return nil }
                    if text[start + index] != bytes[index] { return false }
                }
                return true
            }
            guard let matches, let matches else { return nil }
            guard matches else {
                // A mismatch decides nothing while the word is not ASCII: compare it whole below.
                return word.utf8.allSatisfy { $0 < 0x80 } ? false : nil
            }
            let end = start + length
            if start > 0 {
                let before = utf8[start - 1]
                guard before < 0x80, start == 1 || isBoundaryBetweenASCII(start - 1) else { return nil }
                if !(Self.isASCIIWhitespace(before) || Self.isASCIIPunctuationCategory(before)) { return false }
            }
            if end < utf8.count {
                let after = utf8[end]
                guard after < 0x80, end + 1 == utf8.count || isBoundaryBetweenASCII(end + 1) else { return nil }
                if !(Self.isASCIIWhitespace(after) || Self.isASCIIPunctuationCategory(after)) { return false }
            }
            return true
        }
        if let fast { return fast }
        // A window from the safe boundary before the character ahead of the word to the one
        // after the character behind it clusters exactly as the whole text does there.
        let from = start == 0 ? 0 : safeBoundary(atOrBefore: start - 1)
        let to = start + length >= utf8.count ? utf8.count : safeBoundary(atOrAfter: start + length + 1)
        let window = string(utf8: from..<to)
        let lower = window.utf8.index(window.utf8.startIndex, offsetBy: start - from)
        let upper = window.utf8.index(lower, offsetBy: length)
        guard window[lower..<upper] == word else { return false }
        if lower > window.startIndex, let before = window[..<lower].last, !(Self.isWhitespace(before) || Self.isPunctuation(before)) { return false }
        if upper < window.endIndex, let after = window[upper...].first, !(Self.isWhitespace(after) || Self.isPunctuation(after)) { return false }
        return true
    }

    // MARK: - Character classes

    /// The one-character strings of the 128 ASCII bytes, made once: a replayed key types
    /// one of these rather than a string of its own.
    static let asciiStrings: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }

    /// `Character.isWhitespace`, without a Unicode table look-up for ASCII.
    @inline(__always) static func isWhitespace(_ character: Character) -> Bool {
        if let byte = character.asciiValue { return isASCIIWhitespace(byte) }
        return character.isWhitespace
    }

    /// `Character.isPunctuation` (general category P*), without a Unicode table look-up for ASCII.
    @inline(__always) static func isPunctuation(_ character: Character) -> Bool {
        if let byte = character.asciiValue { return isASCIIPunctuationCategory(byte) }
        return character.isPunctuation
    }

    /// Whether an ASCII character is in a Unicode punctuation category (P*), as
    /// `Character.isPunctuation` says: `$ + < = > ^ ` | ~` are symbols, not punctuation.
    @inline(__always) static func isASCIIPunctuationCategory(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x21, 0x22, 0x23, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2C, 0x2D, 0x2E, 0x2F,
             0x3A, 0x3B, 0x3F, 0x40, 0x5B, 0x5C, 0x5D, 0x5F, 0x7B, 0x7D: return true
        default: return false
        }
    }

    @inline(__always) static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    @inline(__always) static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func commonPrefixUTF8(_ a: String, _ b: String) -> Int {
        var length = 0
        for (x, y) in zip(a, b) {
            guard x == y else { break }
            length += x.utf8.count
        }
        return length
    }

    /// The UTF-8 length of the longest common suffix of two strings, in whole characters.
    private static func commonSuffixUTF8(_ a: String, _ b: String) -> Int {
        var length = 0
        for (x, y) in zip(a.reversed(), b.reversed()) {
            guard x == y else { break }
            length += x.utf8.count
        }
        return length
    }
}

extension TextBuffer {
    /// The text before the cursor, as a buffer of its own (only when the cursor is not at the end).
    private var beforeCursor: TextBuffer { TextBuffer(string(utf8: 0..<cursorUTF8)) }

    /// Whether the character before the cursor is white space right after a non-space: a token just ended.
    public var endsToken: Bool { isCursorAtEnd ? endsTokenAtEnd : beforeCursor.endsTokenAtEnd }

    /// Whether the text before the cursor, ignoring trailing white space, ends with `.`, `!` or `?`.
    public var endsSentence: Bool { isCursorAtEnd ? endsSentenceAtEnd : beforeCursor.endsSentenceAtEnd }

    /// Whether the character before the cursor just ended a word: white space or punctuation
    /// right after a letter or digit.
    public var endsWord: Bool { isCursorAtEnd ? endsWordAtEnd : beforeCursor.endsWordAtEnd }

    /// Whether the character before the cursor just finished a word: white space or punctuation
    /// (not an apostrophe or hyphen) right after a character that is neither — a letter, a
    /// digit, an emoji.
    public var finishesWord: Bool { isCursorAtEnd ? finishesWordAtEnd : beforeCursor.finishesWordAtEnd }

    /// Whether the character before the cursor just ended a sentence: `.`, `!` or `?` right
    /// after a letter or digit.
    public var justEndedSentence: Bool { isCursorAtEnd ? justEndedSentenceAtEnd : beforeCursor.justEndedSentenceAtEnd }

    /// The ordinal of the last token that starts before UTF-8 offset `offset`, if any.
    public func lastTokenOrdinal(startingBeforeUTF8 offset: Int) -> Int? {
        var low = 0, high = tokenStarts.count
        while low < high {
            let mid = (low + high) / 2
            if tokenStarts[mid] < offset { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? low - 1 : nil
    }

    /// The UTF-8 range of the word the cursor is in or right after, when that word is not
    /// finished (the character before the cursor is part of it): the word being typed.
    public var unfinishedWordRange: Range<Int>? { unfinishedWordRange(cursorUTF8: cursorUTF8) }

    /// The word that a cursor at `cursor` would be in or right after, unfinished.
    public func unfinishedWordRange(cursorUTF8 cursor: Int) -> Range<Int>? {
        guard cursor > 0, cursor <= utf8.count else { return nil }
        // Fast path: after white space no word is being typed.
        if utf8[cursor - 1] < 0x80 && Self.isASCIIWhitespace(utf8[cursor - 1]) { return nil }
        let ordinal = tokenOrdinal(atOrAfterUTF8: cursor - 1)
        guard let word = wordRange(ofToken: ordinal), word.lowerBound < cursor, cursor <= word.upperBound else { return nil }
        return word
    }
}

/// What one edit did to the text: `removedUTF8` bytes at `atUTF8` of the old text replaced by
/// `insertedUTF8` bytes. Offsets at or after `atUTF8 + removedUTF8` move by `deltaUTF8`.
public struct TextEdit: Sendable, Equatable {
    /// Where the edit starts, in the old text.
    public var atUTF8: Int
    /// Bytes removed.
    public var removedUTF8: Int
    /// Bytes inserted.
    public var insertedUTF8: Int
    /// How far offsets after the edit move.
    public var deltaUTF8: Int { insertedUTF8 - removedUTF8 }
    /// Creates an edit.
    public init(atUTF8: Int, removedUTF8: Int, insertedUTF8: Int) {
        self.atUTF8 = atUTF8
        self.removedUTF8 = removedUTF8
        self.insertedUTF8 = insertedUTF8
    }

    /// Where a word at `start` of `length` bytes goes: `nil` when the edit removed or
    /// replaced part of it, else its new start.
    public func moved(start: Int, length: Int) -> Int? {
        let removedEnd = atUTF8 + removedUTF8
        if removedUTF8 > 0 && atUTF8 < start + length && start < removedEnd { return nil }
        return start >= removedEnd ? start + deltaUTF8 : start
    }
}

