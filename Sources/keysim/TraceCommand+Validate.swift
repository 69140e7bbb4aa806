import Scenarios

extension TraceCommand {
    static var validateSpec: CommandSpec {
        CommandSpec(
            name: "trace validate",
            abstract: "Check traces and report every problem with its line, not only the first.",
            usage: "trace validate <file>... [--max-problems N] [--no-audio]",
            arguments: [("<file>...", "Traces to check (.jsonl or .jsonl.zst).")],
            options: [
                OptionSpec(name: "max-problems", value: "N", help: "Problems to print per file (default \(TraceValidator.defaultMaxProblems)); the rest are counted."),
                OptionSpec(name: "no-audio", value: nil, help: "Do not open the WAV files that dictations refer to."),
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

    static func validate(_ arguments: ParsedArguments) throws -> Int32 {
        let command = "trace validate"
        let paths = try files(arguments, command: command, "<file>")
        let maxProblems = try arguments.integer("max-problems", in: 0...1_000_000) ?? TraceValidator.defaultMaxProblems
        var failed = false
        for path in paths {
            let result = TraceValidator.validate(path: path, maxProblems: maxProblems, checksAudio: !arguments.flag("no-audio"))
            for problem in result.problems { printError(problem.description) }
            if result.omittedCount > 0 {
                printError("\(path): note: \(count(result.omittedCount, "more problem")) not shown (--max-problems \(maxProblems))")
            }
            var summary = "\(path): "
            if result.isValid {
                summary += "valid, \(count(result.eventCount, "event"))"
                if result.measurementCount > 0 { summary += ", \(count(result.measurementCount, "measured cost"))" }
                if let lastTime = result.lastTime { summary += ", \(seconds(lastTime.nanoseconds)) s" }
                if result.warningCount > 0 { summary += ", \(count(result.warningCount, "warning"))" }
            } else {
                summary += "invalid, \(count(result.errorCount, "error"))"
                if result.warningCount > 0 { summary += ", \(count(result.warningCount, "warning"))" }
            }
            print(summary)
            failed = failed || !result.isValid
        }
        return failed ? 2 : 0
    }
}
