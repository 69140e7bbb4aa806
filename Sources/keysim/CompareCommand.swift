import Foundation
import Report
import Scenarios
import Sim

/// `keysim compare`: two or more policies on the same work items with the same random
/// numbers, and the paired difference of every metric to the baseline with its confidence
/// interval (corrected for the number of comparisons when there are several).
struct CompareCommand: PairedCommand {
    var files: [String] = []
    var policies: [String] = []
    var overrides: [ScenarioLoader.Override] = []
    var job = JobOptions()
    var detect: PrecisionTarget?
    var baseline: String?
    var objectiveNames: [String] = []
    /// Any number of sides.
    static let maximumSides: Int? = nil

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "compare",
            abstract: "Compare policies with common random numbers: paired differences to a baseline with 95% intervals.",
            usage: "compare <scenario> --policy A --policy B [--policy C]... | compare <a.json5> <b.json5> [<c.json5>]... [--baseline NAME] [--objective METRIC]... [--seed N] [--replications N|auto] [--jobs N] [--db FILE] [--set PATH=VALUE]... [--detail LEVEL] [--detect D] [--json] [--shard K/N]",
            arguments: [filesArgument(help: "One scenario with --policy twice or more, or two or more scenario files to compare.")],
            options: [policyOption(help: "A policy defined in the scenario's 'policies'; give it twice or more (A, B, …)."),
                      .option("baseline", \.baseline, value: "NAME",
                              help: "The policy (or scenario) every other is compared with; default the first.", .policy),
                      .repeating("objective", \.objectiveNames, value: "METRIC",
                                 help: "A metric a policy must be beaten on to drop out of 'not beaten' (default: requests, verdict delay, coverage).",
                                 .choice(RunMetric.all.map(\.name)) { text, name in "--\(name): unknown metric '\(text)'" }),
                      JobOptions.seed()] + JobOptions.replicationOptions() + [
                JobOptions.jobs(),
                JobOptions.db(),
                setOption,
                JobOptions.detail(),
                .option("detect", \.detect, value: "D",
                        help: "Also say how many pairs would detect a difference of D (5% of A's mean, or 0.5ms) with 80% power.", .precision),
                JobOptions.json(),
                JobOptions.shard(),
            ],
            discussion: """
            Every side runs every replication of every trace with the same seed, so each run of A
            has a twin in B that saw the same trace and, wherever the policies do not change what
            is drawn, the same random numbers (common random numbers). For each metric the table
            shows the mean under A and B, the mean of the paired differences B − A with its 95%
            Student-t interval, and whether the interval excludes zero. With two files, the seed
            and replications are the first file's unless given. The comparison is stored in the
            report (tables comparisons and comparison_metrics). With --replications auto, rounds
            of replications are added until every metric's paired difference has a 95% half-width
            within --precision (relative to A's mean), up to --max-replications. With three or more
            sides, one table shows every metric under each, the difference of each to the baseline
            (the first, or --baseline) with Bonferroni intervals (each at 1 - 0.05/m for m
            comparisons) and a * where Holm's step-down finds it significant (family-wise 5%), and
            the sides no other beats on the --objective metrics (docs/report-schema.md, Comparisons).
            """
        )
    }

    private var replicationChoice = JobOptions.ReplicationChoice.fixed(nil)
    private var shard = Shard.whole

    mutating func validate() throws {
        try checkPlan()
        if detect != nil && files.count + policies.count > 3 {
            throw Self.usage("--detect needs two sides")
        }
        replicationChoice = try job.replicationChoice(command: Self.configuration.name)
        shard = try job.resolvedShard(command: Self.configuration.name)
    }

    func run() throws -> Int32 {
        let plan = try plan()
        let report = job.report(shard: shard)
        let resolved = try JobOptions.resolve(replicationChoice, batches: plan.batches, seed: plan.seed,
                                              scenarioDefault: plan.sides[0].scenario.replications, paired: true,
                                              metrics: nil, threads: job.threads, label: "keysim compare")
        let pairedJob = try plan.job(command: "compare", replications: resolved.replications)
        let outcome = try job.run(pairedJob, command: "compare", shard: shard, report: report)
        let header = plan.header("compare", replications: resolved.replications, traces: pairedJob.traceCount)
        if !shard.isWhole {
            guard !job.json else {
                print(JSONOutput.document("compare", [("report", .string(report.path)), ("shard", .string("\(shard)")),
                                                      ("itemsRun", .integer(outcome.itemsRun))],
                                          version: JSONOutput.compareSchemaVersion).rendered(), terminator: "")
                return 0
            }
            print(header)
            print("shard \(shard): \(outcome.itemsRun) of \(pairedJob.itemCount) work items; combine the shards with keysim merge to see the comparison")
            print("report: \(report.path)")
            return 0
        }
        let objectives = objectiveNames.isEmpty ? PolicyComparison.defaultObjectives : objectiveNames.compactMap(RunMetric.named)
        let policies = try PolicyComparison.load(report.open().database, jobID: outcome.jobID, objectives: objectives, file: report.path)
        if job.json {
            var members = plan.document(policies, replications: resolved, traces: pairedJob.traceCount, reportPath: report.path)
            if let detect { members.append(("detect", JSONOutput.detection(policies.comparisons[0], detect))) }
            print(JSONOutput.document("compare", members, version: JSONOutput.compareSchemaVersion).rendered(), terminator: "")
            return 0
        }
        print(header)
        if let line = resolved.line { print(line) }
        print("\(policies.comparisons[0].pairs) pairs of runs")
        print("")
        if policies.comparisons.count == 1 {
            print(policies.comparisons[0].table(), terminator: "")
            if !objectiveNames.isEmpty { print(policies.notes()[1]) }
        } else {
            print(policies.table(), terminator: "")
        }
        if let detect {
            print("")
            print(policies.comparisons[0].detectionTable(detect), terminator: "")
        }
        print("report: \(report.path)")
        return 0
    }
}
