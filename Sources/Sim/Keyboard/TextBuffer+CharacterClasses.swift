// Character classes of `TextBuffer`, answered for ASCII without the Unicode tables.

extension TextBuffer {
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

    /// Whether `bytes` are ASCII without a CR: every byte is a grapheme cluster of its own
    /// and one UTF-16 unit, whatever surrounds it (no Unicode rule joins two such
    /// characters; every joining rule involves a non-ASCII character or CR LF).
    static func isPlainASCII<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        bytes.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 && $0 != 0x0D } }
            ?? bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }
}
