/// JSON5 numbers: the scanner validates them with `json5` and the tree builder decodes them
/// with it again, so both read the same grammar.
extension JSONNumber {
    /// The JSON5 number at `start`: where it ends, its value, and its exact value when it is
    /// written as a decimal integer that fits an `Int64` (a seed above 2^53 has no exact
    /// `Double`). Accepts a sign, `Infinity`, `NaN`, hexadecimal (`0x1F`, at most 15 digits),
    /// and a leading or trailing decimal point (`.5`, `5.`).
    static func json5(_ bytes: UnsafeBufferPointer<UInt8>,
                      from start: Int) throws(JSONSyntaxError) -> (end: Int, value: Double, exact: Int64?) {
        var i = start
        var sign = 1.0
        if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
            if bytes[i] == UInt8(ascii: "-") { sign = -1 }
            i += 1
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "I") || bytes[i] == UInt8(ascii: "N") {
            let end = JSONBytes.identifierEnd(bytes, from: i)
            if JSONBytes.equal(bytes, i, end, "Infinity") { return (end, sign * .infinity, nil) }
            if JSONBytes.equal(bytes, i, end, "NaN") { return (end, .nan, nil) }
            throw JSONSyntaxError(offset: start, message: "invalid number")
        }
        if i + 1 < bytes.count, bytes[i] == UInt8(ascii: "0"), bytes[i + 1] | 0x20 == UInt8(ascii: "x") {
            i += 2
            var value: UInt64 = 0
            var digits = 0
            while i < bytes.count, let digit = JSONBytes.hexValue(bytes[i]) {
                value = value &* 16 &+ UInt64(digit)
                digits += 1
                i += 1
            }
            guard (1...15).contains(digits) else { throw JSONSyntaxError(offset: start, message: "invalid hexadecimal number") }
            return (i, sign * Double(value), nil)
        }
        // The digits, points, exponent marks and exponent signs, then made readable by
        // `Double(_:)`: ".5" → "0.5", "5." → "5.0", "5.e3" → "5.0e3".
        var text = ""
        while i < bytes.count {
            let byte = bytes[i]
            let afterExponentMark = text.utf8.last.map { $0 | 0x20 == UInt8(ascii: "e") } ?? false
            guard JSONBytes.isDigit(byte) || byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e")
                    || ((byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && afterExponentMark) else { break }
            text.unicodeScalars.append(UnicodeScalar(byte))
            i += 1
        }
        if text.hasPrefix(".") { text = "0" + text }
        if text.hasSuffix(".") { text += "0" }
        if let dot = text.firstIndex(of: "."), text.index(after: dot) < text.endIndex,
           text[text.index(after: dot)] == "e" || text[text.index(after: dot)] == "E" {
            text.insert("0", at: text.index(after: dot))
        }
        guard !text.isEmpty, let value = Double(text) else {
            throw JSONSyntaxError(offset: start, message: "invalid number '\(text)'")
        }
        let exact = text.utf8.allSatisfy(JSONBytes.isDigit) ? Int64(sign < 0 ? "-" + text : text) : nil
        return (i, sign * value, exact)
    }
}
