import Scenarios
import Foundation

/// Fields of a CSV file (RFC 4180): the one place keysim quotes them.
public enum CSVEscaper {
    /// A field as CSV writes it: quoted when it holds a comma, quote, line break or
    /// surrounding space. A text a spreadsheet would run as a formula (it starts with `=`,
    /// `+`, `-`, `@`, a tab or a carriage return, and is not a number) gets a leading `'`
    /// and quotes, so that it opens as the text it is.
    public static func field(_ text: String) -> String {
        var text = text
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first), Double(text) == nil {
            text = "'" + text
        }
        let needsQuotes = text.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || text.first == " " || text.last == " " || text.first == "'"
        return needsQuotes ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    /// A SQLite value as a CSV field: `NULL` empty, numbers as JSON writes them (the
    /// shortest text that reads back), text quoted as `field` does, a blob as hex digits.
    public static func value(_ value: SQLValue) -> String {
        switch value {
        case .null: return ""
        case .integer(let integer): return String(integer)
        case .real(let real): return real.isFinite ? JSONWriter.number(real) : String(real)
        case .text(let text): return field(text)
        case .blob: return JSONWriter.value(value).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
    }
}
