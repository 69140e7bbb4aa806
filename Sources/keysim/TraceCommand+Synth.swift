import Scenarios
import Sim

/// `keysim trace synth`: a keystroke trace typed from text by a typist model.
struct TraceSynthCommand: TraceSubcommand {
    var textPath: String?
    var typist: TypistChoice?
    var wordsPerMinute: Double?
    var seed: UInt64?
    var out: String?
    var typoRate: Double?
    var touchSpreadPoints: Double?
    var language: String?
    var name: String?

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "trace synth",
            abstract: "Synthesise a keystroke trace from text with a typist model.",
            usage: "trace synth --text FILE (--wpm N | --typist PRESET|FILE [--wpm N]) --seed S [--out FILE] [--typo-rate P] [--touch-spread PT] [--language TAG] [--name NAME]",
            options: [
                .option("text", \.textPath, value: "FILE", help: "The text to type (UTF-8; lines are typed with return between them, or as messages of their own by a typist that sends a message per line).", .file),
                .option("typist", \.typist, value: "PRESET|FILE", help: "A human typist: a preset (\(TypistProfile.presetNames.joined(separator: ", "))) or a profile file from 'keysim trace fit'.", .typist),
                .option("wpm", \.wordsPerMinute, value: "N", help: "Net typing speed in words per minute (five characters a word), 5 to 250; with --typist, the profile's typing intervals are scaled to reach it.",
                        .number(in: TypistModel.wordsPerMinuteRange)),
                .option("seed", \.seed, value: "S", help: "Seed of the typist's random draws: the same seed gives the same trace.", .traceSeed),
                .option("out", \.out, value: "FILE", help: "Write the trace here (.jsonl, or .jsonl.zst compressed) instead of to standard output.",
                        .file(endingIn: [".jsonl", ".jsonl.zst"], "a .jsonl or .jsonl.zst file")),
                .option("typo-rate", \.typoRate, value: "P", help: "Share of letters mistyped as a neighbouring key, 0 to 0.5 (default 0.03, all corrected; with --typist, the profile's slip rate, each slip fixed or left as the profile says).",
                        .number(in: TypistModel.typoRateRange)),
                .option("touch-spread", \.touchSpreadPoints, value: "PT", help: "Standard deviation of touches around the key's centre, in points, 0 to 33 (default 6, or the profile's; 0: at the centre).",
                        .number(in: TypistModel.touchSpreadRange)),
                .option("language", \.language, value: "TAG", help: "The keyboard language at the start, a BCP 47 tag (default en, or the profile's).", .languageTag),
                .option("name", \.name, value: "NAME", help: "The trace's name (default: the text file's name).", .string),
            ],
            discussion: """
            With --typist: intervals by context, heavy-tailed pauses at word, phrase, sentence
            and message starts, slips noticed within the word, after it (backspacing over the
            space or moving the cursor back) or never, picked suggestions, and messages sent
            with the field cleared (field events) and the keyboard hidden between some of them;
            see "Typist profiles" in docs/trace-format.md. --typo-rate, --touch-spread and
            --language replace the profile's slip rate, touch spread and start language; then
            --wpm scales its typing intervals. Letters of the other script switch the
            language (a Latin letter in Russian, a Cyrillic one in English), and '@dictate'
            lines are dictations, as for the simple typist; with a typist that sends a message
            per line, a dictation is a message of its own.

            Without --typist (the simple typist): intervals are lognormal, slower at word and sentence starts, after shift and on the
            123 layer; mistyped letters are neighbours on the QWERTY (or Russian) layout, noticed
            within a few letters and deleted with backspace. Touch points use the reference
            layout in docs/trace-format.md; the header carries the text as intendedText. A line
            '@dictate AUDIO TRANSCRIPT' in the text is a dictation of the WAV file AUDIO
            (relative to the output's folder) that inserts TRANSCRIPT. For the touch model
            (typing.touch), --typo-rate 0 makes every key's text the letter meant, so a touch
            scattered over a key boundary is the only kind of typo.
            """
        )
    }

    mutating func validate() throws {
        guard textPath != nil else { throw Self.usage("missing --text <FILE> (the text to type)") }
        if typist == nil, wordsPerMinute == nil { throw Self.usage("missing --wpm <N> (words per minute)") }
        guard seed != nil else { throw Self.usage("missing --seed <S> (the same seed gives the same result)") }
    }

    func run() throws -> Int32 {
        // Checked by validate().
        let textPath = textPath!, seed = seed!
        if let typist { return try synthHuman(textPath: textPath, typist: typist, seed: seed) }
        let wpm = wordsPerMinute!
        var options = TypistModel.Options(wordsPerMinute: wpm)
        options.typoRate = typoRate ?? options.typoRate
        options.touchSpreadPoints = touchSpreadPoints ?? options.touchSpreadPoints
        options.language = language ?? options.language

        // Audio clips are relative to the trace's folder, as in the trace itself.
        let folder = out.map(TraceValidator.directory(of:)) ?? ""
        let script = try SynthScript.read(path: textPath) { (audio: String) throws(InputError) -> Int64 in
            try WAVFile.read(path: folder + audio).durationNanos
        }
        let typist = TypistModel(options: options)
        var source = "keysim trace synth --wpm \(Self.format(wpm)) --seed \(seed)"
        if options.typoRate != 0.03 { source += " --typo-rate \(Self.format(options.typoRate))" }
        if options.touchSpreadPoints != 6 { source += " --touch-spread \(Self.format(options.touchSpreadPoints))" }
        let header = TraceHeader(name: name ?? TraceCommand.baseName(textPath), language: options.language,
                                 intendedText: script.intendedText, source: source)

        let writer = try out.map { (path) throws(InputError) in try TraceFileWriter(path: path, header: header) }
            ?? TraceFileWriter(sink: StandardOutputSink(), header: header)
        try typist.synthesize(script, seed: seed) { (event: TraceEvent) throws(InputError) in try writer.write(event) }
        try writer.commit()
        printSummary(writer, script)
        return 0
    }

    /// `--typist`: the human typist.
    func synthHuman(textPath: String, typist typistChoice: TypistChoice, seed: UInt64) throws -> Int32 {
        let folder = out.map(TraceValidator.directory(of:)) ?? ""
        let script = try SynthScript.read(path: textPath) { (audio: String) throws(InputError) -> Int64 in
            try WAVFile.read(path: folder + audio).durationNanos
        }
        let synthesis = HumanSynthesis(typist: typistChoice.name, profile: try Self.typistProfile(typistChoice), seed: seed,
                                       wordsPerMinute: wordsPerMinute, typoRate: typoRate, touchSpreadPoints: touchSpreadPoints,
                                       language: language, name: name ?? TraceCommand.baseName(textPath))
        let (header, events) = synthesis.trace(of: script)
        let writer = try out.map { (path) throws(InputError) in try TraceFileWriter(path: path, header: header) }
            ?? TraceFileWriter(sink: StandardOutputSink(), header: header)
        for event in events { try writer.write(event) }
        try writer.commit()
        printSummary(writer, script)
        return 0
    }

    /// The line that says what was written, when it went to a file.
    private func printSummary(_ writer: TraceFileWriter, _ script: SynthScript) {
        guard let out else { return }
        print("\(out): \(Self.count(writer.eventCount, "event")), \(Self.count(TextCounts.words(script.intendedText), "word")), \(Self.seconds(writer.lastTime?.nanoseconds ?? 0)) s")
    }

    /// A preset by name, or a profile file.
    static func typistProfile(_ choice: TypistChoice) throws -> TypistProfile {
        switch choice {
        case .preset(let name): TypistProfile.preset(named: name)!
        case .file(let path): try TypistProfile.read(path: path)
        }
    }
}

extension TraceCommand {
    /// A file's name without its folder and its last extension: "texts/notes.txt" → "notes".
    static func baseName(_ path: String) -> String { HumanSynthesis.traceName(ofText: path) }
}
