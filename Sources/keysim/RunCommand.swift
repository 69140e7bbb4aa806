import Foundation
import Report
import Scenarios
import Sim

/// `keysim run`: replay a scenario's traces, write the report, print the budget table.
enum RunCommand {
    static let defaultReport = "keysim-report.sqlite"

    static let spec = CommandSpec(
        name: "run",
        abstract: "Run a scenario: replay its traces, print the budget table, write the report.",
        usage: "run <scenario> [--seed N] [--replications N|auto] [--jobs N] [--db FILE] [--policy NAME] [--set PATH=VALUE]... [--check] [--json] [--shard K/N]",
        arguments: [("<scenario>", "A scenario file (JSON5), such as scenarios/default.json5.")],
        options: [
            OptionSpec(name: "seed", value: "N", help: "Seed of every random stream (default: the scenario's)."),
        ] + ReplicationOptions.all + [
            OptionSpec(name: "jobs", value: "N", help: "Threads to run replications on (default: the cores); results are the same for any N."),
            OptionSpec(name: "db", value: "FILE", help: "Report file to add the runs to (default: \(defaultReport))."),
            OptionSpec(name: "policy", value: "NAME", help: "Apply a policy defined in the scenario's 'policies'."),
            OptionSpec(name: "set", value: "PATH=VALUE", help: "Override a scenario field, e.g. debounce.otherwiseMs=1500.", repeatable: true),
            OptionSpec(name: "check", value: nil, help: "Exit with 1 when a budget is violated beyond its allowed share."),
            JobOptions.json,
            JobOptions.shard,
        ],
        discussion: """
        The report is written only when every replication succeeded: a bad scenario or trace
        leaves the report file untouched. Each run adds a batch; earlier batches stay. With
        --replications auto, rounds of replications are added until every run metric's mean has
        a 95% half-width within --precision, up to --max-replications.
        """
    )

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let scenarioPath = try arguments.positionals(exactly: 1, "<scenario>")[0]
        let seed = try arguments.integer("seed", in: 0...Int(Int64.max))
        let choice = try ReplicationOptions.parse(arguments)
        let jobs = try JobOptions.threads(arguments)
        let shard = try JobOptions.shard(arguments)
        let reportPath = shard.reportPath(for: arguments.value("db") ?? defaultReport)
        let overrides = try arguments.all("set").map(parseOverride)

        var scenario = try ScenarioLoader.load(path: scenarioPath, policy: arguments.value("policy"), overrides: overrides)
        if let seed { scenario.seed = UInt64(seed) }
        let resolved = try ReplicationOptions.resolve(choice, batches: [JobBatch(label: scenario.policy ?? "", scenario: scenario)],
                                                      seed: scenario.seed, scenarioDefault: scenario.replications, paired: false,
                                                      metrics: nil, threads: jobs, label: "keysim run")
        scenario.replications = resolved.replications

        let job = try Job(command: "run", batches: [JobBatch(label: scenario.policy ?? "", scenario: scenario)],
                          seed: scenario.seed, replications: scenario.replications)
        try JobOptions.preflight(reportPath)
        let outcome = try JobRunner.run(job, shard: shard, threads: jobs, reportPath: reportPath,
                                        busyTimeoutMs: JobOptions.busyTimeoutMs)

        let failedBudgets = outcome.summaries[0]?.failedBudgets ?? []
        if arguments.flag("json") {
            try printJSON(scenarioPath, scenario: scenario, outcome: outcome, reportPath: reportPath, shard: shard, search: resolved)
            return arguments.flag("check") && !failedBudgets.isEmpty ? 1 : 0
        }
        let policy = scenario.policy.map { ", policy \($0)" } ?? ""
        print("keysim run \(scenarioPath)\(policy): seed \(scenario.seed), \(scenario.replications) replication(s) × \(scenario.traces.count) trace(s)")
        if !shard.isWhole {
            print("shard \(shard): \(outcome.itemsRun) of \(job.itemCount) work items; combine the shards with keysim merge")
        }
        if let search = resolved.search, let plan = resolved.plan { print(ReplicationOptions.line(search, plan: plan)) }
        print("")
        guard let summary = outcome.summaries[0] else {
            print("(no work items in this shard)")
            print("report: \(reportPath)")
            return 0
        }
        print(summary.table(), terminator: "")
        print("report: \(reportPath)")
        if arguments.flag("check"), !summary.failedBudgets.isEmpty {
            for row in summary.failedBudgets {
                printError("keysim run: budget check failed: \(row.metric.rawValue): \(TextTable.percent(row.shareOverBudget)) over \(TextTable.fixed(row.budget!.limit.milliseconds, 0)) ms (allowed \(TextTable.percent(row.budget!.allowedShare)))")
            }
            return 1
        }
        return 0
    }

    /// The `--json` document of `run`.
    static func printJSON(_ scenarioPath: String, scenario: Scenario, outcome: JobOutcome, reportPath: String, shard: Shard,
                          search: (replications: Int, search: ReplicationSearch.Outcome?, plan: ReplicationPlan?)) throws {
        var members: [(String, JSONTree)] = [
            ("scenario", .string(scenarioPath)), ("scenarioName", .string(scenario.name)), ("policy", .string(scenario.policy)),
            ("seed", .integer(Int64(bitPattern: scenario.seed))), ("replications", .integer(scenario.replications)),
            ("traces", .integer(scenario.traces.count)), ("shard", shard.isWhole ? .null : .string("\(shard)")),
            ("replicationSearch", JSONOutput.replicationSearch(search.search, plan: search.plan)), ("report", .string(reportPath)),
        ]
        if let summary = outcome.summaries[0] {
            let store = try ReportStore(path: reportPath, readOnly: true, busyTimeoutMs: JobOptions.busyTimeoutMs)
            let batch = try store.database.query(
                "SELECT batch_id FROM job_batches WHERE job_id = ? ORDER BY batch_index LIMIT 1", [.integer(outcome.jobID)])
            members += [
                ("withinBudgets", .bool(summary.failedBudgets.isEmpty)), ("latencies", JSONOutput.latencies(summary)),
                ("counts", JSONOutput.counts(summary)),
            ]
            if case .integer(let batchID)? = batch.first?.first {
                members.append(("metrics", try JSONOutput.metricMeans(store.database, batchID: batchID)))
            }
        }
        print(JSONOutput.document("run", members).rendered(), terminator: "")
    }

    /// Parses `PATH=VALUE`; the value is read as JSON5 (a number, a string, an object…),
    /// and as a plain string when it does not parse.
    static func parseOverride(_ text: String) throws(UsageError) -> ScenarioLoader.Override {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw UsageError(command: "run", message: "--set needs PATH=VALUE, not '\(text)'")
        }
        let path = String(text[..<equals])
        let raw = String(text[text.index(after: equals)...])
        guard !raw.isEmpty else { throw UsageError(command: "run", message: "--set \(path)= needs a value") }
        let value = (try? JSON5Parser.parse(raw)) ?? ConfigValue(.string(raw))
        return ScenarioLoader.Override(path: path, value: value.unpositioned)
    }
}
