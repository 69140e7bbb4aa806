import Foundation
import Report
import Scenarios
import Sim

/// `keysim compare`: two policies on the same work items with the same random numbers, and
/// the paired difference of every metric with its confidence interval.
enum CompareCommand {
    static let spec = CommandSpec(
        name: "compare",
        abstract: "Compare two policies with common random numbers: paired differences with 95% intervals.",
        usage: "compare <scenario> --policy A --policy B | compare <a.json5> <b.json5> [--seed N] [--replications N|auto] [--jobs N] [--db FILE] [--set PATH=VALUE]... [--detect D] [--json] [--shard K/N]",
        arguments: [("<scenario>...", "One scenario with --policy twice, or two scenario files to compare.")],
        options: PairedJob.options + ReplicationOptions.all + [
            JobOptions.jobs,
            JobOptions.db(RunCommand.defaultReport),
            OptionSpec(name: "set", value: "PATH=VALUE", help: "Override a field of both sides, e.g. network.roundTrip=80.", repeatable: true),
            OptionSpec(name: "detect", value: "D", help: "Also say how many pairs would detect a difference of D (5% of A's mean, or 0.5ms) with 80% power."),
            JobOptions.json,
            JobOptions.shard,
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

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let paired = try PairedJob(arguments)
        let choice = try ReplicationOptions.parse(arguments)
        let threads = try JobOptions.threads(arguments)
        let shard = try JobOptions.shard(arguments)
        let reportPath = shard.reportPath(for: arguments.value("db") ?? RunCommand.defaultReport)
        var detect: PrecisionTarget?
        if let text = arguments.value("detect") {
            do {
                detect = try PrecisionTarget.parse(text)
            } catch {
                throw UsageError(command: "compare", message: error.message.replacingOccurrences(of: "--precision", with: "--detect"))
            }
        }
        let json = arguments.flag("json")

        let resolved = try ReplicationOptions.resolve(choice, batches: paired.batches, seed: paired.seed,
                                                      scenarioDefault: paired.sides[0].scenario.replications, paired: true,
                                                      metrics: nil, threads: threads, label: "keysim compare")
        let (job, outcome) = try paired.run(command: "compare", replications: resolved.replications, shard: shard,
                                            threads: threads, reportPath: reportPath)
        let header = paired.header("compare", replications: resolved.replications, traces: job.traceCount)
        if !shard.isWhole {
            guard !json else {
                print(JSONOutput.document("compare", [("report", .string(reportPath)), ("shard", .string("\(shard)")),
                                                      ("itemsRun", .integer(outcome.itemsRun))]).rendered(), terminator: "")
                return 0
            }
            print(header)
            print("shard \(shard): \(outcome.itemsRun) of \(job.itemCount) work items; combine the shards with keysim merge to see the comparison")
            print("report: \(reportPath)")
            return 0
        }
        let comparison = try PairedJob.comparison(reportPath: reportPath, jobID: outcome.jobID)
        if json {
            var members = document(paired, comparison: comparison, replications: resolved.replications, traces: job.traceCount,
                                   reportPath: reportPath, search: resolved)
            if let detect { members.append(("detect", JSONOutput.detection(comparison, detect))) }
            print(JSONOutput.document("compare", members).rendered(), terminator: "")
            return 0
        }
        print(header)
        if let search = resolved.search, let plan = resolved.plan { print(ReplicationOptions.line(search, plan: plan)) }
        print("\(comparison.pairs) pairs of runs")
        print("")
        print(comparison.table(), terminator: "")
        if let detect {
            print("")
            print(comparison.detectionTable(detect), terminator: "")
        }
        print("report: \(reportPath)")
        return 0
    }

    /// The members of the `compare` and `gate` JSON documents that describe the comparison.
    static func document(_ paired: PairedJob, comparison: Comparison, replications: Int, traces: Int, reportPath: String,
                         search: (replications: Int, search: ReplicationSearch.Outcome?, plan: ReplicationPlan?)) -> [(String, JSONTree)] {
        [
            ("scenarios", .array(paired.files.map { .string($0) })), ("scenarioName", .string(comparison.scenarioName)),
            ("labelA", .string(comparison.labelA)), ("labelB", .string(comparison.labelB)),
            ("seed", .integer(Int64(bitPattern: paired.seed))), ("replications", .integer(replications)),
            ("traces", .integer(traces)), ("pairs", .integer(comparison.pairs)), ("confidence", .number(Comparison.confidence)),
            ("replicationSearch", JSONOutput.replicationSearch(search.search, plan: search.plan)),
            ("report", .string(reportPath)), ("metrics", JSONOutput.comparisonRows(comparison)),
        ]
    }
}
