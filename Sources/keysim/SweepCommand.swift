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
        usage: "sweep <scenario> --set PATH=LOW..HIGH/STEP [--set PATH=A,B,C]... [--policy NAME] [--seed N] [--replications N|auto] [--jobs N] [--db FILE] [--detail LEVEL] [--json] [--shard K/N]",
        arguments: [("<scenario>", "A scenario file (JSON5), such as scenarios/default.json5.")],
        options: [
            OptionSpec(name: "set", value: "PATH=VALUES",
                       help: "A field and its values: a range 250..5000/250 (ends included), a list A,B,C, or one value.",
                       repeatable: true),
            OptionSpec(name: "policy", value: "NAME", help: "Apply a policy defined in the scenario's 'policies' at every point."),
            JobOptions.seed,
        ] + ReplicationOptions.all + [
            JobOptions.jobs,
            JobOptions.db(RunCommand.defaultReport),
            JobOptions.detail,
            JobOptions.json,
            JobOptions.shard,
        ],
        discussion: """
        Every combination of the --set values is a point (the first --set varies slowest);
        every point runs every replication of every trace with the same seed. A --set with one
        value fixes that field at every point. The table lists, per point, cloud requests per
        100 words and \(TradeOff.delayLabel), each with the half-width of its 95% interval, and
        marks the Pareto front (no other point has fewer requests and less delay). With
        --replications auto, rounds of replications are added until every point's two means
        have a 95% half-width within --precision, up to --max-replications. Progress goes
        to standard error. The sweep is stored in the report (tables sweeps and sweep_points);
        keysim report --format html draws the chart.
        """
    )

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let scenarioPath = try arguments.positionals(exactly: 1, "<scenario>")[0]
        let seed = try arguments.integer("seed", in: 0...Int(Int64.max))
        let choice = try ReplicationOptions.parse(arguments)
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
            batches.append(JobBatch(label: SweepGrid.label(settings), scenario: scenario, settingsJSON: SweepGrid.json(settings)))
        }
        // With --replications auto, every point's cost and delay (what the table shows) are held to the precision.
        let resolved = try ReplicationOptions.resolve(choice, batches: batches, seed: batches[0].scenario.seed,
                                                      scenarioDefault: batches[0].scenario.replications, paired: false,
                                                      metrics: [TradeOff.cost.name, TradeOff.delay.name], threads: threads,
                                                      label: "keysim sweep")
        for index in batches.indices { batches[index].scenario.replications = resolved.replications }
        let first = batches[0].scenario
        var parameters = JSONWriter.objectMembers()
        parameters.key("parameters")
        parameters.beginArray()
        for parameter in swept { parameters.string(parameter.path) }
        parameters.endArray()
        let job = try Job(command: "sweep", batches: batches, seed: first.seed, replications: first.replications,
                          extraSpec: parameters.text)
        let outcome = try JobOptions.run(job, command: "sweep", detail: try JobOptions.detail(arguments), shard: shard,
                                         threads: threads, reportPath: reportPath)

        let policyNote = policy.map { ", policy \($0)" } ?? ""
        let json = arguments.flag("json")
        if json, !shard.isWhole {
            print(JSONOutput.document("sweep", [("report", .string(reportPath)), ("shard", .string("\(shard)")),
                                                ("itemsRun", .integer(outcome.itemsRun))]).rendered(), terminator: "")
            return 0
        }
        if !json { print("keysim sweep \(scenarioPath)\(policyNote): \(sweptGrid.count) point(s) × \(first.replications) replication(s) × \(job.traceCount) trace(s), seed \(first.seed)") }
        if !json, let search = resolved.search, let plan = resolved.plan { print(ReplicationOptions.line(search, plan: plan)) }
        if !shard.isWhole {
            print("shard \(shard): \(outcome.itemsRun) of \(job.itemCount) work items; combine the shards with keysim merge to see the sweep")
            print("report: \(reportPath)")
            return 0
        }
        let store = try ReportStore(path: reportPath, readOnly: true, busyTimeoutMs: JobOptions.busyTimeoutMs)
        guard let sweep = try Sweep.load(store.database, jobID: outcome.jobID).first else {
            throw ReportError(file: reportPath, message: "the sweep was not stored")
        }
        if json {
            print(JSONOutput.document("sweep", [
                ("scenario", .string(scenarioPath)), ("scenarioName", .string(sweep.scenarioName)), ("policy", .string(policy)),
                ("seed", .integer(Int64(bitPattern: first.seed))), ("replications", .integer(first.replications)),
                ("traces", .integer(job.traceCount)),
                ("replicationSearch", JSONOutput.replicationSearch(resolved.search, plan: resolved.plan)), ("parameters", .array(sweep.parameters.map { .string($0) })),
                ("costMetric", .string(sweep.costMetric)), ("delayMetric", .string(sweep.delayMetric)),
                ("report", .string(reportPath)), ("points", JSONOutput.sweepPoints(sweep)),
            ]).rendered(), terminator: "")
            return 0
        }
        print("")
        print(sweep.table(), terminator: "")
        print("* on the Pareto front: no other point has fewer requests and less delay.")
        print("delay: \(TradeOff.delayLabel): word finished to the cloud confirming or retracting its underline.")
        print("report: \(reportPath)")
        return 0
    }
}
