import Foundation
import Report
import Scenarios
import Sim

/// `keysim sweep`: a grid over scenario fields, replications at every point, and the
/// trade-off between cloud requests and the wait for the cloud's verdict.
struct SweepCommand: JobCommand {
    var scenarioPath = ""
    var parameters: [SweepParameter] = []
    var policy: String?
    /// The metric on the cost axis.
    var costMetric = TradeOff.cost.name
    var job = JobOptions()

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "sweep",
            abstract: "Sweep scenario fields over a grid and chart cloud requests against delay, with the Pareto front.",
            usage: "sweep <scenario> --set PATH=LOW..HIGH/STEP [--set PATH=A,B,C]... [--policy NAME] [--cost METRIC] [--seed N] [--replications N|auto] [--jobs N] [--db FILE] [--detail LEVEL] [--json] [--shard K/N]",
            arguments: [.one("<scenario>", \.scenarioPath, help: "A scenario file (JSON5), such as scenarios/default.json5.", .file)],
            options: [
                .repeating("set", \.parameters, value: "PATH=VALUES",
                           help: "A field and its values: a range 250..5000/250 (ends included), a list A,B,C, or one value.", .sweepParameter),
                .option("policy", \.policy, value: "NAME", help: "Apply a policy defined in the scenario's 'policies' at every point.", .policy),
                .option("cost", \.costMetric, value: "METRIC",
                        help: "The cost axis: \(TradeOff.costChoices.map(\.name).joined(separator: ", ")) (default \(TradeOff.cost.name)).",
                        .choice(TradeOff.costChoices.map(\.name)) { text, name in
                            "--\(name) must be one of \(TradeOff.costChoices.map(\.name).joined(separator: ", ")), not '\(text)'"
                        }),
                JobOptions.seed(),
            ] + JobOptions.replicationOptions() + [
                JobOptions.jobs(),
                JobOptions.db(),
                JobOptions.detail(),
                JobOptions.json(),
                JobOptions.shard(),
            ],
            discussion: """
            Every combination of the --set values is a point (the first --set varies slowest);
            every point runs every replication of every trace with the same seed. A --set with one
            value fixes that field at every point. The table lists, per point, cloud requests per
            100 words and \(TradeOff.delayLabel), each with the half-width of its 95% interval, and
            marks the Pareto front (no other point has fewer requests and less delay). --cost puts
            another figure on the cost axis, such as cost_usd_per_1000_words (the scenario's token
            prices, docs/models.md). With
            --replications auto, rounds of replications are added until every point's two means
            have a 95% half-width within --precision, up to --max-replications. Progress goes
            to standard error. The sweep is stored in the report (tables sweeps and sweep_points);
            keysim report --format html draws the chart.
            """
        )
    }

    private var replicationChoice = JobOptions.ReplicationChoice.fixed(nil)
    private var shard = Shard.whole
    /// The parameters with more than one value, and the grid of their points.
    private var swept = [SweepParameter]()
    /// The parameters with one value: fixed at every point.
    private var fixed = [SweepParameter]()

    mutating func validate() throws {
        replicationChoice = try job.replicationChoice(command: Self.configuration.name)
        shard = try job.resolvedShard(command: Self.configuration.name)
        guard !parameters.isEmpty else {
            throw Self.usage("nothing to sweep: give --set PATH=LOW..HIGH/STEP, such as --set debounce.otherwiseMs=250..5000/250")
        }
        do {
            _ = try SweepGrid(parameters)
        } catch {
            throw Self.usage(error.message)
        }
        fixed = parameters.filter { $0.values.count == 1 }
        swept = parameters.filter { $0.values.count > 1 }
        guard !swept.isEmpty else {
            throw Self.usage("every --set has a single value; give at least one a range or a list")
        }
    }

    func run() throws -> Int32 {
        let report = job.report(shard: shard)
        let sweptGrid = try SweepGrid(swept)

        // Every point is loaded and validated before anything runs: a value a field refuses
        // fails the sweep at once, with the file and field, and changes no report.
        let fixedOverrides = fixed.map { ScenarioLoader.Override(path: $0.path, value: $0.values[0]) }
        var batches: [JobBatch] = []
        for index in 0..<sweptGrid.count {
            let settings = sweptGrid.point(index)
            let overrides = fixedOverrides + settings.map { ScenarioLoader.Override(path: $0.path, value: $0.value) }
            var scenario = try ScenarioLoader.load(path: scenarioPath, policy: policy, overrides: overrides)
            if let seed = job.seed { scenario.seed = seed }
            batches.append(JobBatch(label: SweepGrid.label(settings), scenario: scenario, settingsJSON: SweepGrid.json(settings)))
        }
        // With --replications auto, every point's cost and delay (what the table shows) are held to the precision.
        let resolved = try JobOptions.resolve(replicationChoice, batches: batches, seed: batches[0].scenario.seed,
                                              scenarioDefault: batches[0].scenario.replications, paired: false,
                                              metrics: [costMetric, TradeOff.delay.name], threads: job.threads,
                                              label: "keysim sweep")
        for index in batches.indices { batches[index].scenario.replications = resolved.replications }
        let first = batches[0].scenario
        var parameters = JSONWriter.objectMembers()
        parameters.key("parameters")
        parameters.beginArray()
        for parameter in swept { parameters.string(parameter.path) }
        parameters.endArray()
        if costMetric != TradeOff.cost.name {
            parameters.key("costMetric")
            parameters.string(costMetric)
        }
        let sweepJob = try Job(command: "sweep", batches: batches, seed: first.seed, replications: first.replications,
                               extraSpec: parameters.text)
        let outcome = try job.run(sweepJob, command: "sweep", shard: shard, report: report)

        let policyNote = policy.map { ", policy \($0)" } ?? ""
        let json = job.json
        if json, !shard.isWhole {
            print(JSONOutput.document("sweep", [("report", .string(report.path)), ("shard", .string("\(shard)")),
                                                ("itemsRun", .integer(outcome.itemsRun))]).rendered(), terminator: "")
            return 0
        }
        if !json { print("keysim sweep \(scenarioPath)\(policyNote): \(sweptGrid.count) point(s) × \(first.replications) replication(s) × \(sweepJob.traceCount) trace(s), seed \(first.seed)") }
        if !json, let line = resolved.line { print(line) }
        if !shard.isWhole {
            print("shard \(shard): \(outcome.itemsRun) of \(sweepJob.itemCount) work items; combine the shards with keysim merge to see the sweep")
            print("report: \(report.path)")
            return 0
        }
        let sweep = try report.sweep(jobID: outcome.jobID)
        if json {
            print(JSONOutput.document("sweep", [
                ("scenario", .string(scenarioPath)), ("scenarioName", .string(sweep.scenarioName)), ("policy", .string(policy)),
                ("seed", .integer(Int64(bitPattern: first.seed))), ("replications", .integer(first.replications)),
                ("traces", .integer(sweepJob.traceCount)),
                ("replicationSearch", JSONOutput.replicationSearch(resolved.search, plan: resolved.plan)), ("parameters", .array(sweep.parameters.map { .string($0) })),
                ("costMetric", .string(sweep.costMetric)), ("delayMetric", .string(sweep.delayMetric)),
                ("report", .string(report.path)), ("points", JSONOutput.sweepPoints(sweep)),
            ]).rendered(), terminator: "")
            return 0
        }
        print("")
        print(sweep.table(), terminator: "")
        let cheaper = costMetric == TradeOff.cost.name ? "fewer requests" : "a lower " + (RunMetric.named(costMetric)?.label ?? costMetric)
        print("* on the Pareto front: no other point has \(cheaper) and less delay.")
        print("delay: \(TradeOff.delayLabel): word finished to the cloud confirming or retracting its underline.")
        print("report: \(report.path)")
        return 0
    }
}
