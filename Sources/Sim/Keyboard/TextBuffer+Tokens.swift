// Tokens (runs of non-white-space) and words (tokens without their leading and trailing
// punctuation) of `TextBuffer`, found from the token starts it keeps.

extension TextBuffer {
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
        // Not `map(wordRange(inToken:))`: a partial application would copy the buffer.
        guard let token = tokenRange(ordinal) else { return nil }
        return wordRange(inToken: token)
    }

    /// The UTF-8 range of the checkable word in the token whose range (`tokenRange`) is
    /// `token`, for a caller that has the token's range already.
    public func wordRange(inToken token: Range<Int>) -> Range<Int> {
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
