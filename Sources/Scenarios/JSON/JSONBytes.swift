/// Byte-level helpers of the scanner, the token decoders and the writer.
enum JSONBytes {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let apostrophe = UInt8(ascii: "'")
    static let slash = UInt8(ascii: "/")
    static let asterisk = UInt8(ascii: "*")
    static let colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ",")

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Whether `bytes[start..<end]` equals the ASCII `literal`.
    @inline(__always)
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                      _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard end - start == count else { return false }
        let expected = literal.utf8Start
        var i = 0
        while i < count {
            if bytes[start + i] != expected[i] { return false }
            i += 1
        }
        return true
    }

    /// The value of one hexadecimal digit, or nil.
    @inline(__always) static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The 16-bit value of four hexadecimal digits at `at`, or nil.
    static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32? {
        guard at + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for i in at..<(at + 4) {
            guard let digit = hexValue(bytes[i]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    /// "D83D" for 0xD83D.
    static func hex4Text(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// "0xFF" for 255.
    static func hex(_ byte: UInt8) -> String {
        "0x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }

    /// "U+0009" for a tab.
    static func unicodeName(_ scalar: UInt32) -> String { "U+" + hex4Text(scalar) }

    /// A byte for messages: the character itself when printable ASCII.
    static func printable(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : hex(byte)
    }

    /// A byte for "found …" messages: "'x'" when printable ASCII, else a name.
    static func describe(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> String {
        let byte = bytes[at]
        switch byte {
        case 0x21...0x7E: return "'\(UnicodeScalar(byte))'"
        case 0x20: return "a space"
        case 0x00..<0x20: return "control character \(unicodeName(UInt32(byte)))"
        default: return "byte \(hex(byte))"
        }
    }

    /// The offset of the first byte of the first ill-formed UTF-8 sequence in
    /// `bytes[start..<end]`, or nil when it is all well-formed (Unicode Table 3-7).
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        var i = start
        @inline(__always) func continuation(_ at: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            at < end && bytes[at] >= low && bytes[at] <= high
        }
        while i < end {
            let lead = bytes[i]
            switch lead {
            case 0x00...0x7F:
                i += 1
            case 0xC2...0xDF:
                guard continuation(i + 1) else { return i }
                i += 2
            case 0xE0...0xEF:
                let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
                let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
                guard continuation(i + 1, low, high), continuation(i + 2) else { return i }
                i += 3
            case 0xF0...0xF4:
                let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
                let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
                guard continuation(i + 1, low, high), continuation(i + 2), continuation(i + 3) else { return i }
                i += 4
            default:
                return i
            }
        }
        return nil
    }

    /// The scalar at `at` and the number of bytes it takes, or nil when the bytes there are
    /// not well-formed UTF-8.
    static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> (scalar: Unicode.Scalar, length: Int)? {
        let lead = bytes[at]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        guard firstInvalidUTF8(bytes, at, min(bytes.count, at + 4)) != at else { return nil }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        var value = UInt32(lead) & (0x7F >> length)
        for i in (at + 1)..<(at + length) { value = value << 6 | UInt32(bytes[i] & 0x3F) }
        return Unicode.Scalar(value).map { ($0, length) }
    }

    /// The end of the JSON5 name (an unquoted key, or a word such as `true`) at `start`:
    /// letters, digits, `_` and `$`.
    static func identifierEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < bytes.count, let (scalar, length) = scalar(bytes, i),
              scalar == "_" || scalar == "$" || ("0"..."9").contains(scalar) || scalar.properties.isAlphabetic {
            i += length
        }
        return i
    }

    /// The length of the JSON5 white space character at `at` that JSON lacks (byte-order
    /// mark U+FEFF, no-break space U+00A0, line and paragraph separators U+2028 and U+2029),
    /// or 0.
    static func json5SpaceLength(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int {
        let count = bytes.count
        switch bytes[at] {
        case 0xC2 where at + 1 < count && bytes[at + 1] == 0xA0: return 2
        case 0xEF where at + 2 < count && bytes[at + 1] == 0xBB && bytes[at + 2] == 0xBF: return 3
        case 0xE2 where isLineSeparator(bytes, at): return 3
        default: return 0
        }
    }

    /// Whether U+2028 or U+2029 (E2 80 A8 or E2 80 A9) starts at `at`.
    @inline(__always)
    static func isLineSeparator(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> Bool {
        at + 2 < bytes.count && bytes[at] == 0xE2 && bytes[at + 1] == 0x80 && bytes[at + 2] & 0xFE == 0xA8
    }
}
