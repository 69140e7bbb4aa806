import Foundation
import Report
import Scenarios
import Sim

/// `keysim run`: replay a scenario's traces, write the report, print the budget table.
struct RunCommand: JobCommand {
    var scenarioPath = ""
    var job = JobOptions()
    var policy: String?
    var overrides: [ScenarioLoader.Override] = []
    var check = false

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "run",
            abstract: "Run a scenario: replay its traces, print the budget table, write the report.",
            usage: "run <scenario> [--seed N] [--replications N|auto] [--jobs N] [--db FILE] [--policy NAME] [--set PATH=VALUE]... [--detail LEVEL] [--check] [--json] [--shard K/N]",
            arguments: [.one("<scenario>", \.scenarioPath, help: "A scenario file (JSON5), such as scenarios/default.json5.", .file)],
            options: [JobOptions.seed()] + JobOptions.replicationOptions() + [
                JobOptions.jobs(),
                JobOptions.db(),
                .option("policy", \.policy, value: "NAME", help: "Apply a policy defined in the scenario's 'policies'.", .policy),
                .repeating("set", \.overrides, value: "PATH=VALUE", help: "Override a scenario field, e.g. debounce.otherwiseMs=1500.", .override),
                JobOptions.detail(),
                .flag("check", \.check, help: "Exit with 1 when a budget is violated beyond its allowed share."),
                JobOptions.json(),
                JobOptions.shard(),
            ],
            discussion: """
            The report is written only when every replication succeeded: a bad scenario or trace
            leaves the report file untouched. Each run adds a batch; earlier batches stay. With
            --replications auto, rounds of replications are added until every run metric's mean has
            a 95% half-width within --precision, up to --max-replications.
            """
        )
    }

    private var replicationChoice = JobOptions.ReplicationChoice.fixed(nil)
    private var shard = Shard.whole

    mutating func validate() throws {
        replicationChoice = try job.replicationChoice(command: Self.configuration.name)
        shard = try job.resolvedShard(command: Self.configuration.name)
    }

    func run() throws -> Int32 {
        let report = job.report(shard: shard)
        var scenario = try ScenarioLoader.load(path: scenarioPath, policy: policy, overrides: overrides)
        if let seed = job.seed { scenario.seed = seed }
        let resolved = try JobOptions.resolve(replicationChoice, batches: [JobBatch(label: scenario.policy ?? "", scenario: scenario)],
                                              seed: scenario.seed, scenarioDefault: scenario.replications, paired: false,
                                              metrics: nil, threads: job.threads, label: "keysim run")
        scenario.replications = resolved.replications

        let runJob = try Job(command: "run", batches: [JobBatch(label: scenario.policy ?? "", scenario: scenario)],
                             seed: scenario.seed, replications: scenario.replications)
        // Progress only once a run takes over a second: a short run prints its table alone.
        let outcome = try job.run(runJob, command: "run", shard: shard, report: report, progressDelaySeconds: 1)

        let failedBudgets = outcome.summaries[0]?.failedBudgets ?? []
        if job.json {
            try printJSON(scenario: scenario, outcome: outcome, report: report, search: resolved)
            return check && !failedBudgets.isEmpty ? 1 : 0
        }
        let policyNote = scenario.policy.map { ", policy \($0)" } ?? ""
        print("keysim run \(scenarioPath)\(policyNote): seed \(scenario.seed), \(scenario.replications) replication(s) × \(scenario.traces.count) trace(s)")
        if !shard.isWhole {
            print("shard \(shard): \(outcome.itemsRun) of \(runJob.itemCount) work items; combine the shards with keysim merge")
        }
        if let line = resolved.line { print(line) }
        print("")
        guard let summary = outcome.summaries[0] else {
            print("(no work items in this shard)")
            print("report: \(report.path)")
            return 0
        }
        print(summary.table(), terminator: "")
        print("report: \(report.path)")
        if check, !summary.failedBudgets.isEmpty {
            for row in summary.failedBudgets {
                printError("keysim run: budget check failed: \(row.metric.rawValue): \(TextTable.percent(row.shareOverBudget)) over \(TextTable.fixed(row.budget!.limit.milliseconds, 0)) ms (allowed \(TextTable.percent(row.budget!.allowedShare)))")
            }
            return 1
        }
        return 0
    }

    /// The `--json` document of `run`.
    func printJSON(scenario: Scenario, outcome: JobOutcome, report: JobReport, search: ResolvedReplications) throws {
        var members: [(String, JSONTree)] = [
            ("scenario", .string(scenarioPath)), ("scenarioName", .string(scenario.name)), ("policy", .string(scenario.policy)),
            ("seed", .integer(Int64(bitPattern: scenario.seed))), ("replications", .integer(scenario.replications)),
            ("traces", .integer(scenario.traces.count)), ("shard", shard.isWhole ? .null : .string("\(shard)")),
            ("replicationSearch", JSONOutput.replicationSearch(search.search, plan: search.plan)), ("report", .string(report.path)),
        ]
        if let summary = outcome.summaries[0] {
            members += [
                ("withinBudgets", .bool(summary.failedBudgets.isEmpty)), ("latencies", JSONOutput.latencies(summary)),
                ("counts", JSONOutput.counts(summary)),
            ]
            if let metrics = try report.metricMeans(jobID: outcome.jobID) { members.append(("metrics", metrics)) }
        }
        print(JSONOutput.document("run", members).rendered(), terminator: "")
    }
}
