/// The document text as the keyboard extension sees it, with a version that every edit bumps.
///
/// Counts are in grapheme clusters (`Character`s), as `deleteBackward()` removes them.
/// The grapheme count is kept incrementally, so an edit costs O(edit), not O(text).
public struct TextBuffer: Sendable, Equatable {
    /// The text.
    public private(set) var text: String = ""
    /// Bumped by every edit; a request carries the version it saw.
    public private(set) var version: Int = 0
    /// The number of grapheme clusters in `text`.
    public private(set) var count: Int = 0
    /// The lowest grapheme offset changed since `markClean()`: what a request must carry.
    public private(set) var dirtyFrom: Int = 0

    /// Creates an empty buffer.
    public init() {}

    /// Appends text at the end (where the replayed cursor is).
    public mutating func insert(_ inserted: String) {
        guard !inserted.isEmpty else { return }
        // Appending can merge with the last cluster (a combining mark, a skin tone, a ZWJ
        // sequence); count the clusters of the joined tail to know the true change. The
        // tail is found by UTF-8 offset: an index taken before the append may carry a
        // cached cluster size that the append made wrong.
        let oldCount = count
        let oldLast = text.last
        let tailOffset = text.utf8.count - (oldLast?.utf8.count ?? 0)
        text.append(inserted)
        let tail = text[text.utf8.index(text.utf8.startIndex, offsetBy: tailOffset)...]
        let kept = oldLast == nil ? 0 : 1
        count = oldCount - kept + tail.count
        let lastUnchanged = oldLast != nil && tail.first == oldLast
        dirtyFrom = min(dirtyFrom, lastUnchanged ? oldCount : oldCount - kept)
        version += 1
    }

    /// Removes the last grapheme cluster, as `deleteBackward()` does. No-op on empty text
    /// (but still an edit: the key was handled).
    public mutating func deleteBackward() {
        if count > 0 {
            text.removeLast()
            count -= 1
            dirtyFrom = min(dirtyFrom, count)
        }
        version += 1
    }

    /// Replaces the last word (the text after the last white space) by `word`, as picking a
    /// suggestion does.
    public mutating func replaceCurrentWord(with word: String) {
        var removed = 0
        while let last = text.last, !last.isWhitespace {
            text.removeLast()
            removed += 1
        }
        count -= removed
        dirtyFrom = min(dirtyFrom, count)
        insert(word)
    }

    /// Marks the current text as sent; later edits start a new dirty range.
    public mutating func markClean() { dirtyFrom = count }

    /// Grapheme clusters changed since the last `markClean()`.
    public var dirtyCount: Int { count - dirtyFrom }

    /// Whether the text, ignoring trailing white space, ends with `.`, `!` or `?`.
    public var endsSentence: Bool {
        guard let last = text.last(where: { !$0.isWhitespace }) else { return false }
        return last == "." || last == "!" || last == "?"
    }

    /// The number of words (runs of non-white-space).
    public var wordCount: Int {
        var words = 0
        var inWord = false
        for c in text {
            if c.isWhitespace { inWord = false } else if !inWord { inWord = true; words += 1 }
        }
        return words
    }
}
