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
                OptionSpec(name: "seed", value: "S", help: "Seed of the letter mapping: the same seed gives the same output. Keep it secret."),
            ],
            discussion: """
            Letters become other letters of the same case and script (Latin stays Latin,
            Cyrillic stays Cyrillic), digits other digits; spaces, punctuation, emoji,
            combining marks, times, touch points and cursor moves stay. One mapping covers key
            text, suggestions, pastes, transcripts and the header's intendedText, so the trace
            still types a consistent text. WAV files that dictations refer to are not changed:
            they still hold the spoken words.
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
        var reader = try TraceFileReader(path: paths[0])
        var anonymizer = TraceAnonymizer(seed: seed)
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
