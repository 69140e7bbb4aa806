import Foundation

extension TypistProfile {
    /// Reads a typist profile file (JSON5, the format `keysim trace fit` writes and
    /// `docs/trace-format.md` documents). A file may start from a preset (`preset: "chat"`)
    /// and give only the fields it changes.
    /// - Throws: `ConfigError` with the file, line, column and field of the first problem.
    public static func read(path: String) throws(ConfigError) -> TypistProfile {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read the file (not UTF-8?)" : "no such file"
            throw ConfigError(file: path, line: 0, column: 0, path: "", message: reason)
        }
        return try parse(text, path: path)
    }

    /// Parses the text of a profile file; `path` locates errors.
    public static func parse(_ text: String, path: String) throws(ConfigError) -> TypistProfile {
        var root: ConfigValue
        do {
            root = try JSON5Parser.parse(text)
        } catch {
            throw ConfigError(file: path, line: error.line, column: error.column, path: "", message: error.message)
        }
        if let presetValue = root["preset"] {
            let field = ConfigField(value: presetValue, path: "preset", file: path)
            let name = try field.oneOf(presetNames)
            // The preset's own text always parses: it is written by `json5Text`.
            let base = try! JSON5Parser.parse(preset(named: name)!.json5Text)
            root = base.merging(root)
        }
        var top = try ConfigReader(root, path: "", file: path)
        top.allow("preset", "keysim")
        let name = try top.required("name") { f throws(ConfigError) in try f.string() }
        let source = try top.optional("source") { f throws(ConfigError) in try f.string() } ?? ""
        let language = try top.optional("language") { (field) throws(ConfigError) -> String in
            let tag = try field.string()
            guard TraceLineDecoder.isLanguageTag(tag) else { throw field.error("'\(tag)' is not a BCP 47 language tag such as en or pt-BR") }
            return tag
        } ?? "en"
        let spread = try top.optional("touchSpreadPoints") { f throws(ConfigError) in try f.number(in: TypistModel.touchSpreadRange) } ?? 6
        let contexts = try top.required("contexts") { (field) throws(ConfigError) -> [ContextTiming] in
            var reader = try field.object()
            var timings: [ContextTiming] = []
            for context in Context.allCases {
                timings.append(try reader.required(context.rawValue) { (field) throws(ConfigError) -> ContextTiming in
                    var timing = try field.object()
                    let interval = try readInterval(&timing)
                    let pause = try timing.required("pauseProbability") { f throws(ConfigError) in try f.number(in: 0...0.9) }
                    let hesitation = try timing.optional("hesitation", hesitationObject)
                    try timing.finish()
                    return ContextTiming(interval: interval, pauseProbability: pause, hesitation: hesitation)
                })
            }
            try reader.finish()
            return timings
        }
        let rhythm = try top.optional("rhythm") { f throws(ConfigError) in try TypistRhythm.read(f) }
        let pauses = try top.required("pauses") { (field) throws(ConfigError) -> Pauses in
            var reader = try field.object()
            let threshold = try reader.required("thresholdMs") { f throws(ConfigError) in try f.number(in: 100...60_000) }
            let excess = try reader.required("excessMedianMs") { f throws(ConfigError) in try f.number(in: 1...600_000) }
            let shape = try reader.required("shape") { f throws(ConfigError) in try f.number(in: 0.5...20) }
            let max = try reader.required("maxMs") { f throws(ConfigError) in try f.number(in: 100...3_600_000) }
            guard max > threshold else { throw reader.error("maxMs", "must be greater than thresholdMs (\(ConfigField.format(threshold)))") }
            try reader.finish()
            return Pauses(thresholdMs: threshold, excessMedianMs: excess, shape: shape, maxMs: max)
        }
        let errors = try top.required("errors") { (field) throws(ConfigError) -> Errors in
            var reader = try field.object()
            let slip = try reader.required("slipRate") { f throws(ConfigError) in try f.number(in: TypistModel.typoRateRange) }
            let inWord = try reader.required("noticedInWordShare") { f throws(ConfigError) in try f.probability() }
            let afterWord = try reader.required("noticedAfterWordShare") { f throws(ConfigError) in try f.probability() }
            guard inWord + afterWord <= 1 + 1e-9 else {
                throw reader.error("noticedAfterWordShare", "noticedInWordShare and noticedAfterWordShare add up to more than 1")
            }
            let cursor = try reader.required("cursorFixShare") { f throws(ConfigError) in try f.probability() }
            try reader.finish()
            return Errors(slipRate: slip, noticedInWordShare: inWord, noticedAfterWordShare: afterWord, cursorFixShare: cursor)
        }
        let messages = try top.required("messages") { (field) throws(ConfigError) -> Messages in
            var reader = try field.object()
            let perLine = try reader.required("perLine") { f throws(ConfigError) in try f.bool() }
            let send = try reader.required("sendDelay", intervalObject)
            let gap = try reader.required("gap", intervalObject)
            let hide = try reader.required("hideProbability") { f throws(ConfigError) in try f.probability() }
            try reader.finish()
            return Messages(perLine: perLine, sendDelay: send, gap: gap, hideProbability: hide)
        }
        let suggestions = try top.required("suggestions") { (field) throws(ConfigError) -> Suggestions in
            var reader = try field.object()
            let rate = try reader.required("pickRate") { f throws(ConfigError) in try f.probability() }
            let length = try reader.required("minimumLength") { f throws(ConfigError) in try f.integer(in: 2...40) }
            try reader.finish()
            return Suggestions(pickRate: rate, minimumLength: length)
        }
        try top.finish()
        return TypistProfile(name: name, source: source, contexts: contexts, pauses: pauses, errors: errors,
                             messages: messages, suggestions: suggestions, touchSpreadPoints: spread, language: language,
                             rhythm: rhythm)
    }

    /// A context's `hesitation`: its share of the typing intervals, median and σ.
    private static func hesitationObject(_ field: ConfigField) throws(ConfigError) -> Hesitation {
        var reader = try field.object()
        let share = try reader.required("share") { f throws(ConfigError) in try f.number(in: 0...0.5) }
        let median = try reader.required("medianMs") { f throws(ConfigError) in try f.number(in: 1...600_000) }
        let sigma = try reader.required("sigma") { f throws(ConfigError) in try f.number(in: 0.01...3) }
        try reader.finish()
        return Hesitation(share: share, medianMs: median, sigma: sigma)
    }

    /// An object that is an interval and nothing else.
    private static func intervalObject(_ field: ConfigField) throws(ConfigError) -> Interval {
        var reader = try field.object()
        let value = try readInterval(&reader)
        try reader.finish()
        return value
    }

    private static func readInterval(_ reader: inout ConfigReader) throws(ConfigError) -> Interval {
        let median = try reader.required("medianMs") { f throws(ConfigError) in try f.number(in: 1...600_000) }
        let sigma = try reader.required("sigma") { f throws(ConfigError) in try f.number(in: 0...3) }
        return Interval(medianMs: median, sigma: sigma)
    }

    /// The profile as a JSON5 file, every field written, with a comment per section.
    public var json5Text: String {
        func number(_ x: Double) -> String {
            let rounded = (x * 10_000).rounded() / 10_000
            return ConfigField.format(rounded)
        }
        func interval(_ i: Interval) -> String { "medianMs: \(number(i.medianMs)), sigma: \(number(i.sigma))" }
        var lines = ["// keysim typist profile: see \"Typist profiles\" in docs/trace-format.md.", "{"]
        lines.append("  name: \(TraceLineEncoder.jsonString(name)),")
        lines.append("  source: \(TraceLineEncoder.jsonString(source)),")
        lines.append("  language: \(TraceLineEncoder.jsonString(language)),")
        lines.append("  touchSpreadPoints: \(number(touchSpreadPoints)),")
        lines.append("  // The interval before a tap, by context: lognormal (median, σ of the log) cut at")
        lines.append("  // pauses.thresholdMs, or a pause with probability pauseProbability.")
        if contexts.contains(where: { $0.hesitation != nil }) {
            lines.append("  // With a hesitation, that share of the typing intervals comes from a second, slower lognormal.")
        }
        lines.append("  contexts: {")
        for (context, timing) in zip(Context.allCases, contexts) {
            let hesitation = timing.hesitation.map {
                ", hesitation: { share: \(number($0.share)), medianMs: \(number($0.medianMs)), sigma: \(number($0.sigma)) }"
            } ?? ""
            lines.append("    \(context.rawValue): { \(interval(timing.interval)), pauseProbability: \(number(timing.pauseProbability))\(hesitation) },")
        }
        lines.append("  },")
        if let rhythm { lines += rhythm.json5Lines(number) }
        lines.append("  // A pause: thresholdMs plus a log-logistic excess (median excessMedianMs, shape), at most maxMs.")
        lines.append("  pauses: { thresholdMs: \(number(pauses.thresholdMs)), excessMedianMs: \(number(pauses.excessMedianMs)), shape: \(number(pauses.shape)), maxMs: \(number(pauses.maxMs)) },")
        lines.append("  // Slips per letter; the shares noticed within and after the word; the rest stay in the text.")
        lines.append("  errors: { slipRate: \(number(errors.slipRate)), noticedInWordShare: \(number(errors.noticedInWordShare)), noticedAfterWordShare: \(number(errors.noticedAfterWordShare)), cursorFixShare: \(number(errors.cursorFixShare)) },")
        lines.append("  messages: {")
        lines.append("    perLine: \(messages.perLine),")
        lines.append("    sendDelay: { \(interval(messages.sendDelay)) },")
        lines.append("    gap: { \(interval(messages.gap)) },")
        lines.append("    hideProbability: \(number(messages.hideProbability)),")
        lines.append("  },")
        lines.append("  suggestions: { pickRate: \(number(suggestions.pickRate)), minimumLength: \(suggestions.minimumLength) },")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
