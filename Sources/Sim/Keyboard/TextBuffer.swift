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
    /// UTF-8 offsets where tokens (runs of non-white-space) start, ascending.
    public private(set) var tokenStarts: [Int] = []
    /// The UTF-8 offset where the last grapheme cluster starts (0 when the text is empty).
    private(set) var lastClusterStart: Int = 0
    /// The cursor, as a UTF-8 offset on a cluster boundary.
    public private(set) var cursorUTF8: Int = 0
    /// What the latest edit did.
    public private(set) var lastEdit = TextEdit(atUTF8: 0, removedUTF8: 0, insertedUTF8: 0)

    /// Creates a buffer holding `text`, the cursor at its end.
    public init(_ text: String = "") {
        if !text.isEmpty { insert(text) }
        version = 0
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
        let start = utf8.count
        cursorUTF8 = start
        insert(word)
        lastEdit = TextEdit(atUTF8: start, removedUTF8: before - start, insertedUTF8: word.utf8.count)
    }

    /// Replaces the whole text (a fix applied through the text proxy, a field opened with
    /// text in it). Recomputes the tokens; the cursor goes to `cursorUTF8`, the end by default.
    public mutating func replaceAll(with newText: String, cursorUTF8 newCursor: Int? = nil) {
        let oldVersion = version
        let old = text
        let (prefix, commonSuffix) = Self.isPlainASCII(utf8) && Self.isPlainASCII(newText.utf8)
            ? Self.commonAffixesUTF8(ofPlainASCII: utf8, newText)
            : (Self.commonPrefixUTF8(old, newText), Self.commonSuffixUTF8(old, newText))
        let suffix = min(commonSuffix, min(old.utf8.count, newText.utf8.count) - prefix)
        utf8 = []
        count = 0
        tokenStarts = []
        lastClusterStart = 0
        cursorUTF8 = 0
        insert(newText)
        version = oldVersion + 1
        lastEdit = TextEdit(atUTF8: prefix, removedUTF8: old.utf8.count - prefix - suffix,
                            insertedUTF8: newText.utf8.count - prefix - suffix, retokenized: true)
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
        let oldVersion = version
        utf8 = []
        count = 0
        tokenStarts = []
        lastClusterStart = 0
        cursorUTF8 = 0
        insert(kept + inserted + after)
        version = oldVersion + 1
        lastEdit = TextEdit(atUTF8: kept.utf8.count, removedUTF8: removedUTF8, insertedUTF8: inserted.utf8.count,
                            retokenized: true)
        cursorUTF8 = kept.utf8.count + inserted.utf8.count
    }

    // MARK: - Helpers of the edits

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

    /// The UTF-8 length of the longest common prefix of two strings, in whole characters of
    /// the same bytes (`==` on characters would take canonically equivalent ones for equal).
    static func commonPrefixUTF8(_ a: String, _ b: String) -> Int {
        var length = 0
        for (x, y) in zip(a, b) {
            guard x.utf8.elementsEqual(y.utf8) else { break }
            length += x.utf8.count
        }
        return length
    }

    /// `commonPrefixUTF8` and `commonSuffixUTF8` of two texts that are ASCII without a CR
    /// (`isPlainASCII`), where every byte is a character: compared byte by byte.
    static func commonAffixesUTF8(ofPlainASCII old: [UInt8], _ new: String) -> (prefix: Int, suffix: Int) {
        var new = new
        return new.withUTF8 { new in
            let shorter = min(old.count, new.count)
            var prefix = 0
            while prefix < shorter && old[prefix] == new[prefix] { prefix += 1 }
            var suffix = 0
            while suffix < shorter && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
            return (prefix, suffix)
        }
    }

    /// The UTF-8 length of the longest common suffix of two strings, in whole characters of
    /// the same bytes.
    static func commonSuffixUTF8(_ a: String, _ b: String) -> Int {
        var length = 0
        for (x, y) in zip(a.reversed(), b.reversed()) {
            guard x.utf8.elementsEqual(y.utf8) else { break }
            length += x.utf8.count
        }
        return length
    }
}
