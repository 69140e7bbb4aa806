/// Text written into Markdown: the one place keysim escapes it (the report's Markdown
/// export and the gate's CI summary).
public enum MarkdownEscaper {
    /// Text safe anywhere in Markdown, table cells included: HTML is written as entities
    /// (a scenario or policy name cannot become a tag), and every character Markdown gives
    /// a meaning inline is escaped with a backslash; line breaks become spaces.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            if character != "\"", let entity = HTMLEscaper.entity(character) {
                out += entity
                continue
            }
            switch character {
            case "\\", "`", "*", "_", "[", "]", "|", "#", "!": out += "\\" + String(character)
            case "\n", "\r", "\r\n": out += " "
            default: out.append(character)
            }
        }
        return out
    }

    /// A path as an inline code span, whatever backticks it holds.
    public static func code(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.contains("`") ? "`` " + flat + " ``" : "`" + flat + "`"
    }

    /// Text kept as it is in a table cell, inline Markdown included, with only what would
    /// break the row escaped: pipes, and line breaks as spaces (the gate's CI summary,
    /// whose names and sentences are keysim's own).
    public static func tableCell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
