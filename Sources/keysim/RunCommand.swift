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
        usage: "run <scenario> [--seed N] [--replications N] [--jobs N] [--db FILE] [--policy NAME] [--set PATH=VALUE]... [--detail LEVEL] [--check] [--shard K/N]",
        arguments: [("<scenario>", "A scenario file (JSON5), such as scenarios/default.json5.")],
        options: [
            OptionSpec(name: "seed", value: "N", help: "Seed of every random stream (default: the scenario's)."),
            OptionSpec(name: "replications", value: "N", help: "Replications per trace (default: the scenario's)."),
            OptionSpec(name: "jobs", value: "N", help: "Threads to run replications on (default: the cores); results are the same for any N."),
            OptionSpec(name: "db", value: "FILE", help: "Report file to add the runs to (default: \(defaultReport))."),
            OptionSpec(name: "policy", value: "NAME", help: "Apply a policy defined in the scenario's 'policies'."),
            OptionSpec(name: "set", value: "PATH=VALUE", help: "Override a scenario field, e.g. debounce.otherwiseMs=1500.", repeatable: true),
            JobOptions.detail,
            OptionSpec(name: "check", value: nil, help: "Exit with 1 when a budget is violated beyond its allowed share."),
            JobOptions.shard,
        ],
        discussion: """
        The report is written only when every replication succeeded: a bad scenario or trace
        leaves the report file untouched. Each run adds a batch; earlier batches stay.
        """
    )

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let scenarioPath = try arguments.positionals(exactly: 1, "<scenario>")[0]
        let seed = try arguments.integer("seed", in: 0...Int(Int64.max))
        let replications = try arguments.integer("replications", in: 1...Scenario.replicationsMax)
        let jobs = try JobOptions.threads(arguments)
        let shard = try JobOptions.shard(arguments)
        let reportPath = shard.reportPath(for: arguments.value("db") ?? defaultReport)
        let overrides = try arguments.all("set").map(parseOverride)
        _ = try JobOptions.detail(arguments)  // a bad --detail is a usage error before the scenario is read

        var scenario = try ScenarioLoader.load(path: scenarioPath, policy: arguments.value("policy"), overrides: overrides)
        if let seed { scenario.seed = UInt64(seed) }
        if let replications { scenario.replications = replications }

        let job = try Job(command: "run", batches: [JobBatch(label: scenario.policy ?? "", scenario: scenario)],
                          seed: scenario.seed, replications: scenario.replications)
        // Progress only once a run takes over a second: a short run prints its table alone.
        let outcome = try JobOptions.run(job, arguments, shard: shard, threads: jobs, reportPath: reportPath, progressDelaySeconds: 1)

        let policy = scenario.policy.map { ", policy \($0)" } ?? ""
        print("keysim run \(scenarioPath)\(policy): seed \(scenario.seed), \(scenario.replications) replication(s) × \(scenario.traces.count) trace(s)")
        if !shard.isWhole {
            print("shard \(shard): \(outcome.itemsRun) of \(job.itemCount) work items; combine the shards with keysim merge")
        }
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
