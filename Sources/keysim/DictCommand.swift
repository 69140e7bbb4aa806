import Foundation
import Scenarios
import Sim

/// `keysim dict <subcommand>`: word-frequency dictionaries for the suggestion bar.
///
/// Like `keysim trace`, `spec` is the spec of the subcommand named on the command line
/// ("dict build") so that its options parse, its usage errors name it and
/// `keysim dict build --help` prints its help.
enum DictCommand {
    /// The subcommands' names, in the order the overview lists them.
    static let subcommandNames = ["build"]

    /// The help of `keysim dict` itself.
    static var overview: CommandSpec {
        CommandSpec(
            name: "dict",
            abstract: "Word-frequency dictionaries for the suggestion bar: build one from text.",
            usage: "dict <subcommand> [options]",
            arguments: [("<subcommand>", "build.")],
            discussion: """
            SUBCOMMANDS:
              build      \(buildSpec.abstract)

            Run 'keysim dict <subcommand> --help' for a subcommand's options.
            The file format is in docs/models.md ("Typing quality").
            """
        )
    }

    static var buildSpec: CommandSpec {
        CommandSpec(
            name: "dict build",
            abstract: "Count the words of texts into a dictionary file (word<TAB>count).",
            usage: "dict build <text>... --out FILE [--language TAG] [--min-count N] [--max-words N]",
            arguments: [("<text>...", "Plain UTF-8 text files, or .zst compressed ones.")],
            options: [
                OptionSpec(name: "out", value: "FILE", help: "The dictionary file to write (replaced atomically)."),
                OptionSpec(name: "language", value: "TAG", help: "The language written in the header (default en)."),
                OptionSpec(name: "min-count", value: "N", help: "Leave out words seen fewer than N times (default 1)."),
                OptionSpec(name: "max-words", value: "N", help: "Keep only the N most frequent words (default: all)."),
            ],
            discussion: """
            A word is a run of letters, lower-cased, with single apostrophes or hyphens allowed
            between letters (don't, rabbit-hole); digits and other punctuation separate words.
            Entries are written by count descending, then word ascending; the header records
            the language, the source file names and the number of words counted (tokens).
            """
        )
    }

    /// The spec `main.swift` parses the command line with.
    static var spec: CommandSpec { spec(for: CommandLine.arguments) }

    /// The named subcommand's spec, or the overview.
    static func spec(for arguments: [String]) -> CommandSpec {
        guard arguments.count >= 3, arguments[1] == "dict", arguments[2] == "build" else { return overview }
        return buildSpec
    }

    /// Runs the subcommand named by the first positional argument.
    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard let name = arguments.positionals.first else {
            throw UsageError(command: "dict", message: "missing <subcommand> (build)")
        }
        guard name == "build" else { throw UsageError(command: "dict", message: "unknown subcommand '\(name)' (expected build)") }
        var rest = arguments
        rest.positionals.removeFirst()
        return try build(rest)
    }

    static func build(_ arguments: ParsedArguments) throws -> Int32 {
        let command = "dict build"
        let texts = arguments.positionals
        guard !texts.isEmpty else { throw UsageError(command: command, message: "missing <text>...: the text files to count") }
        guard let out = arguments.value("out") else { throw UsageError(command: command, message: "missing --out <FILE>") }
        let language = arguments.value("language") ?? "en"
        guard TypistModel.isLanguageTag(language) else {
            throw UsageError(command: command, message: "--language must be a BCP 47 tag such as en or pt-BR, not '\(language)'")
        }
        let minCount = try arguments.integer("min-count", in: 1...Int(Int32.max)) ?? 1
        let maxWords = try arguments.integer("max-words", in: 1...10_000_000)

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
