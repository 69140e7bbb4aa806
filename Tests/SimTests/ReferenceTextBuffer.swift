@testable import Sim

// The String-backed text buffer keysim used before `TextBuffer` kept UTF-8 bytes, kept as
// the reference that `TextBufferTests` holds the byte-backed one to, edit by edit. One
// change: a deletion drops every token start it removed (`while`, not `if`), as the
// byte-backed buffer does; a cluster can hold two (a prepended mark joins what follows).

/// The String-backed text buffer: the reference for `TextBuffer`.
///
/// Edits happen at the end of the text, where the replayed cursor is. Counts are in grapheme
/// clusters (`Character`s), as `deleteBackward()` removes them; the grapheme count and the
/// token (word) starts are kept incrementally, so a key costs O(key), not O(text).
struct ReferenceTextBuffer: Equatable {
    /// The text.
    private(set) var text: String = ""
    /// Bumped by every edit; a request carries the version it saw.
    private(set) var version: Int = 0
    /// The number of grapheme clusters in `text`.
    private(set) var count: Int = 0
    /// UTF-8 offsets where tokens (runs of non-white-space) start, ascending.
    private(set) var tokenStarts: [Int] = []

    /// Creates a buffer holding `text`.
    init(_ text: String = "") {
        if !text.isEmpty { insert(text) }
        version = 0
    }

    /// Appends text at the end.
    mutating func insert(_ inserted: String) {
        guard !inserted.isEmpty else { return }
        if insertASCIIByte(inserted) { return }
        // Appending can merge with the last cluster (a combining mark, a skin tone, a ZWJ
        // sequence); count the clusters of the joined tail to know the true change. The
        // tail is found by UTF-8 offset: an index taken before the append may carry a
        // cached cluster size that the append made wrong.
        let oldCount = count
        let oldLast = text.last
        var previousIsSpace = oldLast.map(\.isWhitespace) ?? true
        var offset = text.utf8.count
        for scalarRun in inserted {
            if !scalarRun.isWhitespace && previousIsSpace { tokenStarts.append(offset) }
            previousIsSpace = scalarRun.isWhitespace
            offset += scalarRun.utf8.count
        }
        let tailOffset = text.utf8.count - (oldLast?.utf8.count ?? 0)
        text.append(inserted)
        let tail = text[text.utf8.index(text.utf8.startIndex, offsetBy: tailOffset)...]
        let kept = oldLast == nil ? 0 : 1
        count = oldCount - kept + tail.count
        version += 1
    }

    /// The common case, one ASCII character typed: O(1) without Unicode tables. A byte can
    /// only join the previous cluster as the LF of a CR LF pair.
    private mutating func insertASCIIByte(_ inserted: String) -> Bool {
        guard inserted.utf8.count == 1, let byte = inserted.utf8.first, byte < 0x80, byte != 0x0A else { return false }
        let previous = text.utf8.last
        if let previous, previous >= 0x80 { return false }
        let offset = text.utf8.count
        let previousIsSpace = previous.map(TextBuffer.isASCIIWhitespace) ?? true
        if !TextBuffer.isASCIIWhitespace(byte) && previousIsSpace { tokenStarts.append(offset) }
        text.append(inserted)
        count += 1
        version += 1
        return true
    }

    /// The last two bytes when both are ASCII (then they are the last two characters).
    private var lastTwoASCII: (UInt8, UInt8)? {
        func lastTwo(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt8, UInt8)? {
            guard bytes.count >= 2 else { return nil }
            let last = bytes[bytes.count - 1], beforeLast = bytes[bytes.count - 2]
            guard last < 0x80, beforeLast < 0x80, !(beforeLast == 0x0D && last == 0x0A) else { return nil }
            return (beforeLast, last)
        }
        if let pair = text.utf8.withContiguousStorageIfAvailable(lastTwo) { return pair }
        var copy = text
        return copy.withUTF8(lastTwo)
    }

    /// Whether the last character is white space right after a non-space: a token just ended.
    var endsToken: Bool {
        if let (beforeLast, last) = lastTwoASCII { return TextBuffer.isASCIIWhitespace(last) && !TextBuffer.isASCIIWhitespace(beforeLast) }
        guard let last = text.last, last.isWhitespace, let beforeLast = characterBeforeLast else { return false }
        return !beforeLast.isWhitespace
    }

    /// Removes the last grapheme cluster, as `deleteBackward()` does. On empty text nothing
    /// changes, but the key was still handled and counts as an edit.
    mutating func deleteBackward() {
        if count > 0 {
            text.removeLast()
            count -= 1
            while let last = tokenStarts.last, last >= text.utf8.count { tokenStarts.removeLast() }
        }
        version += 1
    }

    /// Replaces the last token by `word`, as picking a suggestion does.
    mutating func replaceCurrentWord(with word: String) {
        while let last = text.last, !last.isWhitespace {
            text.removeLast()
            count -= 1
        }
        while let last = tokenStarts.last, last >= text.utf8.count { tokenStarts.removeLast() }
        insert(word)
    }

    /// Replaces the whole text (a fix applied through the text proxy). Recomputes the tokens.
    mutating func replaceAll(with newText: String) {
        let oldVersion = version
        text = ""
        count = 0
        tokenStarts = []
        insert(newText)
        version = oldVersion + 1
    }

    /// The ordinal of the token holding or following UTF-8 offset `offset`.
    func tokenOrdinal(atOrAfterUTF8 offset: Int) -> Int {
        var low = 0, high = tokenStarts.count
        while low < high {
            let mid = (low + high) / 2
            if tokenStarts[mid] <= offset { low = mid + 1 } else { high = mid }
        }
        // `low` tokens start at or before the offset; the last of them may still hold it.
        if low > 0, let token = token(low - 1), token.start + token.text.utf8.count > offset { return low - 1 }
        return low
    }

    /// Whether the text, ignoring trailing white space, ends with `.`, `!` or `?`.
    var endsSentence: Bool {
        for byte in text.utf8.reversed() {
            if byte >= 0x80 { break }
            if TextBuffer.isASCIIWhitespace(byte) { continue }
            return byte == 0x2E || byte == 0x21 || byte == 0x3F
        }
        guard let last = text.last(where: { !$0.isWhitespace }) else { return false }
        return last == "." || last == "!" || last == "?"
    }

    /// Whether the last character just ended a word: white space or punctuation right after
    /// a letter or digit.
    var endsWord: Bool {
        if let (beforeLast, last) = lastTwoASCII {
            return (TextBuffer.isASCIIWhitespace(last) || TextBuffer.isASCIIPunctuationCategory(last)) && TextBuffer.isASCIIAlphanumeric(beforeLast)
        }
        guard let last = text.last, last.isWhitespace || last.isPunctuation else { return false }
        guard let beforeLast = characterBeforeLast else { return false }
        return beforeLast.isLetter || beforeLast.isNumber
    }

    /// The last character but one. (`dropLast()` on a String walks the whole string: a
    /// generic `Collection` default that needs the count.)
    var characterBeforeLast: Character? {
        guard !text.isEmpty else { return nil }
        let last = text.index(before: text.endIndex)
        guard last > text.startIndex else { return nil }
        return text[text.index(before: last)]
    }

    /// Whether the last character just ended a sentence: `.`, `!` or `?` right after a letter
    /// or digit.
    var justEndedSentence: Bool {
        if let (beforeLast, last) = lastTwoASCII {
            return (last == 0x2E || last == 0x21 || last == 0x3F) && TextBuffer.isASCIIAlphanumeric(beforeLast)
        }
        guard let last = text.last, last == "." || last == "!" || last == "?" else { return false }
        guard let beforeLast = characterBeforeLast else { return false }
        return beforeLast.isLetter || beforeLast.isNumber
    }

    /// The number of tokens (runs of non-white-space).
    var wordCount: Int { tokenStarts.count }

    /// The token at `ordinal`: its UTF-8 range and text (white space excluded).
    func token(_ ordinal: Int) -> (start: Int, text: Substring)? {
        guard ordinal >= 0, ordinal < tokenStarts.count else { return nil }
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: tokenStarts[ordinal])
        var end = ordinal + 1 < tokenStarts.count ? utf8.index(utf8.startIndex, offsetBy: tokenStarts[ordinal + 1]) : text.endIndex
        // ASCII fast path: while the cluster before `end` is one ASCII byte (the byte before it
        // ASCII too, and not CR before LF), it is white space exactly when the byte is.
        let startOffset = tokenStarts[ordinal]
        let nextStart = ordinal + 1 < tokenStarts.count ? tokenStarts[ordinal + 1] : -1
        let trimmed: Int?? = utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            var endOffset = nextStart >= 0 ? nextStart : bytes.count
            while endOffset > startOffset {
                let byte = bytes[endOffset - 1]
                guard byte < 0x80 else { return nil }
                if endOffset >= 2 {
                    let before = bytes[endOffset - 2]
                    guard before < 0x80, !(before == 0x0D && byte == 0x0A) else { return nil }
                }
                guard TextBuffer.isASCIIWhitespace(byte) else { break }
                endOffset -= 1
            }
            return endOffset
        }
        if let trimmed, let endOffset = trimmed {
            end = utf8.index(utf8.startIndex, offsetBy: endOffset)
        } else {
            while end > start, let previous = text[..<end].last, TextBuffer.isWhitespace(previous) { end = text.index(before: end) }
        }
        return (startOffset, text[start..<end])
    }

    /// Whether `word` still stands at UTF-8 offset `start` as a whole word.
    func hasWord(_ word: String, at start: Int) -> Bool {
        let utf8 = text.utf8
        guard start >= 0, start + word.utf8.count <= utf8.count else { return false }
        // ASCII fast path: an ASCII word over ASCII text, its neighbours single-byte clusters.
        // Anything else (nil) takes the Character path below.
        let fast: Bool?? = utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            var end = start
            for byte in word.utf8 {
                guard byte < 0x80, bytes[end] == byte else { return nil }
                end += 1
            }
            if start > 0 {
                let before = bytes[start - 1]
                guard before < 0x80 else { return nil }
                if start >= 2 {
                    let previous = bytes[start - 2]
                    guard previous < 0x80, !(previous == 0x0D && before == 0x0A) else { return nil }
                }
                if !(TextBuffer.isASCIIWhitespace(before) || TextBuffer.isASCIIPunctuationCategory(before)) { return false }
            }
            if end < bytes.count {
                let after = bytes[end]
                guard after < 0x80 else { return nil }
                if end + 1 < bytes.count {
                    let next = bytes[end + 1]
                    guard next < 0x80, !(after == 0x0D && next == 0x0A) else { return nil }
                }
                if !(TextBuffer.isASCIIWhitespace(after) || TextBuffer.isASCIIPunctuationCategory(after)) { return false }
            }
            return true
        }
        if let fast, let result = fast { return result }
        let lower = utf8.index(utf8.startIndex, offsetBy: start)
        let upper = utf8.index(lower, offsetBy: word.utf8.count)
        guard text[lower..<upper] == word else { return false }
        if lower > text.startIndex, let before = text[..<lower].last, !(TextBuffer.isWhitespace(before) || TextBuffer.isPunctuation(before)) { return false }
        if upper < text.endIndex, let after = text[upper...].first, !(TextBuffer.isWhitespace(after) || TextBuffer.isPunctuation(after)) { return false }
        return true
    }
}
