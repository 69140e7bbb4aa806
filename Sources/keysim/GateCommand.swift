import Foundation
import Report
import Scenarios
import Sim

/// `keysim gate`: a paired comparison of a baseline and a candidate, judged by rules and
/// budgets, with an exit code and the files a CI job publishes.
enum GateCommand {
    static let spec = CommandSpec(
        name: "gate",
        abstract: "Fail a candidate that breaks a rule or budget the baseline keeps: exit 1 with each failed check.",
        usage: "gate <baseline.json5> <candidate.json5> | gate <scenario> --policy BASELINE --policy CANDIDATE [--rules FILE]... [--junit FILE] [--summary FILE] [--json] [--seed N] [--replications N|auto] [--jobs N] [--db FILE] [--set PATH=VALUE]...",
        arguments: [("<scenario>...", "Two scenario files (baseline, candidate), or one scenario with --policy twice.")],
        options: PairedJob.options + ReplicationOptions.all + [
            JobOptions.jobs,
            JobOptions.db(RunCommand.defaultReport),
            OptionSpec(name: "set", value: "PATH=VALUE", help: "Override a field of both sides, e.g. network.roundTrip=80.", repeatable: true),
            OptionSpec(name: "rules", value: "FILE", help: "A JSON5 file with a 'gates' array of rules, added to the baseline scenario's.", repeatable: true),
            OptionSpec(name: "junit", value: "FILE", help: "Write JUnit XML: one test case per rule and budget."),
            OptionSpec(name: "summary", value: "FILE", help: "Append a Markdown summary (for $GITHUB_STEP_SUMMARY)."),
            JobOptions.json,
        ],
        discussion: """
        Side A is the baseline, side B the candidate; both run with common random numbers as in
        keysim compare. The rules are the baseline scenario's 'gates' section plus every --rules
        file: { metric, max } or { metric, min } bounds the candidate's mean; { metric,
        maxRegression: 0.5 } or maxRegression: "5%" fails when the whole interval (confidence,
        default 0.95) of how much worse the candidate is lies above the bound. Every latency
        budget of the candidate is checked too: it fails when the candidate breaks it and the
        baseline keeps it. Exit codes: 0 every check holds, 1 a check failed (each is named with
        its figures), 2 bad input. There is no --shard: the verdict needs every pair. See
        docs/ci.md.
        """
    )

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let started = Date()
        let paired = try PairedJob(arguments)
        let choice = try ReplicationOptions.parse(arguments)
        let threads = try JobOptions.threads(arguments)
        let reportPath = arguments.value("db") ?? RunCommand.defaultReport
        var rules = paired.sides[0].scenario.gates
        for file in arguments.all("rules") { rules += try GateRuleFile.load(path: file) }
        try Gate.validate(rules)
        for name in ["junit", "summary"] {
            if let path = arguments.value(name) { try checkWritable(path) }
        }
        let json = arguments.flag("json")

        var gated: [String] = []
        for rule in rules where !gated.contains(rule.metric) { gated.append(rule.metric) }
        let resolved = try ReplicationOptions.resolve(choice, batches: paired.batches, seed: paired.seed,
                                                      scenarioDefault: paired.sides[0].scenario.replications, paired: true,
                                                      metrics: gated.isEmpty ? nil : gated, threads: threads, label: "keysim gate")
        let (job, outcome) = try paired.run(command: "gate", replications: resolved.replications, shard: .whole,
                                            threads: threads, reportPath: reportPath)
        let comparison = try PairedJob.comparison(reportPath: reportPath, jobID: outcome.jobID)
        guard let baseline = outcome.summaries[0], let candidate = outcome.summaries[1] else {
            throw ReportError(file: reportPath, message: "the gate's batches were not run")
        }
        let gate = try Gate(comparison: comparison, rules: rules, baseline: baseline, candidate: candidate)

        if let path = arguments.value("junit") {
            try AtomicFileWriter.write(gate.junit(seed: paired.seed, replications: resolved.replications, run: JUnitRun(startedAt: started)), to: path)
        }
        if let path = arguments.value("summary") {
            try append(gate.markdown(seed: paired.seed, replications: resolved.replications, comparison: comparison), to: path)
        }
        if json {
            let members = CompareCommand.document(paired, comparison: comparison, replications: resolved.replications,
                                                  traces: job.traceCount, reportPath: reportPath, search: resolved)
            print(JSONOutput.document("gate", [("passed", .bool(gate.passed)), ("failures", .integer(gate.failures.count))]
                + members.filter { $0.0 != "metrics" && $0.0 != "confidence" } + [("checks", JSONOutput.gateChecks(gate))]
                + members.filter { $0.0 == "metrics" }).rendered(), terminator: "")
        } else {
            print(paired.header("gate", replications: resolved.replications, traces: job.traceCount))
            if let search = resolved.search, let plan = resolved.plan { print(ReplicationOptions.line(search, plan: plan)) }
            print("\(comparison.pairs) pairs of runs; baseline \(gate.baseline) (A), candidate \(gate.candidate) (B)")
            print("")
            print(comparison.table(), terminator: "")
            print("")
            print(gate.summary(), terminator: "")
            print("report: \(reportPath)")
        }
        for failure in gate.failures {
            printError("keysim gate: failed: \(failure.name): \(failure.detail)")
        }
        return gate.passed ? 0 : 1
    }

    /// Fails before any work when an output file's folder is missing.
    static func checkWritable(_ path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            throw ReportError(file: path, message: "no such folder: \(folder)")
        }
    }

    /// Appends `text` to `path` (created if missing) in one write, as CI summary files expect.
    static func append(_ text: String, to path: String) throws {
        guard let handle = FileHandle(forWritingAtPath: path) else {
            try AtomicFileWriter.write(text, to: path)
            return
        }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            throw ReportError(file: path, message: "cannot append the summary (\(error.localizedDescription))")
        }
    }
}
