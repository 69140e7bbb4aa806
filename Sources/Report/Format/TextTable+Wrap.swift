extension TextTable {
    /// `text` as lines of at most `width` characters, broken at spaces (a word longer than
    /// `width` gets a line of its own); line breaks in `text` are kept.
    public static func wrapped(_ text: String, width: Int) -> String {
        precondition(width > 0, "a positive width")
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { paragraph in
            var lines: [String] = []
            var line = ""
            for word in paragraph.split(separator: " ") {
                if line.isEmpty {
                    line = String(word)
                } else if line.count + 1 + word.count <= width {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            lines.append(line)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
