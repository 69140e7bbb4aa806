/// Applies a correction the way a keyboard extension must: through the text proxy, which can
/// only move the cursor (`adjustTextPosition(byCharacterOffset:)`, counting UTF-16 units),
/// delete backward (`deleteBackward()`, removing one grapheme cluster) and insert.
///
/// To fix `word` the extension moves the cursor from the end of the text to the end of the
/// word, deletes the word, inserts the fix and moves back. Code that counts both distances in
/// one unit gets one of them wrong once the text holds characters that are one grapheme but
/// two or more UTF-16 units (emoji above all); Latin and Cyrillic test strings never show it.
public enum FixApplier {
    /// What applying a fix did.
    public struct Outcome: Sendable, Equatable {
        /// The text afterwards, as the document really holds it.
        public var text: String
        /// Whether it differs from the text with just the word replaced: the user's text was
        /// damaged.
        public var corrupted: Bool
    }

    /// Applies `fix` to the word at UTF-8 offset `wordStart` of `text`, with the cursor at
    /// the end of the text, counting offsets as `strategy` does.
    public static func apply(_ fix: String, replacing word: String, at wordStart: Int, in text: String,
                             strategy: OffsetStrategy) -> Outcome {
        let utf8 = text.utf8
        // ASCII text and word without a CR: every character is one byte and one UTF-16 unit,
        // so every strategy counts right, and the word is just replaced (the general path
        // below, without making an array of the text's characters).
        if TextBuffer.isPlainASCII(utf8) && TextBuffer.isPlainASCII(word.utf8) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(utf8.count - word.utf8.count + fix.utf8.count)
            bytes.append(contentsOf: utf8.prefix(wordStart))
            bytes.append(contentsOf: fix.utf8)
            bytes.append(contentsOf: utf8.dropFirst(wordStart + word.utf8.count))
            return Outcome(text: String(decoding: bytes, as: UTF8.self), corrupted: false)
        }
        return applyByCharacters(fix, replacing: word, at: wordStart, in: text, strategy: strategy)
    }

    /// `apply` on any text: the text proxy's moves and deletions carried out on its
    /// characters, counted as `strategy` counts them.
    static func applyByCharacters(_ fix: String, replacing word: String, at wordStart: Int, in text: String,
                                  strategy: OffsetStrategy) -> Outcome {
        let utf8 = text.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: wordStart)
        let upper = utf8.index(lower, offsetBy: word.utf8.count)
        let expected = String(text[..<lower]) + fix + String(text[upper...])

        var characters = Array(text)
        let wordEnd = text[..<upper].count              // grapheme index of the word's end
        let after = characters[wordEnd...]
        // 1. Move the cursor from the end to the word's end: adjustTextPosition counts UTF-16.
        let requestedOffsetUTF16: Int
        switch strategy {
        case .graphemes: requestedOffsetUTF16 = after.count                       // wrong unit for the API
        case .utf16, .mixed: requestedOffsetUTF16 = after.reduce(0) { $0 + $1.utf16.count }
        }
        var cursor = graphemeIndex(atUTF16Offset: totalUTF16(characters) - requestedOffsetUTF16, in: characters)
        // 2. Delete the word: deleteBackward removes one grapheme cluster per call.
        let deletions: Int
        switch strategy {
        case .graphemes, .mixed: deletions = word.count
        case .utf16: deletions = word.utf16.count                                // wrong unit for deleteBackward
        }
        let removed = min(deletions, cursor)
        characters.removeSubrange((cursor - removed)..<cursor)
        cursor -= removed
        // 3. Insert the fix; 4. moving back changes no text.
        characters.insert(contentsOf: Array(fix), at: cursor)
        let result = String(characters)
        return Outcome(text: result, corrupted: result != expected)
    }

    private static func totalUTF16(_ characters: [Character]) -> Int {
        characters.reduce(0) { $0 + $1.utf16.count }
    }

    /// The grapheme index at a UTF-16 offset (clamped to the text; inside a cluster, the
    /// position after it, as UIKit snaps a cursor out of a composed character).
    private static func graphemeIndex(atUTF16Offset offset: Int, in characters: [Character]) -> Int {
        guard offset > 0 else { return 0 }
        var units = 0
        for (index, character) in characters.enumerated() {
            if units >= offset { return index }
            units += character.utf16.count
        }
        return characters.count
    }
}
