/// What one edit did to the text: `removedUTF8` bytes at `atUTF8` of the old text replaced by
/// `insertedUTF8` bytes. Offsets at or after `atUTF8 + removedUTF8` move by `deltaUTF8`.
public struct TextEdit: Sendable, Equatable {
    /// Where the edit starts, in the old text.
    public var atUTF8: Int
    /// Bytes removed.
    public var removedUTF8: Int
    /// Bytes inserted.
    public var insertedUTF8: Int
    /// Whether the edit rebuilt the text and found its tokens again from the start (an edit
    /// away from the end, a whole-text replacement). The bytes before `atUTF8` are the same,
    /// but in rare text the token starts before it may not be: a token can start inside a
    /// cluster (a combining mark typed right after white space) when typed, and not when the
    /// same text is tokenized at once.
    public var retokenized: Bool
    /// How far offsets after the edit move.
    public var deltaUTF8: Int { insertedUTF8 - removedUTF8 }
    /// Creates an edit.
    public init(atUTF8: Int, removedUTF8: Int, insertedUTF8: Int, retokenized: Bool = false) {
        self.atUTF8 = atUTF8
        self.removedUTF8 = removedUTF8
        self.insertedUTF8 = insertedUTF8
        self.retokenized = retokenized
    }

    /// Where a word at `start` of `length` bytes goes: `nil` when the edit removed or
    /// replaced part of it, else its new start.
    public func moved(start: Int, length: Int) -> Int? {
        let removedEnd = atUTF8 + removedUTF8
        if removedUTF8 > 0 && atUTF8 < start + length && start < removedEnd { return nil }
        return start >= removedEnd ? start + deltaUTF8 : start
    }
}
