/// A word list in keysim's dictionary format: one `word<TAB>count` a line (count a positive
/// integer), `#` lines for comments and metadata, words lower-cased. The suggestion and touch
/// models both read it; the format is described in `dictionaries/README.md`.
public struct DictionaryFile: Sendable, Equatable {
    /// The largest file accepted: 64 MiB.
    public static let bytesMax = 64 << 20

    /// The entries in file order.
    public var entries: [(word: String, count: Int)]

    public static func == (a: DictionaryFile, b: DictionaryFile) -> Bool {
        a.entries.count == b.entries.count && zip(a.entries, b.entries).allSatisfy { $0.word == $1.word && $0.count == $1.count }
    }

    /// Creates a word list from entries.
    public init(entries: [(word: String, count: Int)]) { self.entries = entries }

    /// Reads and checks the file at `path`.
    /// - Throws: `InputError` for a missing or unreadable file, invalid UTF-8, a line that is
    ///   not `word<TAB>count`, a count that is not a positive integer, or a file with no words;
    ///   with the line and column.
    public static func read(path: String) throws(InputError) -> DictionaryFile {
        let reader = try LineReader(path: path)
        var entries: [(word: String, count: Int)] = []
        var bytes = 0
        while let (number, line) = try reader.nextLine() {
            bytes += line.count + 1
            guard bytes <= bytesMax else {
                throw InputError(.invalidContent, file: path, line: number, message: "dictionary is larger than \(bytesMax >> 20) MiB")
            }
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
            guard let tab = line.firstIndex(of: UInt8(ascii: "\t")) else {
                throw InputError(.invalidContent, file: path, line: number, column: 1,
                                 message: "expected 'word<TAB>count'")
            }
            let word = String(decoding: line[line.startIndex..<tab], as: UTF8.self)
            let countText = String(decoding: line[line.index(after: tab)...], as: UTF8.self)
            let column = tab - line.startIndex + 2
            guard !word.isEmpty, !word.contains(where: \.isWhitespace) else {
                throw InputError(.invalidContent, file: path, line: number, column: 1, message: "the word is empty or holds white space")
            }
            guard let count = Int(countText), count >= 1 else {
                throw InputError(.invalidContent, file: path, line: number, column: column,
                                 message: "the count must be a positive integer, found '\(countText)'")
            }
            entries.append((word, count))
        }
        guard !entries.isEmpty else { throw InputError(.invalidContent, file: path, message: "dictionary holds no words") }
        return DictionaryFile(entries: entries)
    }
}
