import Foundation
import Report
import Scenarios
import Sim

/// `keysim sweep`: a grid over scenario fields, replications at every point, and the
/// trade-off between cloud requests and the wait for the cloud's verdict.
enum SweepCommand {
    static let spec = CommandSpec(
        name: "sweep",
        abstract: "Sweep scenario fields over a grid and chart cloud requests against delay, with the Pareto front.",
        usage: "sweep <scenario> --set PATH=LOW..HIGH/STEP [--set PATH=A,B,C]... [--policy NAME] [--seed N] [--replications N] [--jobs N] [--db FILE] [--detail LEVEL] [--shard K/N]",
        arguments: [("<scenario>", "A scenario file (JSON5), such as scenarios/default.json5.")],
        options: [
            OptionSpec(name: "set", value: "PATH=VALUES",
                       help: "A field and its values: a range 250..5000/250 (ends included), a list A,B,C, or one value.",
                       repeatable: true),
            OptionSpec(name: "policy", value: "NAME", help: "Apply a policy defined in the scenario's 'policies' at every point."),
            JobOptions.seed,
            JobOptions.replications,
            JobOptions.jobs,
            JobOptions.db(RunCommand.defaultReport),
            JobOptions.detail,
            JobOptions.shard,
        ],
        discussion: """
        Every combination of the --set values is a point (the first --set varies slowest);
        every point runs every replication of every trace with the same seed. A --set with one
        value fixes that field at every point. The table lists, per point, cloud requests per
        100 words and \(TradeOff.delayLabel), each with the half-width of its 95% interval, and
        marks the Pareto front (no other point has fewer requests and less delay). Progress goes
        to standard error. The sweep is stored in the report (tables sweeps and sweep_points);
        keysim report --format html draws the chart.
        """
    )

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let scenarioPath = try arguments.positionals(exactly: 1, "<scenario>")[0]
        let seed = try arguments.integer("seed", in: 0...Int(Int64.max))
        let replications = try arguments.integer("replications", in: 1...Scenario.replicationsMax)
        let threads = try JobOptions.threads(arguments)
        let shard = try JobOptions.shard(arguments)
        let reportPath = shard.reportPath(for: arguments.value("db") ?? RunCommand.defaultReport)
        let policy = arguments.value("policy")

        let specs = arguments.all("set")
        guard !specs.isEmpty else {
            throw UsageError(command: "sweep", message: "nothing to sweep: give --set PATH=LOW..HIGH/STEP, such as --set debounce.otherwiseMs=250..5000/250")
        }
        let grid: SweepGrid
        do {
            grid = try SweepGrid(specs.map(SweepParameter.parse))
        } catch {
            throw UsageError(command: "sweep", message: error.message)
        }
        let fixed = grid.parameters.filter { $0.values.count == 1 }
        let swept = grid.parameters.filter { $0.values.count > 1 }
        guard !swept.isEmpty else {
            throw UsageError(command: "sweep", message: "every --set has a single value; give at least one a range or a list")
        }
        let sweptGrid = try SweepGrid(swept)

        // Every point is loaded and validated before anything runs: a value a field refuses
        // fails the sweep at once, with the file and field, and changes no report.
        let fixedOverrides = fixed.map { ScenarioLoader.Override(path: $0.path, value: $0.values[0]) }
        var batches: [JobBatch] = []
        for index in 0..<sweptGrid.count {
            let settings = sweptGrid.point(index)
            let overrides = fixedOverrides + settings.map { ScenarioLoader.Override(path: $0.path, value: $0.value) }
            var scenario = try ScenarioLoader.load(path: scenarioPath, policy: policy, overrides: overrides)
            if let seed { scenario.seed = UInt64(seed) }
            if let replications { scenario.replications = replications }
            batches.append(JobBatch(label: SweepGrid.label(settings), scenario: scenario, settingsJSON: SweepGrid.json(settings)))
        }
        let first = batches[0].scenario
        let parameters = "\"parameters\":[" + swept.map { JSONText.quoted($0.path) }.joined(separator: ",") + "]"
        let job = try Job(command: "sweep", batches: batches, seed: first.seed, replications: first.replications, extraSpec: parameters)
        let outcome = try JobOptions.run(job, arguments, shard: shard, threads: threads, reportPath: reportPath)

        let policyNote = policy.map { ", policy \($0)" } ?? ""
        print("keysim sweep \(scenarioPath)\(policyNote): \(sweptGrid.count) point(s) × \(first.replications) replication(s) × \(job.traceCount) trace(s), seed \(first.seed)")
        if !shard.isWhole {
            print("shard \(shard): \(outcome.itemsRun) of \(job.itemCount) work items; combine the shards with keysim merge to see the sweep")
            print("report: \(reportPath)")
            return 0
        }
        let store = try ReportStore(path: reportPath, readOnly: true, busyTimeoutMs: JobOptions.busyTimeoutMs)
        guard let sweep = try Sweep.load(store.database, jobID: outcome.jobID).first else {
            throw ReportError(file: reportPath, message: "the sweep was not stored")
        }
        print("")
        print(sweep.table(), terminator: "")
        print("* on the Pareto front: no other point has fewer requests and less delay.")
        print("delay: \(TradeOff.delayLabel): word finished to the cloud confirming or retracting its underline.")
        print("report: \(reportPath)")
        return 0
    }
}
