import Scenarios
import Sim

extension TraceCommand {
    static var synthSpec: CommandSpec {
        CommandSpec(
            name: "trace synth",
            abstract: "Synthesise a keystroke trace from text with a typist model.",
            usage: "trace synth --text FILE (--wpm N | --typist PRESET|FILE [--wpm N]) --seed S [--out FILE] [--typo-rate P] [--touch-spread PT] [--language TAG] [--name NAME]",
            options: [
                OptionSpec(name: "text", value: "FILE", help: "The text to type (UTF-8; lines are typed with return between them, or as messages of their own by a typist that sends a message per line)."),
                OptionSpec(name: "typist", value: "PRESET|FILE", help: "A human typist: a preset (\(TypistProfile.presetNames.joined(separator: ", "))) or a profile file from 'keysim trace fit'."),
                OptionSpec(name: "wpm", value: "N", help: "Net typing speed in words per minute (five characters a word), 5 to 250; with --typist, the profile's typing intervals are scaled to reach it."),
                OptionSpec(name: "seed", value: "S", help: "Seed of the typist's random draws: the same seed gives the same trace."),
                OptionSpec(name: "out", value: "FILE", help: "Write the trace here (.jsonl, or .jsonl.zst compressed) instead of to standard output."),
                OptionSpec(name: "typo-rate", value: "P", help: "Share of letters mistyped as a neighbouring key, 0 to 0.5 (default 0.03, all corrected; with --typist, the profile's slip rate, each slip fixed or left as the profile says)."),
                OptionSpec(name: "touch-spread", value: "PT", help: "Standard deviation of touches around the key's centre, in points, 0 to 33 (default 6, or the profile's; 0: at the centre)."),
                OptionSpec(name: "language", value: "TAG", help: "The keyboard language at the start, a BCP 47 tag (default en, or the profile's)."),
                OptionSpec(name: "name", value: "NAME", help: "The trace's name (default: the text file's name)."),
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

    static func synth(_ arguments: ParsedArguments) throws -> Int32 {
        let command = "trace synth"
        _ = try positionals(arguments, exactly: 0, "", command: command)
        guard let textPath = arguments.value("text") else {
            throw UsageError(command: command, message: "missing --text <FILE> (the text to type)")
        }
        if arguments.value("typist") != nil { return try synthHuman(arguments) }
        guard let wpm = try number(arguments, "wpm", in: TypistModel.wordsPerMinuteRange, command: command) else {
            throw UsageError(command: command, message: "missing --wpm <N> (words per minute)")
        }
        let seed = try seed(arguments, command: command)
        var options = TypistModel.Options(wordsPerMinute: wpm)
        let overrides = try typistOverrides(arguments, command: command)
        options.typoRate = overrides.typoRate ?? options.typoRate
        options.touchSpreadPoints = overrides.touchSpreadPoints ?? options.touchSpreadPoints
        options.language = overrides.language ?? options.language
        let out = try outputPath(arguments, command: command)

        // Audio clips are relative to the trace's folder, as in the trace itself.
        let folder = out.map(TraceValidator.directory(of:)) ?? ""
        let script = try SynthScript.read(path: textPath) { (audio: String) throws(InputError) -> Int64 in
            try WAVFile.read(path: folder + audio).durationNanos
        }
        let typist = TypistModel(options: options)
        var source = "keysim trace synth --wpm \(format(wpm)) --seed \(seed)"
        if options.typoRate != 0.03 { source += " --typo-rate \(format(options.typoRate))" }
        if options.touchSpreadPoints != 6 { source += " --touch-spread \(format(options.touchSpreadPoints))" }
        let header = TraceHeader(name: arguments.value("name") ?? baseName(textPath), language: options.language,
                                 intendedText: script.intendedText, source: source)

        let writer = try out.map { (path) throws(InputError) in try TraceFileWriter(path: path, header: header) }
            ?? TraceFileWriter(sink: StandardOutputSink(), header: header)
        try typist.synthesize(script, seed: seed) { (event: TraceEvent) throws(InputError) in try writer.write(event) }
        try writer.commit()
        if let out {
            print("\(out): \(count(writer.eventCount, "event")), \(count(TextCounts.words(script.intendedText), "word")), \(seconds(writer.lastTime?.nanoseconds ?? 0)) s")
        }
        return 0
    }

    /// `trace synth --typist`: the human typist.
    static func synthHuman(_ arguments: ParsedArguments) throws -> Int32 {
        let command = "trace synth"
        let textPath = arguments.value("text")!
        let typistName = arguments.value("typist")!
        let wpm = try number(arguments, "wpm", in: TypistModel.wordsPerMinuteRange, command: command)
        let seed = try seed(arguments, command: command)
        let overrides = try typistOverrides(arguments, command: command)
        let out = try outputPath(arguments, command: command)
        var profile = try typistProfile(typistName)
        profile.errors.slipRate = overrides.typoRate ?? profile.errors.slipRate
        profile.touchSpreadPoints = overrides.touchSpreadPoints ?? profile.touchSpreadPoints
        profile.language = overrides.language ?? profile.language
        let folder = out.map(TraceValidator.directory(of:)) ?? ""
        let script = try SynthScript.read(path: textPath) { (audio: String) throws(InputError) -> Int64 in
            try WAVFile.read(path: folder + audio).durationNanos
        }
        // The options in the order of the usage line, as the simple typist's source has them.
        var source = "keysim trace synth --typist \(typistName) --seed \(seed)"
        if let wpm {
            // After the overrides: the slip rate changes how many taps the text takes.
            profile = HumanTypist.profile(profile, scaledToWordsPerMinute: wpm, script: script, seed: seed)
            source += " --wpm \(format(wpm))"
        }
        if let typoRate = overrides.typoRate { source += " --typo-rate \(format(typoRate))" }
        if let spread = overrides.touchSpreadPoints { source += " --touch-spread \(format(spread))" }
        if let language = overrides.language { source += " --language \(language)" }
        let typist = HumanTypist(profile: profile)
        let header = TraceHeader(name: arguments.value("name") ?? baseName(textPath), language: profile.language,
                                 intendedText: typist.intendedText(of: script), source: source)
        let writer = try out.map { (path) throws(InputError) in try TraceFileWriter(path: path, header: header) }
            ?? TraceFileWriter(sink: StandardOutputSink(), header: header)
        for event in typist.synthesize(script, seed: seed) { try writer.write(event) }
        try writer.commit()
        if let out {
            print("\(out): \(count(writer.eventCount, "event")), \(count(TextCounts.words(script.intendedText), "word")), \(seconds(writer.lastTime?.nanoseconds ?? 0)) s")
        }
        return 0
    }

    /// `--typo-rate`, `--touch-spread` and `--language`, each `nil` when not given: the
    /// simple typist's options, or what they replace in a human typist's profile.
    static func typistOverrides(_ arguments: ParsedArguments,
                                command: String) throws(UsageError) -> (typoRate: Double?, touchSpreadPoints: Double?, language: String?) {
        let typoRate = try number(arguments, "typo-rate", in: TypistModel.typoRateRange, command: command)
        let spread = try number(arguments, "touch-spread", in: TypistModel.touchSpreadRange, command: command)
        let language = arguments.value("language")
        if let language, !TypistModel.isLanguageTag(language) {
            throw UsageError(command: command, message: "--language must be a BCP 47 tag such as en or pt-BR, not '\(language)'")
        }
        return (typoRate, spread, language)
    }

    /// `--out`, which must name a trace file.
    static func outputPath(_ arguments: ParsedArguments, command: String) throws(UsageError) -> String? {
        let out = arguments.value("out")
        if let out, !(out.hasSuffix(".jsonl") || out.hasSuffix(".jsonl.zst")) {
            throw UsageError(command: command, message: "--out must name a .jsonl or .jsonl.zst file, not '\(out)'")
        }
        return out
    }

    /// A preset by name, or a profile file.
    static func typistProfile(_ name: String) throws -> TypistProfile {
        if let preset = TypistProfile.preset(named: name) { return preset }
        guard name.contains(".") || name.contains("/") else {
            throw UsageError(command: "trace synth", message: "--typist '\(name)' is neither a preset (\(TypistProfile.presetNames.joined(separator: ", "))) nor a profile file (typist.json5)")
        }
        return try TypistProfile.read(path: name)
    }

    /// A file's name without its folder and its last extension: "texts/notes.txt" → "notes".
    static func baseName(_ path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }
}
