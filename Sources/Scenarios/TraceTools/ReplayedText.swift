import Sim

/// The text a trace types, rebuilt event by event: keys and pastes insert at the cursor,
/// backspace deletes the grapheme cluster before it, a suggestion replaces the word before
/// the cursor, cursor moves count grapheme clusters, and a dictation's transcript is
/// inserted when the dictation stops, and a field event replaces the whole text by the new
/// field's text (empty when cleared). Chip accepts, keyboard, language and network events
/// leave the text alone (a trace does not record what a chip changed).
///
/// The rules are those of "Rebuilding the text" in `docs/trace-format.md`; `trace stats`,
/// `trace anonymize` and `trace import` use them.
///
/// The text is kept as a gap: the part before the cursor as a `String`, the part after it
/// as a stack of characters, so typing at the cursor and short cursor moves cost O(1)
/// amortised whatever the text's length. The clusters just before the cursor that the
/// typist's contexts ask about are kept as the text changes, and an ASCII key typed after
/// ASCII text is kept as a byte, joined to the text before the cursor only when another
/// edit needs it, without asking where clusters end (two scalars below U+0300 always have a
/// cluster break between them, except CR LF): a synthesising typist asks both for every key.
public struct ReplayedText: Sendable {
    /// The text before the cursor, but for `typedASCII`.
    private var before = ""
    /// ASCII characters typed after `before`, each a cluster of its own, not yet appended to it.
    private var typedASCII: [UInt8] = []
    /// The grapheme clusters after the cursor, nearest last.
    private var afterReversed: [Character] = []
    /// The number of grapheme clusters in `before`.
    public private(set) var cursorOffset = 0
    /// The transcript of the dictation in progress, inserted when it stops.
    private var pendingTranscript: String?
    /// The grapheme cluster just before the cursor, or `nil` at the start of the text.
    public var characterBeforeCursor: Character? { Self.character(asciiBeforeCursor, other: otherBeforeCursor) }
    /// The last grapheme cluster before the cursor that is not white space, or `nil`.
    public var lastNonSpaceBeforeCursor: Character? { Self.character(lastNonSpaceASCII, other: otherLastNonSpace) }
    /// `characterBeforeCursor` when it is one ASCII byte: that byte (then `otherBeforeCursor`
    /// is `nil`). A typed key then stores a byte, not a `Character`.
    private(set) var asciiBeforeCursor: UInt8?
    /// `characterBeforeCursor` when it is not one ASCII byte.
    private var otherBeforeCursor: Character?
    /// `lastNonSpaceBeforeCursor` when it is one ASCII byte: that byte (then
    /// `otherLastNonSpace` is `nil`).
    private(set) var lastNonSpaceASCII: UInt8?
    /// `lastNonSpaceBeforeCursor` when it is not one ASCII byte.
    private(set) var otherLastNonSpace: Character?
    /// The properties of `characterBeforeCursor`, or `nil` at the start of the text.
    private(set) var propertiesBeforeCursor: TypedCharacter.Properties?

    /// An empty text.
    public init() {}

    /// The whole text.
    /// (No `+` with an empty side: `+` builds a new string even then, and at the end of a
    /// long trace that is a copy of the whole text.)
    public var text: String { afterReversed.isEmpty ? textBeforeCursor : textBeforeCursor + String(afterReversed.reversed()) }

    /// The text before the cursor.
    var textBeforeCursor: String { typedASCII.isEmpty ? before : before + String(decoding: typedASCII, as: UTF8.self) }

    /// Appends the ASCII typed since the last edit of another kind to `before`.
    private mutating func joinTypedASCII() {
        guard !typedASCII.isEmpty else { return }
        before.append(String(decoding: typedASCII, as: UTF8.self))
        typedASCII.removeAll(keepingCapacity: true)
    }

    /// The number of grapheme clusters in the text.
    public var count: Int { cursorOffset + afterReversed.count }

    /// The cluster kept as the ASCII byte `ascii` or as `other`.
    private static func character(_ ascii: UInt8?, other: Character?) -> Character? {
        if let ascii { return TypedCharacter.asciiCharacter(ascii) }
        return other
    }

    /// `c` as a byte when it is one ASCII byte, else as itself.
    private static func split(_ c: Character?) -> (ascii: UInt8?, other: Character?) {
        guard let c else { return (nil, nil) }
        if c.utf8.count == 1, let byte = c.utf8.first, byte < 0x80 { return (byte, nil) }
        return (nil, c)
    }

    /// Sets the clusters before the cursor from the text after an edit other than a fast
    /// insertion.
    private mutating func cursorMoved() {
        if let byte = typedASCII.last {
            (asciiBeforeCursor, otherBeforeCursor) = (byte, nil)
            propertiesBeforeCursor = TypedCharacter.properties(ofASCII: byte)
        } else {
            let last = before.last
            (asciiBeforeCursor, otherBeforeCursor) = Self.split(last)
            propertiesBeforeCursor = last.map { TypedCharacter($0).properties }
        }
        if let byte = typedASCII.last(where: { !TypedCharacter.properties(ofASCII: $0).isWhitespace }) {
            (lastNonSpaceASCII, otherLastNonSpace) = (byte, nil)
        } else {
            (lastNonSpaceASCII, otherLastNonSpace) = Self.split(before.last { !$0.isWhitespace })
        }
    }

    /// How many letters and digits run back from the cursor, counting at most `limit`: how
    /// far into a word the cursor is (the typist's within-word rhythm asks whether it is past
    /// the word's first letter). O(`limit`).
    func wordLengthBeforeCursor(limit: Int) -> Int {
        var length = 0
        for byte in typedASCII.reversed() {
            let properties = TypedCharacter.properties(ofASCII: byte)
            guard length < limit, properties.isLetter || properties.isNumber else { return length }
            length += 1
        }
        for character in before.reversed() {
            guard length < limit, character.isLetter || character.isNumber else { break }
            length += 1
        }
        return length
    }

    /// Applies one event.
    public mutating func apply(_ kind: TraceEvent.Kind) {
        switch kind {
        case .key(let text, _, _), .paste(let text):
            insert(text)
        case .backspace:
            deleteBackward()
        case .suggestionPicked(let word):
            replaceWordBeforeCursor(with: word)
        case .cursorMove(let offset):
            moveCursor(by: offset)
        case .dictationStart(let audio):
            switch audio {
            case .wavFile(_, let transcript), .inline(_, _, let transcript): pendingTranscript = transcript
            }
        case .dictationStop:
            if let transcript = pendingTranscript { insert(transcript) }
            pendingTranscript = nil
        case .field(let field):
            replaceField(with: field.text)
        case .keyboardShown, .keyboardHidden, .languageSwitch, .network, .chipAccepted:
            break
        }
    }

    /// Replaces the whole field by `text`, with the cursor at its end (a `field` event).
    public mutating func replaceField(with text: String) {
        before = text
        typedASCII.removeAll(keepingCapacity: true)
        afterReversed = []
        cursorOffset = text.count
        cursorMoved()
    }

    /// Inserts `inserted` at the cursor. An insertion can merge with the cluster before it
    /// (a combining mark, a skin tone, a ZWJ): the joined tail is counted again.
    public mutating func insert(_ inserted: String) {
        guard !inserted.isEmpty else { return }
        if inserted.utf8.count == 1, let byte = inserted.utf8.first, byte < 0x80, typeASCII(byte) { return }
        insertJoined(inserted)
    }

    /// `insert(inserted)` of `inserted`, the one ASCII byte `ascii`, told by a caller that
    /// knows it without reading the string.
    mutating func insert(ascii: UInt8, _ inserted: @autoclosure () -> String) {
        if typeASCII(ascii) { return }
        insertJoined(inserted())
    }

    /// Keeps the ASCII byte `byte` typed at the cursor as a byte when the text before it
    /// ends in ASCII (other than CR before LF, which join into one cluster); false, having
    /// done nothing, otherwise.
    private mutating func typeASCII(_ byte: UInt8) -> Bool {
        #if DEBUG
        precondition(characterBeforeCursor == (typedASCII.last.map(TypedCharacter.asciiCharacter) ?? before.last),
                     "the cluster before the cursor is kept with the text")
        #endif
        let lastByte = typedASCII.last ?? before.utf8.last ?? 0
        guard lastByte < 0x80 && !(lastByte == 0x0D && byte == 0x0A) else { return false }
        typedASCII.append(byte)
        cursorOffset += 1
        let properties = TypedCharacter.properties(ofASCII: byte)
        asciiBeforeCursor = byte
        if otherBeforeCursor != nil { otherBeforeCursor = nil }
        propertiesBeforeCursor = properties
        if !properties.isWhitespace {
            lastNonSpaceASCII = byte
            if otherLastNonSpace != nil { otherLastNonSpace = nil }
        }
        return true
    }

    /// `insert(_:)` joining the typed ASCII to the text first.
    private mutating func insertJoined(_ inserted: String) {
        #if DEBUG
        precondition(characterBeforeCursor == (typedASCII.last.map(TypedCharacter.asciiCharacter) ?? before.last),
                     "the cluster before the cursor is kept with the text")
        #endif
        joinTypedASCII()
        let oldLast = characterBeforeCursor
        let tailOffset = before.utf8.count - (oldLast?.utf8.count ?? 0)
        before.append(inserted)
        let tail = before[before.utf8.index(before.utf8.startIndex, offsetBy: tailOffset)...]
        cursorOffset += tail.count - (oldLast == nil ? 0 : 1)
        cursorMoved()
    }

    /// Deletes the grapheme cluster before the cursor, as `deleteBackward()` does; nothing
    /// at the start of the text.
    public mutating func deleteBackward() {
        guard cursorOffset > 0 else { return }
        // A typed ASCII byte is a cluster of its own: deleting it is dropping it.
        if typedASCII.isEmpty { before.removeLast() } else { typedASCII.removeLast() }
        cursorOffset -= 1
        cursorMoved()
    }

    /// Moves the cursor by `offset` grapheme clusters, stopping at either end.
    public mutating func moveCursor(by offset: Int) {
        joinTypedASCII()
        if offset < 0 {
            for _ in 0..<min(-offset, cursorOffset) {
                afterReversed.append(before.removeLast())
                cursorOffset -= 1
            }
            cursorMoved()
        } else {
            for _ in 0..<min(offset, afterReversed.count) {
                insert(String(afterReversed.removeLast()))
            }
        }
    }

    /// Replaces the word before the cursor (back to the last white space) by `word`.
    public mutating func replaceWordBeforeCursor(with word: String) {
        joinTypedASCII()
        while let last = before.last, !last.isWhitespace {
            before.removeLast()
            cursorOffset -= 1
        }
        cursorMoved()
        insert(word)
    }
}

/// Word and sentence counts of a text, as `trace stats` reports them.
public enum TextCounts {
    /// Runs of characters other than white space: the keyboard model's definition of a word.
    public static func words(_ text: String) -> Int {
        var words = 0
        var inWord = false
        for character in text {
            if character.isWhitespace { inWord = false } else if !inWord { inWord = true; words += 1 }
        }
        return words
    }

    /// Sentences: each run of `.`, `!`, `?` or `…` that follows a letter or digit of the
    /// sentence and is followed by white space or the end of the text ends one ("3.5" and
    /// "e.g" do not); text with a letter or digit after the last end is one more.
    public static func sentences(_ text: String) -> Int {
        var sentences = 0
        var hasContent = false
        var terminatorPending = false
        for character in text {
            if character == "." || character == "!" || character == "?" || character == "…" {
                if hasContent { terminatorPending = true }
                continue
            }
            if terminatorPending && character.isWhitespace {
                sentences += 1
                hasContent = false
            }
            terminatorPending = false
            if character.isLetter || character.isNumber { hasContent = true }
        }
        if terminatorPending || hasContent { sentences += 1 }
        return sentences
    }
}
