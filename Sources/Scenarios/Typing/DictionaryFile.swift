import Sim

/// Reads and writes word-frequency dictionary files, the format shared by the suggestion
/// and touch models (`docs/models.md`, "Typing quality"):
///
///     # keysim dictionary 1
///     # language: en
///     # source: alice29.txt, lcet10.txt
///     # tokens: 89731
///     the<TAB>5731
///     of<TAB>3437
///
/// UTF-8, one `word<TAB>count` entry a line (count a positive integer), lines starting with
/// `#` are comments or metadata, entries sorted by count descending then word ascending
/// (by UTF-8 bytes), words lower-cased and unique. The `# keysim dictionary N` header is
/// optional, but a file that declares another format version than ``formatVersion`` is
/// refused rather than misread. Problems are reported as `file:line[:column]: error: …`.
public enum DictionaryFile {
    /// The format version this keysim reads and writes.
    public static let formatVersion = 1
    /// The header line's text before the version.
    static let headerPrefix = "# keysim dictionary"
    /// The first line every file written by keysim starts with.
    public static let magic = "\(headerPrefix) \(formatVersion)"
    /// The longest word accepted, in bytes.
    public static let wordLengthMax = 256

    /// Reads a dictionary file (`.zst` compressed files too).
    /// - Throws: `InputError` naming the file and line of the first problem.
    public static func read(path: String) throws(InputError) -> WordDictionary {
        let reader = try LineReader(path: path)
        var entries: [(word: String, count: Int)] = []
        var lineOf: [String: Int] = [:]
        var language = ""
        var previous: (word: String, count: Int)?
        while let line = try reader.nextLine() {
            let text = String(decoding: line.bytes, as: UTF8.self)
            if text.hasPrefix("#") {
                if entries.isEmpty, let header = Self.headerVersion(text), header.version != String(formatVersion) {
                    // A later format could change what a line means; reading it as this one
                    // would give wrong suggestions without a word of warning.
                    throw reader.error("dictionary format version \(header.version.isEmpty ? "missing" : header.version); this keysim reads \(formatVersion)",
                                       column: header.column)
                }
                if text.hasPrefix("# language:") {
                    language = String(text.dropFirst("# language:".count)).trimmingSpaces()
                }
                continue
            }
            if text.isEmpty { continue }
            // A tab is a grapheme cluster of its own: splitting the bytes splits the characters.
            let fields = text.utf8.split(separator: 0x09, omittingEmptySubsequences: false).map { Substring($0) }
            guard fields.count == 2 else {
                throw reader.error(fields.count < 2 ? "expected 'word<TAB>count', found no tab" : "expected 'word<TAB>count', found \(fields.count - 1) tabs",
                                   column: fields.count < 2 ? 1 : fields[0].utf8.count + fields[1].utf8.count + 2)
            }
            let word = String(fields[0])
            guard !word.isEmpty else { throw reader.error("empty word", column: 1) }
            guard word.utf8.count <= wordLengthMax else { throw reader.error("word longer than \(wordLengthMax) bytes", column: 1) }
            // ASCII words (nearly all) are checked byte by byte; others by Unicode's rules.
            let ascii = word.utf8.allSatisfy { $0 < 0x80 }
            guard ascii ? !word.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) : word == word.lowercased() else {
                throw reader.error("word '\(word)' is not lower-cased", column: 1)
            }
            guard ascii ? !word.utf8.contains(where: { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }) : !word.contains(where: { $0.isWhitespace }) else {
                throw reader.error("word '\(word)' contains white space", column: 1)
            }
            let countColumn = fields[0].utf8.count + 2
            guard !fields[1].isEmpty, fields[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let count = Int(fields[1]), count > 0 else {
                throw reader.error("count '\(fields[1])' is not a positive integer", column: countColumn)
            }
            if let earlier = lineOf[word] { throw reader.error("duplicate word '\(word)' (first on line \(earlier))", column: 1) }
            if let previous, !(previous.count > count || (previous.count == count && Self.precedes(previous.word, word))) {
                throw reader.error("entries must be sorted by count descending, then word ascending: '\(word)' (\(count)) follows '\(previous.word)' (\(previous.count))")
            }
            lineOf[word] = line.number
            previous = (word, count)
            entries.append((word, count))
        }
        guard !entries.isEmpty else { throw InputError(.invalidContent, file: path, message: "holds no entries ('word<TAB>count' lines)") }
        return WordDictionary(entries: entries, language: language)
    }

    /// The text of a dictionary file for `entries`, which must already be in file order.
    public static func text(entries: [(word: String, count: Int)], language: String, sources: [String], tokens: Int) -> String {
        var text = magic + "\n"
        text += "# language: \(language)\n"
        text += "# source: \(sources.joined(separator: ", "))\n"
        text += "# tokens: \(tokens)\n"
        for entry in entries { text += "\(entry.word)\t\(entry.count)\n" }
        return text
    }

    /// The version text of a `# keysim dictionary N` header line (empty when the line names
    /// none) and its 1-based byte column, or nil when `line` is another comment.
    static func headerVersion(_ line: String) -> (version: String, column: Int)? {
        guard line.hasPrefix(headerPrefix) else { return nil }
        let rest = line.dropFirst(headerPrefix.count)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        let version = String(rest).trimmingSpaces()
        let padding = rest.prefix { $0 == " " || $0 == "\t" }.utf8.count
        return (version, headerPrefix.utf8.count + max(1, padding) + 1)
    }

    /// The file order of two words with the same count: ascending by UTF-8 bytes.
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
