import Foundation
import Scenarios
import Sim

/// `keysim trace fit`: a typist profile fitted to recorded traces, with how well it
/// reproduces them.
struct TraceFitCommand: ParsableCommand {
    var paths: [String] = []
    var out: String?
    var name: String?
    var factor = 10
    var seed: UInt64 = 1

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "trace fit",
            abstract: "Fit a typist profile to recorded traces, and report how well it reproduces them.",
            usage: "trace fit <trace>... --out FILE [--name NAME] [--factor N] [--seed S]",
            arguments: [.many("<trace>...", \.paths, help: "Recorded traces (.jsonl or .jsonl.zst) of one typist.", missing: "<trace>")],
            options: [
                .option("out", \.out, value: "FILE", help: "The profile to write (typist.json5), for 'keysim trace synth --typist FILE'.",
                        .file(endingIn: [".json5", ".json"], "a .json5 file")),
                .option("name", \.name, value: "NAME", help: "The profile's name (default: the output file's name).", .string),
                .option("factor", \.factor, value: "N", help: "How many times the recorded texts the quality check resynthesises, 1 to 100 (default 10).",
                        .integer(in: 1...100)),
                .option("seed", \.seed, value: "S", help: "Seed of the resynthesis (default 1).", .traceSeed),
            ],
            discussion: """
            Measures the intervals by context (within a word, after punctuation, at word, phrase,
            sentence and message starts, after a backspace, at a correction, before a picked
            suggestion), the pauses (share per context over the threshold, log-logistic
            lengths), slips and their corrections, picked suggestions, message sending, gaps
            and hides, and the touch spread; see "Fitting a typist" in docs/trace-format.md.
            Then it resynthesises the recorded texts with the profile and prints both sides:
            speed, pauses per 100 words, errors left, backspaces, and the two-sample
            Kolmogorov-Smirnov distance of the interval distributions. Share the profile
            instead of the keystrokes: it holds no text.
            """
        )
    }

    mutating func validate() throws {
        guard out != nil else { throw Self.usage("missing --out <FILE> (the profile to write, typist.json5)") }
    }

    func run() throws -> Int32 {
        try TraceCommand.fit(paths, out: out!, name: name, factor: factor, seed: seed)
    }
}

extension TraceCommand {
    static func fit(_ paths: [String], out: String, name: String?, factor: Int, seed: UInt64) throws -> Int32 {
        var fitter = TypistFitter()
        for path in paths {
            var reader = try TraceFileReader(path: path)
            fitter.begin(reader.header)
            while let event = try reader.nextEvent() { fitter.add(event) }
        }
        let fit = fitter.fit(name: name ?? baseName(out))
        var profile = fit.profile
        profile.source = "keysim trace fit " + paths.map(TraceCommand.fileName).joined(separator: " ")
        let quality = TypistFitQuality.evaluate(fitter, profile: profile, factor: factor, seed: seed)
        try AtomicFileWriter.write(profile.json5Text, to: out)

        print("\(out): typist '\(profile.name)' fitted to \(count(paths.count, "trace")), \(count(quality.recording.words, "word"))")
        for note in fit.notes { printError("\(out): note: \(note)") }
        print(fitReport(quality))
        return 0
    }

    /// The quality table: recording beside resynthesis, then whether the two can be told apart.
    static func fitReport(_ q: TypistFitQuality) -> String {
        ([compareTable(("recording", q.recording), ("resynthesis ×\(q.factor)", q.resynthesis),
                       withinWord: q.withinWordDistance, all: q.allIntervalsDistance)] + q.fidelity.lines).joined(separator: "\n")
    }

    /// Two sets of figures side by side, with the KS distances.
    static func compareTable(_ a: (String, TypistFitQuality.Figures), _ b: (String, TypistFitQuality.Figures),
                             withinWord: Double?, all: Double?) -> String {
        func value(_ x: Double?, _ decimals: Int, scale: Double = 1, unit: String = "") -> String {
            x.map { NumberText.fixed($0 * scale, decimals) + unit } ?? "-"
        }
        var rows: [(String, String, String)] = [("", a.0, b.0)]
        rows.append(("words", "\(a.1.words)", "\(b.1.words)"))
        rows.append(("typing speed (WPM)", value(a.1.wordsPerMinute, 1), value(b.1.wordsPerMinute, 1)))
        for (index, name) in ["gaps > 400 ms / 100 words", "gaps > 1 s / 100 words", "gaps > 2 s / 100 words"].enumerated() {
            rows.append((name, value(a.1.gapsPer100Words?[index], 2), value(b.1.gapsPer100Words?[index], 2)))
        }
        rows.append(("characters left wrong", value(a.1.characterErrorRate, 2, scale: 100, unit: "%"), value(b.1.characterErrorRate, 2, scale: 100, unit: "%")))
        rows.append(("words left wrong", value(a.1.wordErrorRate, 2, scale: 100, unit: "%"), value(b.1.wordErrorRate, 2, scale: 100, unit: "%")))
        rows.append(("backspace rate", value(a.1.backspaceRate, 2, scale: 100, unit: "%"), value(b.1.backspaceRate, 2, scale: 100, unit: "%")))
        let width0 = rows.map(\.0.count).max()!, width1 = rows.map(\.1.count).max()!
        var lines = rows.map { row in
            "  " + row.0.padding(toLength: width0, withPad: " ", startingAt: 0) + "  "
                + String(repeating: " ", count: width1 - row.1.count) + row.1 + "  " + row.2
        }
        lines.append("  KS distance, within-word intervals: \(value(withinWord, 4))")
        lines.append("  KS distance, all intervals within messages: \(value(all, 4))")
        return lines.joined(separator: "\n")
    }

    /// The file name without its folder.
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
