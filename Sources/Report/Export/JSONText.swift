/// JSON text made by hand: keysim writes JSON (reports, Chrome traces, job specs) as a
/// stream, without building a document in memory.
public enum JSONText {
    /// `text` as a JSON string literal, quotes included. Escapes `"`, `\` and the control
    /// characters; everything else is written as UTF-8.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// A double as a JSON number: the shortest text that reads back as the same double,
    /// and `null` for NaN and infinities, which JSON cannot represent.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A SQLite value as JSON: integers and reals as numbers, text as a string, blobs as a
    /// string of hex digits, `NULL` as `null`.
    public static func value(_ value: SQLValue) -> String {
        switch value {
        case .null: return "null"
        case .integer(let integer): return String(integer)
        case .real(let real): return number(real)
        case .text(let text): return quoted(text)
        case .blob(let bytes):
            let digits: [Character] = Array("0123456789abcdef")
            var hex = ""
            hex.reserveCapacity(bytes.count * 2)
            for byte in bytes {
                hex.append(digits[Int(byte >> 4)])
                hex.append(digits[Int(byte & 0x0F)])
            }
            return quoted(hex)
        }
    }
}
