import Scenarios
import Sim

/// `keysim trace anonymize`: a trace with every letter and digit replaced.
struct TraceAnonymizeCommand: ParsableCommand {
    var input = ""
    var output = ""
    var seed: UInt64?

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "trace anonymize",
            abstract: "Replace every letter and digit of a trace, keeping its timing and shape.",
            usage: "trace anonymize <in> <out> --seed S",
            arguments: [.one("<in>", \.input, help: "The trace to anonymise (.jsonl or .jsonl.zst).", .file),
                        .one("<out>", \.output, help: "The anonymised trace to write (.jsonl, or .jsonl.zst compressed).", .file)],
            options: [
                .option("seed", \.seed, value: "S", help: "Seed of the word replacements: the same seed and trace give the same output. Keep it secret.",
                        .traceSeed),
            ],
            discussion: """
            Every word becomes random letters of the same length, case and script (digits
            stay digits), drawn for that word from a key made of the seed and the trace's
            bytes: the same word is replaced the same way throughout the trace (key text,
            suggestions, pastes, transcripts, the header's intendedText and name), so typed
            words still match or miss the words meant, but no letter mapping carries from word
            to word or from trace to trace. The header's source becomes "anonymized". Touch
            points move with their letter to its new key. Times, backspaces, cursor moves,
            spaces, punctuation and emoji stay. WAV files that
            dictations refer to are not changed: they still hold the spoken words. See
            docs/trace-format.md for what is kept and what it protects against.
            """
        )
    }

    mutating func validate() throws {
        guard seed != nil else { throw Self.usage("missing --seed <S> (the same seed gives the same result)") }
        guard output.hasSuffix(".jsonl") || output.hasSuffix(".jsonl.zst") else {
            throw Self.usage("<out> must name a .jsonl or .jsonl.zst file, not '\(output)'")
        }
    }

    func run() throws -> Int32 { try TraceCommand.anonymize([input, output], seed: seed!) }
}

extension TraceCommand {
    static func anonymize(_ paths: [String], seed: UInt64) throws -> Int32 {
        let out = paths[1]
        // Two passes: the first finds the word each typing episode ends as, the second writes.
        var anonymizer = TraceAnonymizer(seed: seed, traceDigest: try ScenarioFingerprint.filesHash([paths[0]]),
                                         language: try TraceFileReader(path: paths[0]).header.language)
        var learning = try TraceFileReader(path: paths[0])
        while let event = try learning.nextEvent() { anonymizer.learn(event) }
        anonymizer.finishLearning()
        var reader = try TraceFileReader(path: paths[0])
        // A bad line anywhere throws before commit(): the writer then leaves no file.
        let writer = try TraceFileWriter(path: out, header: anonymizer.anonymize(reader.header))
        var audioCount = 0
        while let line = try reader.nextLine() {
            switch line {
            case .event(let event):
                if case .dictationStart(.wavFile) = event.kind { audioCount += 1 }
                try writer.write(anonymizer.anonymize(event))
            case .measurement(let measurement):
                // A kind name and a duration: nothing the user typed.
                try writer.write(measurement)
            }
        }
        try writer.commit()
        print("\(out): \(count(writer.eventCount, "event")) anonymized from \(paths[0])")
        if audioCount > 0 {
            printError("\(paths[0]): warning: \(count(audioCount, "dictation")) \(audioCount == 1 ? "refers" : "refer") to WAV files, which still hold the spoken words")
        }
        return 0
    }
}
