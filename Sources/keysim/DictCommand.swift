import Foundation
import Scenarios
import Sim

/// `keysim dict <subcommand>`: word-frequency dictionaries for the suggestion bar.
enum DictCommand {
    /// The group and its subcommands, in the order its help lists them.
    static var group: CommandGroup {
        CommandGroup(name: "dict", abstract: "Word-frequency dictionaries for the suggestion bar: build one from text.",
                     subcommands: [AnyCommand(DictBuildCommand.self)],
                     footer: "The file format is in docs/models.md (\"Typing quality\").")
    }
}

/// `keysim dict build`: count the words of texts into a dictionary file.
struct DictBuildCommand: ParsableCommand {
    var texts: [String] = []
    var out: String?
    var language = "en"
    var minCount = 1
    var maxWords: Int?

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "dict build",
            abstract: "Count the words of texts into a dictionary file (word<TAB>count).",
            usage: "dict build <text>... --out FILE [--language TAG] [--min-count N] [--max-words N]",
            arguments: [.many("<text>...", \.texts, help: "Plain UTF-8 text files, or .zst compressed ones.",
                              missing: "<text>...: the text files to count")],
            options: [
                .option("out", \.out, value: "FILE", help: "The dictionary file to write (replaced atomically).", .file),
                .option("language", \.language, value: "TAG", help: "The language written in the header (default en).", .languageTag),
                .option("min-count", \.minCount, value: "N", help: "Leave out words seen fewer than N times (default 1).",
                        .integer(in: 1...Int(Int32.max))),
                .option("max-words", \.maxWords, value: "N", help: "Keep only the N most frequent words (default: all).",
                        .integer(in: 1...10_000_000)),
            ],
            discussion: """
            A word is a run of letters, lower-cased, with single apostrophes or hyphens allowed
            between letters (don't, rabbit-hole); digits and other punctuation separate words.
            Entries are written by count descending, then word ascending; the header records
            the language, the source file names and the number of words counted (tokens).
            """
        )
    }

    mutating func validate() throws {
        guard out != nil else { throw Self.usage("missing --out <FILE>") }
    }

    func run() throws -> Int32 {
        let out = self.out!  // checked by validate()
        var builder = DictionaryBuilder()
        for path in texts {
            let reader = try LineReader(path: path)
            while let line = try reader.nextLine() {
                builder.add(String(decoding: line.bytes, as: UTF8.self))
            }
        }
        guard builder.tokens > 0 else {
            throw InputError(.invalidContent, file: texts.joined(separator: ", "), message: "no words in the input")
        }
        let entries = builder.entries(minCount: minCount, maxWords: maxWords)
        guard !entries.isEmpty else {
            throw InputError(.invalidContent, file: texts.joined(separator: ", "),
                             message: "no word is seen at least \(minCount) times (--min-count)")
        }
        let sources = texts.map { URL(fileURLWithPath: $0).lastPathComponent }
        let text = DictionaryFile.text(entries: entries, language: language, sources: sources, tokens: builder.tokens)
        try AtomicFileWriter.write(Array(text.utf8), to: out)
        print("keysim dict build: \(entries.count) words from \(builder.tokens) tokens in \(texts.count) file(s) -> \(out)")
        return 0
    }
}
