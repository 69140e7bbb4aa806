import Foundation

/// The writer's escaping and number formats, also as text for the callers that put JSON
/// together from pieces (`JSONWriter.quoted(name) + ":"`).
extension JSONWriter {
    /// `text` as a JSON string literal, quotes included, escaped as `string(_:)` does by
    /// default (U+2028 and U+2029 escaped).
    public static func quoted(_ text: String) -> String {
        quoted(text, escapesLineSeparators: true)
    }

    /// `text` as a JSON string literal, quotes included, U+2028 and U+2029 escaped or not.
    public static func quoted(_ text: String, escapesLineSeparators: Bool) -> String {
        var bytes: [UInt8] = []
        appendQuoted(text, escapesLineSeparators: escapesLineSeparators, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A measured value as `number(_:)` writes it: `3`, `0.25`, `1e+20`, `null` for NaN.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// `scaled` / 10^`fractionDigits` as `decimal(_:fractionDigits:keepsTrailingZeros:)`
    /// writes it.
    public static func decimal(_ scaled: Int64, fractionDigits: Int, keepsTrailingZeros: Bool = false) -> String {
        var bytes: [UInt8] = []
        appendDecimal(scaled, fractionDigits: fractionDigits, keepsTrailingZeros: keepsTrailingZeros, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `value` rounded to `fractionDigits` decimals as C's `printf("%.*f")` prints it
    /// (`0.1235`); `null` for NaN and the infinities.
    public static func fixed(_ value: Double, fractionDigits: Int) -> String {
        precondition((0...17).contains(fractionDigits), "fractionDigits must be in 0...17")
        return value.isFinite ? String(format: "%.\(fractionDigits)f", value) : "null"
    }

    /// Appends `text` as a JSON string literal: `"` and `\` escaped, control characters as
    /// short escapes (`\n`) or `\u00XX`, U+2028 and U+2029 as `\u2028` and `\u2029` when
    /// `escapesLineSeparators`, everything else (all other non-ASCII included) as UTF-8.
    static func appendQuoted(_ text: String, escapesLineSeparators: Bool, to bytes: inout [UInt8]) {
        bytes.append(JSONBytes.quote)
        var text = text
        text.withUTF8 { utf8 in
            var i = 0
            while i < utf8.count {
                let byte = utf8[i]
                i += 1
                switch byte {
                case JSONBytes.quote, JSONBytes.backslash: bytes.append(JSONBytes.backslash); bytes.append(byte)
                case 0x0A: bytes.append(JSONBytes.backslash); bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(JSONBytes.backslash); bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(JSONBytes.backslash); bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(JSONBytes.backslash); bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(JSONBytes.backslash); bytes.append(UInt8(ascii: "f"))
                case 0x00..<0x20: appendUnicodeEscape(UInt32(byte), to: &bytes)
                case 0xE2 where escapesLineSeparators && JSONBytes.isLineSeparator(utf8, i - 1):
                    appendUnicodeEscape(0x2028 + UInt32(utf8[i + 1] & 1), to: &bytes)
                    i += 2
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(JSONBytes.quote)
    }

    /// `\u` and four lowercase hexadecimal digits.
    private static func appendUnicodeEscape(_ unit: UInt32, to bytes: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        bytes.append(JSONBytes.backslash)
        bytes.append(UInt8(ascii: "u"))
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(digits.utf8Start[Int((unit >> UInt32(shift)) & 0xF)])
        }
    }

    /// Appends `scaled` / 10^`fractionDigits` exactly (see `decimal`).
    static func appendDecimal(_ scaled: Int64, fractionDigits: Int, keepsTrailingZeros: Bool, to bytes: inout [UInt8]) {
        precondition((0...18).contains(fractionDigits), "fractionDigits must be in 0...18")
        if scaled < 0 { bytes.append(UInt8(ascii: "-")) }
        var unit: UInt64 = 1
        for _ in 0..<fractionDigits { unit *= 10 }
        let magnitude = scaled.magnitude // UInt64: Int64.min has no positive Int64
        bytes.append(contentsOf: String(magnitude / unit).utf8)
        var fraction = magnitude % unit
        var digits = fractionDigits
        if !keepsTrailingZeros {
            guard fraction != 0 else { return }
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
        }
        guard digits > 0 else { return }
        bytes.append(UInt8(ascii: "."))
        let text = String(fraction)
        for _ in text.utf8.count..<digits { bytes.append(UInt8(ascii: "0")) }
        bytes.append(contentsOf: text.utf8)
    }
}
