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
        usage: "compare <scenario> --policy A --policy B | compare <a.json5> <b.json5> [--seed N] [--replications N] [--jobs N] [--db FILE] [--set PATH=VALUE]... [--detail LEVEL] [--shard K/N]",
        arguments: [("<scenario>...", "One scenario with --policy twice, or two scenario files to compare.")],
        options: [
            OptionSpec(name: "policy", value: "NAME", help: "A policy defined in the scenario's 'policies'; give it twice, A then B.", repeatable: true),
            JobOptions.seed,
            JobOptions.replications,
            JobOptions.jobs,
            JobOptions.db(RunCommand.defaultReport),
            OptionSpec(name: "set", value: "PATH=VALUE", help: "Override a field of both sides, e.g. network.roundTrip=80.", repeatable: true),
            JobOptions.detail,
            JobOptions.shard,
        ],
        discussion: """
        Both sides run every replication of every trace with the same seed, so each run of A
        has a twin in B that saw the same trace and, wherever the policies do not change what
        is drawn, the same random numbers (common random numbers). For each metric the table
        shows the mean under A and B, the mean of the paired differences B − A with its 95%
        Student-t interval, and whether the interval excludes zero. With two files, the seed
        and replications are the first file's unless given. The comparison is stored in the
        report (tables comparisons and comparison_metrics).
        """
    )

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let files = arguments.positionals
        let policies = arguments.all("policy")
        guard !files.isEmpty else { throw UsageError(command: "compare", message: "missing <scenario>") }
        guard files.count <= 2 else { throw UsageError(command: "compare", message: "unexpected argument '\(files[2])'") }
        if files.count == 2 && !policies.isEmpty {
            throw UsageError(command: "compare", message: "--policy applies to one scenario; with two files, compare the files")
        }
        if files.count == 1 && policies.count != 2 {
            throw UsageError(command: "compare", message: "give --policy twice (A and B), or two scenario files")
        }
        let seed = try arguments.integer("seed", in: 0...Int(Int64.max))
        let replications = try arguments.integer("replications", in: 1...Scenario.replicationsMax)
        let threads = try JobOptions.threads(arguments)
        let shard = try JobOptions.shard(arguments)
        let reportPath = shard.reportPath(for: arguments.value("db") ?? RunCommand.defaultReport)
        let overrides = try arguments.all("set").map { text throws(UsageError) in try JobOptions.override(text, command: "compare") }

        var sides: [(label: String, scenario: Scenario)] = []
        if files.count == 1 {
            if policies[0] == policies[1] {
                throw UsageError(command: "compare", message: "--policy \(policies[0]) is given twice; compare two different policies")
            }
            for policy in policies {
                sides.append((policy, try ScenarioLoader.load(path: files[0], policy: policy, overrides: overrides)))
            }
        } else {
            let a = try ScenarioLoader.load(path: files[0], overrides: overrides)
            let b = try ScenarioLoader.load(path: files[1], overrides: overrides)
            guard a.traces.count == b.traces.count else {
                throw ReportError(file: files[1], message: "replays \(b.traces.count) trace(s) but \(files[0]) replays \(a.traces.count); a comparison pairs runs of the same traces")
            }
            let sameNames = a.name == b.name
            sides = [(sameNames ? files[0] : a.name, a), (sameNames ? files[1] : b.name, b)]
        }
        let jobSeed = seed.map(UInt64.init) ?? sides[0].scenario.seed
        let jobReplications = replications ?? sides[0].scenario.replications
        let job = try Job(command: "compare", batches: sides.map { JobBatch(label: $0.label, scenario: $0.scenario) },
                          seed: jobSeed, replications: jobReplications)
        let outcome = try JobOptions.run(job, arguments, shard: shard, threads: threads, reportPath: reportPath)

        let what = files.count == 1 ? files[0] : "\(files[0]) \(files[1])"
        print("keysim compare \(what): \(sides[0].label) (A) vs \(sides[1].label) (B), seed \(jobSeed), \(jobReplications) replication(s) × \(job.traceCount) trace(s)")
        if !shard.isWhole {
            print("shard \(shard): \(outcome.itemsRun) of \(job.itemCount) work items; combine the shards with keysim merge to see the comparison")
            print("report: \(reportPath)")
            return 0
        }
        let store = try ReportStore(path: reportPath, readOnly: true, busyTimeoutMs: JobOptions.busyTimeoutMs)
        guard let comparison = try Comparison.load(store.database, jobID: outcome.jobID).first else {
            throw ReportError(file: reportPath, message: "the comparison was not stored")
        }
        print("\(comparison.pairs) pairs of runs")
        print("")
        print(comparison.table(), terminator: "")
        print("report: \(reportPath)")
        return 0
    }
}
