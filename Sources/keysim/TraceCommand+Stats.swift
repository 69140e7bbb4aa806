import Foundation
import Report
import Scenarios
import Sim

/// `keysim trace stats`: a summary of each trace, as a table or JSON.
struct TraceStatsCommand: ParsableCommand {
    var paths: [String] = []
    var json = false

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "trace stats",
            abstract: "Summarise traces: events, words, sentences, typing speed, intervals, backspaces, dictation.",
            usage: "trace stats <file>... [--json]",
            arguments: [.many("<file>...", \.paths, help: "Traces to summarise (.jsonl or .jsonl.zst).", missing: "<file>")],
            options: [
                .flag("json", \.json, help: "Print one JSON object per trace, one a line, instead of a table (schema in docs/json-output.md)."),
            ],
            discussion: """
            Words and sentences are counted in the text the trace types (keys, backspaces,
            suggestions, cursor moves, pastes, dictated transcripts). Typing speed counts net
            characters (typed less deleted) per minute of typing, five to a word; typing time
            and inter-key intervals leave out pauses over 5 s. Percentiles are nearest-rank.
            Pauses are the gaps between edits over 400 ms, 1 s and 2 s, per 100 words, and the
            longest. Errors left compare each field's text with its intended text: words by
            minimal word-level edit distance, characters by minimum string distance.
            """
        )
    }

    func run() throws -> Int32 { try TraceCommand.stats(paths, json: json) }
}

extension TraceCommand {
    static let statsPercentiles: [Double] = [10, 25, 50, 75, 90, 99]

    static func stats(_ paths: [String], json: Bool) throws -> Int32 {
        // Read everything first: a bad trace prints nothing but its error.
        var results: [(path: String, stats: TraceStatistics)] = []
        for path in paths {
            var reader = try TraceFileReader(path: path)
            var statistics = TraceStatistics(header: reader.header)
            while let line = try reader.nextLine() {
                switch line {
                case .event(let event): statistics.add(event)
                case .measurement(let measurement): statistics.add(measurement)
                }
            }
            results.append((path, statistics.finished()))
        }
        for (index, result) in results.enumerated() {
            if json {
                print(statsJSON(result.path, result.stats))
            } else {
                if index > 0 { print("") }
                print(statsTable(result.path, result.stats), terminator: "")
            }
        }
        return 0
    }

    static func statsTable(_ path: String, _ s: TraceStatistics) -> String {
        var rows: [(String, String)] = []
        let header = s.header
        var title = path
        let described = [header.name, header.language].compactMap { $0 }.joined(separator: ", ")
        title += ": \(described)"
        if let source = header.source { title += " (\(source))" }
        let byType = zip(TraceEvent.Kind.wireNames, s.countsByType).filter { $0.1 > 0 }.map { "\($0.0) \($0.1)" }
        rows.append(("events", "\(s.eventCount)" + (byType.isEmpty ? "" : " (\(byType.joined(separator: ", ")))")))
        if !s.measuredNanosByKind.isEmpty {
            let measured = s.measuredNanosByKind.map { kind, durations in
                "\(kind) \(durations.count) (median \(TraceStatistics.milliseconds(median: durations)) ms)"
            }
            rows.append(("measured", measured.joined(separator: ", ")))
        }
        rows.append(("duration", "\(seconds(s.durationNanos)) s"))
        var text = "\(count(s.words, "word")), \(count(s.sentences, "sentence")), \(count(s.characters, "character"))"
        if let intended = header.intendedText {
            text += " (intended: \(count(TextCounts.words(intended), "word")), \(count(TextCounts.sentences(intended), "sentence")))"
        }
        rows.append(("text", text))
        if let wpm = s.wordsPerMinute {
            rows.append(("typing speed", String(format: "%.1f WPM", wpm) + " (\(s.netCharacters) net characters in \(seconds(s.typingNanos)) s of typing)"))
        } else {
            rows.append(("typing speed", "-"))
        }
        let values = s.intervals.percentiles(statsPercentiles)
        if s.intervals.count > 0 {
            let list = zip(statsPercentiles, values).map { "p\(Int($0.0)) \(milliseconds($0.1!))" }.joined(separator: "  ")
            rows.append(("inter-key (ms)", list + "  (\(count(s.intervals.count, "interval")))"))
        } else {
            rows.append(("inter-key (ms)", "-"))
        }
        if let rate = s.backspaceRate {
            rows.append(("backspace rate", String(format: "%.1f%%", rate * 100) + " (\(s.backspaceTaps) of \(s.keyTaps + s.backspaceTaps) taps)"))
        } else {
            rows.append(("backspace rate", "-"))
        }
        rows.append(("fields", "\(s.fieldCount)"))
        rows.append(("pauses", pausesText(s)))
        rows.append(("errors left", errorsText(s)))
        rows.append(("dictation", "\(count(s.dictationCount, "session")), \(seconds(s.dictationNanos)) s"))
        return title + "\n" + rows.map { "  " + $0.0.padding(toLength: 16, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n") + "\n"
    }

    static func statsJSON(_ path: String, _ s: TraceStatistics) -> String {
        // The trace's own escaping (U+2028 and U+2029 as themselves), as this document always had.
        var json = JSONWriter(escapesLineSeparators: false)
        func fixed(_ value: Double?, _ digits: Int) {
            if let value { json.raw(JSONWriter.fixed(value, fractionDigits: digits)) } else { json.null() }
        }
        func milliseconds(_ nanos: Int64?) {
            if let nanos { json.milliseconds(nanoseconds: nanos) } else { json.null() }
        }
        json.beginObject()
        json.key("schema"); json.string("keysim.trace-stats")
        json.key("schemaVersion"); json.integer(JSONOutput.schemaVersion)
        json.key("file"); json.string(path)
        json.key("name"); if let name = s.header.name { json.string(name) } else { json.null() }
        json.key("language"); json.string(s.header.language)
        json.key("events"); json.integer(s.eventCount)
        json.key("eventsByType")
        json.beginObject()
        for (type, count) in zip(TraceEvent.Kind.wireNames, s.countsByType) where count > 0 {
            json.key(type); json.integer(count)
        }
        json.endObject()
        json.key("durationMs"); milliseconds(s.durationNanos)
        for (name, count) in [("words", s.words), ("sentences", s.sentences), ("characters", s.characters),
                              ("fields", s.fieldCount), ("keyTaps", s.keyTaps), ("backspaceTaps", s.backspaceTaps),
                              ("netCharacters", s.netCharacters)] {
            json.key(name); json.integer(count)
        }
        json.key("typingMs"); milliseconds(s.typingNanos)
        json.key("wordsPerMinute"); fixed(s.wordsPerMinute, 2)
        json.key("backspaceRate"); fixed(s.backspaceRate, 4)
        json.key("interKeyIntervals"); json.integer(s.intervals.count)
        for (p, value) in zip(statsPercentiles, s.intervals.percentiles(statsPercentiles)) {
            json.key("interKeyP\(Int(p))Ms"); milliseconds(value)
        }
        let gaps = s.gapsPer100Words
        for (index, name) in ["400ms", "1s", "2s"].enumerated() {
            json.key("gapsOver\(name)"); json.integer(s.gapCounts[index])
            json.key("gapsOver\(name)Per100Words"); fixed(gaps?[index], 2)
        }
        json.key("longestGapMs"); milliseconds(s.longestGapNanos)
        json.key("wordErrorsLeft"); json.integer(s.wordErrorsLeft)
        json.key("intendedWordsCompared"); json.integer(s.intendedWordsCompared)
        json.key("wordErrorRate"); fixed(s.wordErrorRate, 4)
        json.key("characterErrorRate"); fixed(s.characterErrorRate, 4)
        json.key("dictations"); json.integer(s.dictationCount)
        json.key("dictationMs"); milliseconds(s.dictationNanos)
        // Measured costs by kind (how many, and their median), for traces that have them.
        if !s.measuredNanosByKind.isEmpty {
            json.key("measured")
            json.beginObject()
            for (kind, durations) in s.measuredNanosByKind {
                json.key(kind)
                json.beginObject()
                json.key("count"); json.integer(durations.count)
                json.key("medianMs"); json.raw(TraceStatistics.milliseconds(median: durations))
                json.endObject()
            }
            json.endObject()
        }
        json.endObject()
        return json.text
    }

    /// "12.5 / 4.1 / 1.2 per 100 words over 400 ms / 1 s / 2 s (30, 10, 3), longest 8.2 s".
    static func pausesText(_ s: TraceStatistics) -> String {
        guard let rates = s.gapsPer100Words else { return "-" }
        return rates.map { String(format: "%.1f", $0) }.joined(separator: " / ")
            + " per 100 words over 400 ms / 1 s / 2 s (\(s.gapCounts.map(String.init).joined(separator: ", "))), longest \(seconds(s.longestGapNanos)) s"
    }

    /// "3 words (1.2% of 250 intended), characters 0.8%", or "-" without an intended text.
    static func errorsText(_ s: TraceStatistics) -> String {
        guard let wordRate = s.wordErrorRate else { return "- (no intended text)" }
        var text = "\(count(s.wordErrorsLeft, "word")) (" + String(format: "%.1f%%", wordRate * 100)
            + " of \(s.intendedWordsCompared) intended)"
        if let characterRate = s.characterErrorRate { text += ", characters " + String(format: "%.2f%%", characterRate * 100) }
        return text
    }

    /// A JSON string literal as trace lines escape it.
    static func jsonString(_ text: String) -> String { TraceLineEncoder.jsonString(text) }
}
