/// Text written into HTML, SVG or XML: the one place keysim escapes markup (the HTML
/// report, its SVG charts, the calibration page, the gate's JUnit XML).
public enum HTMLEscaper {
    /// Text safe in HTML or SVG content and inside a double-quoted attribute value: `&`,
    /// `<`, `>` and `"` written as entities, so that no name can become a tag or end an
    /// attribute.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            if let entity = entity(character) { result += entity } else { result.append(character) }
        }
        return result
    }

    /// The entity `character` is written as in markup, or nil when it stands for itself.
    @inline(__always)
    static func entity(_ character: Character) -> String? {
        switch character {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case "\"": "&quot;"
        default: nil
        }
    }

    /// XML character data: `&`, `<`, `>` escaped, and the characters XML 1.0 forbids
    /// (control characters other than tab and line breaks) dropped.
    public static func xmlText(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default:
                if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r" { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// An XML attribute value, quotes included: character data with `"` and line breaks
    /// as references too.
    public static func xmlAttribute(_ value: String) -> String {
        "\"" + xmlText(value).replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "\n", with: "&#10;") + "\""
    }
}
