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
/// (by UTF-8 bytes), words lower-cased and unique. Problems are reported as
/// `file:line: error: …`.
public enum DictionaryFile {
    /// The first line every file written by keysim starts with.
    public static let magic = "# keysim dictionary 1"
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
                if text.hasPrefix("# language:") {
                    language = String(text.dropFirst("# language:".count)).trimmingSpaces()
                }
                continue
            }
            if text.isEmpty { continue }
            let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 2 else {
                throw reader.error(fields.count < 2 ? "expected 'word<TAB>count', found no tab" : "expected 'word<TAB>count', found \(fields.count - 1) tabs",
                                   column: fields.count < 2 ? 1 : fields[0].utf8.count + fields[1].utf8.count + 2)
            }
            let word = String(fields[0])
            guard !word.isEmpty else { throw reader.error("empty word", column: 1) }
            guard word.utf8.count <= wordLengthMax else { throw reader.error("word longer than \(wordLengthMax) bytes", column: 1) }
            guard word == word.lowercased() else { throw reader.error("word '\(word)' is not lower-cased", column: 1) }
            guard !word.contains(where: { $0.isWhitespace }) else { throw reader.error("word '\(word)' contains white space", column: 1) }
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

    /// The file order of two words with the same count: ascending by UTF-8 bytes.
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}

private extension String {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
