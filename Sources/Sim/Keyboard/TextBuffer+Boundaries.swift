// What the last edit did to `TextBuffer`: whether it ended a token, a word or a sentence, read
// at the end of the text (a look at the last bytes) or before the cursor.

extension TextBuffer {
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
}
