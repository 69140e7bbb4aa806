import Scenarios

/// `keysim trace validate`: every problem of traces, with its line.
struct TraceValidateCommand: TraceSubcommand {
    var paths: [String] = []
    var maxProblems = TraceValidator.defaultMaxProblems
    var noAudio = false

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "trace validate",
            abstract: "Check traces and report every problem with its line, not only the first.",
            usage: "trace validate <file>... [--max-problems N] [--no-audio]",
            arguments: [.many("<file>...", \.paths, help: "Traces to check (.jsonl or .jsonl.zst).", missing: "<file>")],
            options: [
                .option("max-problems", \.maxProblems, value: "N",
                        help: "Problems to print per file (default \(TraceValidator.defaultMaxProblems)); the rest are counted.",
                        .integer(in: 0...1_000_000)),
                .flag("no-audio", \.noAudio, help: "Do not open the WAV files that dictations refer to."),
            ],
            discussion: """
            Problems go to standard error as 'file:line:column: error: message', one per line;
            a summary line per file goes to standard output. Besides the format itself, the
            check follows dictations (a dictation.stop needs a dictation.start before it) and
            opens the WAV files they refer to. Exit code 2 when any file has an error;
            warnings alone leave it 0.
            """
        )
    }

    func run() throws -> Int32 {
        var failed = false
        for path in paths {
            let result = TraceValidator.validate(path: path, maxProblems: maxProblems, checksAudio: !noAudio)
            for problem in result.problems { printError(problem.description) }
            if result.omittedCount > 0 {
                printError("\(path): note: \(Self.count(result.omittedCount, "more problem")) not shown (--max-problems \(maxProblems))")
            }
            var summary = "\(path): "
            if result.isValid {
                summary += "valid, \(Self.count(result.eventCount, "event"))"
                if result.measurementCount > 0 { summary += ", \(Self.count(result.measurementCount, "measured cost"))" }
                if let lastTime = result.lastTime { summary += ", \(Self.seconds(lastTime.nanoseconds)) s" }
                if result.warningCount > 0 { summary += ", \(Self.count(result.warningCount, "warning"))" }
            } else {
                summary += "invalid, \(Self.count(result.errorCount, "error"))"
                if result.warningCount > 0 { summary += ", \(Self.count(result.warningCount, "warning"))" }
            }
            print(summary)
            failed = failed || !result.isValid
        }
        return failed ? 2 : 0
    }
}
