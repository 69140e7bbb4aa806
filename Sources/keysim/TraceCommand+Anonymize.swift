import Scenarios
import Sim

extension TraceCommand {
    static var anonymizeSpec: CommandSpec {
        CommandSpec(
            name: "trace anonymize",
            abstract: "Replace every letter and digit of a trace, keeping its timing and shape.",
            usage: "trace anonymize <in> <out> --seed S",
            arguments: [("<in>", "The trace to anonymise (.jsonl or .jsonl.zst)."),
                        ("<out>", "The anonymised trace to write (.jsonl, or .jsonl.zst compressed).")],
            options: [
                OptionSpec(name: "seed", value: "S", help: "Seed of the word replacements: the same seed and trace give the same output. Keep it secret."),
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

    static func anonymize(_ arguments: ParsedArguments) throws -> Int32 {
        let command = "trace anonymize"
        let paths = try positionals(arguments, exactly: 2, "<in> and <out>", command: command)
        let seed = try seed(arguments, command: command)
        let out = paths[1]
        guard out.hasSuffix(".jsonl") || out.hasSuffix(".jsonl.zst") else {
            throw UsageError(command: command, message: "<out> must name a .jsonl or .jsonl.zst file, not '\(out)'")
        }
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
