/// Strings and keys, one scanner per syntax. Both only validate and find the end: the token's
/// `flag` says whether `JSONBytes.unescape` has work to do when somebody decodes it.
extension JSONScanner {
    /// An object's key at `index`: a string, or in JSON5 also a bare name (its token is then
    /// a string token without quotes).
    @inline(__always)
    mutating func scanKey() throws(JSONSyntaxError) -> JSONToken {
        if syntax == .strict {
            guard index < bytes.count, bytes[index] == JSONBytes.quote else {
                throw fail(index, "expected a string key, found \(found(index))")
            }
            return try scanString()
        }
        guard index < bytes.count else { throw fail(index, "unexpected end of file inside an object") }
        if bytes[index] == JSONBytes.quote || bytes[index] == JSONBytes.apostrophe { return try scanJSON5String() }
        let start = index
        let end = JSONBytes.identifierEnd(bytes, from: start)
        guard end > start else { throw fail(index, "unexpected \(foundCharacter(index)), expected a key or '}'") }
        index = end
        return JSONToken(kind: .string, range: start..<end, flag: false)
    }

    // MARK: Strict

    /// Scans a strict string whose opening quote is at `index`.
    mutating func scanString() throws(JSONSyntaxError) -> JSONToken {
        let start = index
        var i = start + 1
        var escaped = false
        var nonASCII = false
        let count = bytes.count
        while true {
            guard i < count else { throw fail(start, "unterminated string") }
            let byte = bytes[i]
            if byte == JSONBytes.quote { break }
            if byte == JSONBytes.backslash {
                escaped = true
                i = try scanEscape(at: i, stringStart: start)
                continue
            }
            if byte < 0x20 {
                throw fail(i, "control character \(JSONBytes.unicodeName(UInt32(byte))) must be escaped in a string")
            }
            if byte >= 0x80 { nonASCII = true }
            i += 1
        }
        if nonASCII, let bad = JSONBytes.firstInvalidUTF8(bytes, start + 1, i) {
            throw fail(bad, "invalid UTF-8 (byte \(JSONBytes.hex(bytes[bad])))")
        }
        index = i + 1
        return JSONToken(kind: .string, range: start..<index, flag: escaped)
    }

    /// Validates the strict escape whose backslash is at `at`; returns the index after it.
    private func scanEscape(at: Int, stringStart: Int) throws(JSONSyntaxError) -> Int {
        guard at + 1 < bytes.count else { throw fail(stringStart, "unterminated string") }
        switch bytes[at + 1] {
        case JSONBytes.quote, JSONBytes.backslash, JSONBytes.slash, UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return at + 2
        case UInt8(ascii: "u"):
            guard let unit = JSONBytes.hex4(bytes, at + 2) else {
                throw fail(at, "invalid \\u escape: expected 4 hexadecimal digits")
            }
            switch unit {
            case 0xD800...0xDBFF:
                guard at + 7 < bytes.count, bytes[at + 6] == JSONBytes.backslash,
                      bytes[at + 7] == UInt8(ascii: "u"),
                      let low = JSONBytes.hex4(bytes, at + 8), (0xDC00...0xDFFF).contains(low) else {
                    throw fail(at, "unpaired surrogate \\u\(JSONBytes.hex4Text(unit)) (a high surrogate must be followed by a \\u escape of a low surrogate)")
                }
                return at + 12
            case 0xDC00...0xDFFF:
                throw fail(at, "unpaired surrogate \\u\(JSONBytes.hex4Text(unit)) (a low surrogate must follow a high surrogate)")
            default:
                return at + 6
            }
        default:
            throw fail(at, "invalid escape '\\\(JSONBytes.printable(bytes[at + 1]))'")
        }
    }

    // MARK: JSON5

    /// Scans a JSON5 string, in double or single quotes, whose opening quote is at `index`.
    /// Raw characters other than a line break are allowed; escapes are JavaScript's, less octal.
    mutating func scanJSON5String() throws(JSONSyntaxError) -> JSONToken {
        let start = index
        let quote = bytes[index]
        var escaped = false
        index += 1
        while true {
            guard index < bytes.count else { throw fail(index, "unterminated string") }
            let byte = bytes[index]
            if byte == quote { break }
            if byte == 0x0A { throw fail(index, "unterminated string (use \\n for a line break)") }
            index += 1
            if byte == JSONBytes.backslash {
                escaped = true
                try scanJSON5Escape()
            }
        }
        index += 1
        return JSONToken(kind: .string, range: start..<index, flag: escaped)
    }

    /// Validates the JSON5 escape after a backslash, at `index`, and moves past it.
    private mutating func scanJSON5Escape() throws(JSONSyntaxError) {
        guard index < bytes.count else { throw fail(index, "unterminated string") }
        let escape = bytes[index]
        switch escape {
        case UInt8(ascii: "0"):
            if index + 1 < bytes.count, JSONBytes.isDigit(bytes[index + 1]) {
                throw fail(index, "invalid escape \\0 followed by a digit (octal escapes are not JSON5)")
            }
            index += 1
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            throw fail(index, "invalid escape \\\(UnicodeScalar(escape)) (octal escapes are not JSON5)")
        case 0x0D:
            // A line continuation across "\r\n".
            index += index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
        case UInt8(ascii: "x"):
            index += 1
            _ = try readHex(2, after: "x")
        case UInt8(ascii: "u"):
            index += 1
            try scanJSON5UnicodeEscape()
        default:
            // Any other character stands for itself (a line break: a line continuation).
            index += JSONBytes.scalar(bytes, index)?.length ?? 1
        }
    }

    /// `count` hexadecimal digits (2 after `\x`, 4 after `\u`) at `index`, as a number.
    private mutating func readHex(_ count: Int, after escape: String) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard index < bytes.count, let digit = JSONBytes.hexValue(bytes[index]) else {
                throw fail(index, "expected \(count == 2 ? "two" : "four") hexadecimal digits after \\\(escape)")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    /// The four digits after `\u` at `index`, and the `\u` of a low surrogate after a high one.
    private mutating func scanJSON5UnicodeEscape() throws(JSONSyntaxError) {
        let high = try readHex(4, after: "u")
        if (0xD800..<0xDC00).contains(high) {
            guard index + 1 < bytes.count, bytes[index] == JSONBytes.backslash, bytes[index + 1] == UInt8(ascii: "u") else {
                throw fail(index, "unpaired surrogate \\u\(String(high, radix: 16))")
            }
            index += 2
            let low = try readHex(4, after: "u")
            guard (0xDC00..<0xE000).contains(low) else { throw fail(index, "invalid low surrogate") }
            return
        }
        guard Unicode.Scalar(high) != nil else { throw fail(index, "invalid escape \\u\(String(high, radix: 16))") }
    }
}
