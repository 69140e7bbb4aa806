/// Numbers and bare words (`true`, `false`, `null`; in JSON5 also `Infinity` and `NaN`), one
/// scanner per syntax.
extension JSONScanner {
    // MARK: Strict

    /// Scans `true`, `false` or `null` at `index`.
    mutating func scanLiteral() throws(JSONSyntaxError) -> JSONToken {
        switch bytes[index] {
        case UInt8(ascii: "t"): return try scanLiteral("true", .bool, flag: true)
        case UInt8(ascii: "f"): return try scanLiteral("false", .bool, flag: false)
        case UInt8(ascii: "n"): return try scanLiteral("null", .null, flag: false)
        default: throw fail(index, "expected a value, found \(found(index))")
        }
    }

    private mutating func scanLiteral(_ literal: StaticString, _ kind: JSONToken.Kind,
                                      flag: Bool) throws(JSONSyntaxError) -> JSONToken {
        let start = index
        let end = start + literal.utf8CodeUnitCount
        guard end <= bytes.count, JSONBytes.equal(bytes, start, end, literal) else {
            throw fail(start, "invalid literal, expected '\(literal)'")
        }
        index = end
        return JSONToken(kind: kind, range: start..<end, flag: flag)
    }

    /// Scans a strict number starting at `index` (a '-' or a digit).
    mutating func scanNumber() throws(JSONSyntaxError) -> JSONToken {
        let start = index
        var i = start
        let count = bytes.count
        var isInteger = true
        if bytes[i] == UInt8(ascii: "-") {
            i += 1
            guard i < count, JSONBytes.isDigit(bytes[i]) else {
                throw fail(i, "expected a digit after '-', found \(found(i))")
            }
        }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < count, JSONBytes.isDigit(bytes[i]) {
                throw fail(start, "leading zeros are not allowed in numbers")
            }
        } else {
            while i < count, JSONBytes.isDigit(bytes[i]) { i += 1 }
        }
        if i < count, bytes[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard i < count, JSONBytes.isDigit(bytes[i]) else {
                throw fail(i, "expected a digit after '.', found \(found(i))")
            }
            while i < count, JSONBytes.isDigit(bytes[i]) { i += 1 }
        }
        if i < count, bytes[i] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            i += 1
            if i < count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < count, JSONBytes.isDigit(bytes[i]) else {
                throw fail(i, "expected a digit in the exponent, found \(found(i))")
            }
            while i < count, JSONBytes.isDigit(bytes[i]) { i += 1 }
        }
        index = i
        return JSONToken(kind: .number, range: start..<i, flag: isInteger)
    }

    // MARK: JSON5

    /// Scans a JSON5 number at `index` (a sign, a digit or a '.'); the flag says it is a
    /// decimal integer that fits an `Int64`.
    mutating func scanJSON5Number() throws(JSONSyntaxError) -> JSONToken {
        let start = index
        let number = try JSONNumber.json5(bytes, from: start)
        index = number.end
        return JSONToken(kind: .number, range: start..<number.end, flag: number.exact != nil)
    }

    /// Scans what else may start a JSON5 value: a single-quoted string, a number with a `+`
    /// or a leading '.', or a word (`true`, `false`, `null`, `Infinity`, `NaN`).
    mutating func scanJSON5Word() throws(JSONSyntaxError) -> JSONToken {
        let start = index
        switch bytes[start] {
        case JSONBytes.apostrophe: return try scanJSON5String()
        case UInt8(ascii: "+"), UInt8(ascii: "."): return try scanJSON5Number()
        default: break
        }
        let end = JSONBytes.identifierEnd(bytes, from: start)
        let word = start..<end
        @inline(__always) func token(_ kind: JSONToken.Kind, _ flag: Bool) -> JSONToken {
            index = end
            return JSONToken(kind: kind, range: word, flag: flag)
        }
        if JSONBytes.equal(bytes, start, end, "true") { return token(.bool, true) }
        if JSONBytes.equal(bytes, start, end, "false") { return token(.bool, false) }
        if JSONBytes.equal(bytes, start, end, "null") { return token(.null, false) }
        if JSONBytes.equal(bytes, start, end, "Infinity") || JSONBytes.equal(bytes, start, end, "NaN") {
            return token(.number, false)
        }
        guard end > start else { throw fail(start, "unexpected \(foundCharacter(start)), expected a value") }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[word]), as: UTF8.self)
        throw fail(start, "unexpected word '\(text)', expected a value (strings need quotes)")
    }
}
