import Foundation
import Report
import Scenarios
import Sim

/// `keysim compare`: two policies on the same work items with the same random numbers, and
/// the paired difference of every metric with its confidence interval.
struct CompareCommand: PairedCommand {
    var files: [String] = []
    var policies: [String] = []
    var overrides: [ScenarioLoader.Override] = []
    var job = JobOptions()
    var detect: PrecisionTarget?

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "compare",
            abstract: "Compare two policies with common random numbers: paired differences with 95% intervals.",
            usage: "compare <scenario> --policy A --policy B | compare <a.json5> <b.json5> [--seed N] [--replications N|auto] [--jobs N] [--db FILE] [--set PATH=VALUE]... [--detail LEVEL] [--detect D] [--json] [--shard K/N]",
            arguments: [filesArgument(help: "One scenario with --policy twice, or two scenario files to compare.")],
            options: [policyOption, JobOptions.seed()] + JobOptions.replicationOptions() + [
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
            Both sides run every replication of every trace with the same seed, so each run of A
            has a twin in B that saw the same trace and, wherever the policies do not change what
            is drawn, the same random numbers (common random numbers). For each metric the table
            shows the mean under A and B, the mean of the paired differences B − A with its 95%
            Student-t interval, and whether the interval excludes zero. With two files, the seed
            and replications are the first file's unless given. The comparison is stored in the
            report (tables comparisons and comparison_metrics). With --replications auto, rounds
            of replications are added until every metric's paired difference has a 95% half-width
            within --precision (relative to A's mean), up to --max-replications.
            """
        )
    }

    private var replicationChoice = JobOptions.ReplicationChoice.fixed(nil)
    private var shard = Shard.whole

    mutating func validate() throws {
        try checkPlan()
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
                                                      ("itemsRun", .integer(outcome.itemsRun))]).rendered(), terminator: "")
                return 0
            }
            print(header)
            print("shard \(shard): \(outcome.itemsRun) of \(pairedJob.itemCount) work items; combine the shards with keysim merge to see the comparison")
            print("report: \(report.path)")
            return 0
        }
        let comparison = try report.comparison(jobID: outcome.jobID)
        if job.json {
            var members = plan.document(comparison: comparison, replications: resolved, traces: pairedJob.traceCount,
                                        reportPath: report.path)
            if let detect { members.append(("detect", JSONOutput.detection(comparison, detect))) }
            print(JSONOutput.document("compare", members).rendered(), terminator: "")
            return 0
        }
        print(header)
        if let line = resolved.line { print(line) }
        print("\(comparison.pairs) pairs of runs")
        print("")
        print(comparison.table(), terminator: "")
        if let detect {
            print("")
            print(comparison.detectionTable(detect), terminator: "")
        }
        print("report: \(report.path)")
        return 0
    }
}
