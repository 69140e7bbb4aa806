import Foundation
import Report
import Scenarios
import Sim

/// `keysim gate`: a paired comparison of a baseline and a candidate, judged by rules and
/// budgets, with an exit code and the files a CI job publishes.
struct GateCommand: PairedCommand {
    var files: [String] = []
    var policies: [String] = []
    var overrides: [ScenarioLoader.Override] = []
    var job = JobOptions()
    var ruleFiles: [String] = []
    var junit: String?
    var summary: String?
    /// A gate has two sides, the baseline first.
    static let maximumSides: Int? = 2
    var baseline: String? { nil }

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "gate",
            abstract: "Fail a candidate that breaks a rule or budget the baseline keeps: exit 1 with each failed check.",
            usage: "gate <baseline.json5> <candidate.json5> | gate <scenario> --policy BASELINE --policy CANDIDATE [--rules FILE]... [--junit FILE] [--summary FILE] [--json] [--seed N] [--replications N|auto] [--jobs N] [--db FILE] [--set PATH=VALUE]...",
            arguments: [filesArgument(help: "Two scenario files (baseline, candidate), or one scenario with --policy twice.")],
            options: [policyOption(), JobOptions.seed()] + JobOptions.replicationOptions() + [
                JobOptions.jobs(),
                JobOptions.db(),
                setOption,
                .repeating("rules", \.ruleFiles, value: "FILE", help: "A JSON5 file with a 'gates' array of rules, added to the baseline scenario's.", .file),
                .option("junit", \.junit, value: "FILE", help: "Write JUnit XML: one test case per rule and budget.", .file),
                .option("summary", \.summary, value: "FILE", help: "Append a Markdown summary (for $GITHUB_STEP_SUMMARY).", .file),
                JobOptions.json(),
            ],
            discussion: """
            Side A is the baseline, side B the candidate; both run with common random numbers as in
            keysim compare. The rules are the baseline scenario's 'gates' section plus every --rules
            file: { metric, max } or { metric, min } bounds the candidate's mean (a max on a
            percentile such as key_latency_p99_ms bounds its upper bound at the confidence); { metric,
            maxRegression: 0.5 } or maxRegression: "5%" fails when the whole interval (confidence,
            default 0.95) of how much worse the candidate is lies above the bound. Every latency
            budget of the candidate is checked too: it fails when the candidate breaks it and the
            baseline keeps it. Exit codes: 0 every check holds, 1 a check failed (each is named with
            its figures), 2 bad input. There is no --shard: the verdict needs every pair. See
            docs/ci.md.
            """
        )
    }

    private var replicationChoice = JobOptions.ReplicationChoice.fixed(nil)

    mutating func validate() throws {
        try checkPlan()
        replicationChoice = try job.replicationChoice(command: Self.configuration.name)
    }

    func run() throws -> Int32 {
        let started = Date()
        let plan = try plan()
        // No --shard: the verdict needs every pair, so the report is the whole job's.
        let report = job.report(shard: .whole)
        var rules = plan.sides[0].scenario.gates
        for file in ruleFiles { rules += try GateRuleFile.load(path: file) }
        try Gate.validate(rules)
        for path in [junit, summary].compactMap({ $0 }) { try JobReport.checkFolder(of: path) }

        var gated: [String] = []
        for rule in rules where !gated.contains(rule.metric) { gated.append(rule.metric) }
        let resolved = try JobOptions.resolve(replicationChoice, batches: plan.batches, seed: plan.seed,
                                              scenarioDefault: plan.sides[0].scenario.replications, paired: true,
                                              metrics: gated.isEmpty ? nil : gated, threads: job.threads, label: "keysim gate")
        let pairedJob = try plan.job(command: "gate", replications: resolved.replications)
        let outcome = try job.run(pairedJob, command: "gate", shard: .whole, report: report)
        let comparison = try report.comparison(jobID: outcome.jobID)
        guard let baseline = outcome.summaries[0], let candidate = outcome.summaries[1] else {
            throw ReportError(file: report.path, message: "the gate's batches were not run")
        }
        let candidateRuns = try Gate.candidateRuns(report.open().database, jobID: outcome.jobID, metrics: gated)
        let gate = try Gate(comparison: comparison, rules: rules, baseline: baseline, candidate: candidate, candidateRuns: candidateRuns)

        if let junit {
            try AtomicFileWriter.write(gate.junit(seed: plan.seed, replications: resolved.replications, run: JUnitRun(startedAt: started)), to: junit)
        }
        if let summary {
            try Self.append(gate.markdown(seed: plan.seed, replications: resolved.replications, comparison: comparison), to: summary)
        }
        if job.json {
            let members = plan.document(comparison: comparison, replications: resolved, traces: pairedJob.traceCount,
                                        reportPath: report.path)
            print(JSONOutput.document("gate", [("passed", .bool(gate.passed)), ("failures", .integer(gate.failures.count))]
                + members.filter { $0.0 != "metrics" && $0.0 != "confidence" } + [("checks", JSONOutput.gateChecks(gate))]
                + [("notes", .array(gate.notes.map { .string($0) }))]
                + members.filter { $0.0 == "metrics" }).rendered(), terminator: "")
        } else {
            print(plan.header("gate", replications: resolved.replications, traces: pairedJob.traceCount))
            if let line = resolved.line { print(line) }
            print("\(comparison.pairs) pairs of runs; baseline \(gate.baseline) (A), candidate \(gate.candidate) (B)")
            print("")
            print(comparison.table(), terminator: "")
            print("")
            print(gate.summary(), terminator: "")
            print("report: \(report.path)")
        }
        for failure in gate.failures {
            printError("keysim gate: failed: \(failure.name): \(failure.detail)")
        }
        return gate.passed ? 0 : 1
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
