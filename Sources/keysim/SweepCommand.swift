import Foundation
import Report
import Scenarios
import Sim

/// `keysim sweep`: a grid over scenario fields and policies, replications at every point,
/// and the trade-off between two run metrics, with the points that are dominated at the
/// stated confidence told apart from those that are not separable from the front.
struct SweepCommand: JobCommand {
    var scenarioPath = ""
    var parameters: [SweepParameter] = []
    var policies: [String] = []
    var x = TradeOff.cost.name
    var y = TradeOff.delay.name
    var constraintTexts: [String] = []
    var confidence = 0.95
    var job = JobOptions()

    static var configuration: CommandConfiguration<Self> {
        let metrics = Self.metricNames
        return CommandConfiguration(
            name: "sweep",
            abstract: "Sweep scenario fields and policies over a grid and chart two metrics against each other, with the front of the trade-off.",
            usage: "sweep <scenario> --set PATH=LOW..HIGH/STEP [--set PATH=A,B,C]... [--policy NAME]... [--x METRIC] [--y METRIC] [--where 'METRIC OP N']... [--confidence C] [--seed N] [--replications N|auto] [--jobs N] [--db FILE] [--detail LEVEL] [--json] [--shard K/N]",
            arguments: [.one("<scenario>", \.scenarioPath, help: "A scenario file (JSON5), such as scenarios/default.json5.", .file)],
            options: [
                .repeating("set", \.parameters, value: "PATH=VALUES",
                           help: "A field and its values: a range 250..5000/250 (ends included), a list A,B,C, or one value.", .sweepParameter),
                .repeating("policy", \.policies, value: "NAME", help: "A policy defined in the scenario's 'policies'; once, it applies at every point; several times, each is an axis value.", .policy),
                .option("x", \.x, value: "METRIC", help: "The run metric across (default \(TradeOff.cost.name); for a fleet, a fleet metric, default \(FleetSweep.defaultAxes.x.name)).", .choice(metrics) { text, name in "--\(name): no run metric named '\(text)'" }),
                .option("y", \.y, value: "METRIC", help: "The run metric up (default \(TradeOff.delay.name); for a fleet, default \(FleetSweep.defaultAxes.y.name)).", .choice(metrics) { text, name in "--\(name): no run metric named '\(text)'" }),
                .repeating("where", \.constraintTexts, value: "'METRIC OP N'", help: "A condition a recommended point's mean meets, such as 'underline_recall >= 0.9' (OP: <=, >=, <, >).", .string),
                .option("confidence", \.confidence, value: "C", help: "The confidence of 'dominated', 0.5 to 0.999 (default 0.95).", .number(in: 0.5...0.999)),
                JobOptions.seed(),
            ] + JobOptions.replicationOptions() + [
                JobOptions.jobs(),
                JobOptions.db(),
                JobOptions.detail(),
                JobOptions.json(),
                JobOptions.shard(),
            ],
            discussion: """
            Every combination of the --set values is a point (the first --set varies slowest),
            under each --policy when several are given (the policy varies slowest of all). A
            --set debounce.policy=A,B switches the debounce policy's kind; a debounce field goes
            only to the points whose kind has it (debounce.otherwiseMs to sentence-aware,
            debounce.quantile to adaptive…), and a --set with one value fixes that field at every
            point it applies to. Every point runs every replication of every trace with the same
            seed, so the points' runs pair up (common random numbers).

            The table lists, per point, the means of --x and --y with the half-widths of their
            95% intervals and the point's place: "dominated by #k" when point k is better on both
            axes at --confidence (a one-sided paired t-test on each axis, Bonferroni over the
            points compared), "not separable" when some point's means are better on both but none
            is at that confidence, "front" otherwise. --where excludes points whose mean breaks a
            condition: they are neither recommended nor count against others. With --replications
            auto, rounds are added until every point's --x and --y means have a 95% half-width
            within --precision. Progress goes to standard error. The sweep is stored in the report
            (tables sweeps and sweep_points); keysim report --format html draws the chart.

            A scenario with a 'fleet' section sweeps fleets: every point is a fleet run (a field
            such as --set fleet.backend.replicas=1,2,4,8), --x, --y and --where name fleet
            metrics (docs/report-schema.md, "Fleet metrics"; by default replicas against
            busiest_hour_verdict_p95_ms), replication r runs with seed + r, and the one point
            recommended is the best on --x of the front that meets every --where: with
            --where 'busiest_hour_verdict_p95_ms <= 800', the fewest replicas that keep the
            busiest hour's p95 verdict within 800 ms. A fleet sweep prints its points (or --json)
            and writes no report; keysim fleet --set PATH=VALUE --db FILE stores one point's day.
            """
        )
    }

    private var replicationChoice = JobOptions.ReplicationChoice.fixed(nil)
    private var shard = Shard.whole
    var constraints: [SweepConstraint] = []

    /// The metrics --x, --y and --where take: every run metric, then the fleet metrics of
    /// other names (which of them a sweep uses depends on its scenario).
    static var metricNames: [String] {
        let runs = RunMetric.all.map(\.name)
        return runs + FleetMetric.all.map(\.name).filter { !runs.contains($0) }
    }

    mutating func validate() throws {
        replicationChoice = try job.replicationChoice(command: Self.configuration.name)
        shard = try job.resolvedShard(command: Self.configuration.name)
        guard !parameters.isEmpty || policies.count > 1 else {
            throw Self.usage("nothing to sweep: give --set PATH=LOW..HIGH/STEP, such as --set debounce.otherwiseMs=250..5000/250, or --policy more than once")
        }
        do {
            _ = try SweepGrid(parameters)
            constraints = try constraintTexts.map { (text) throws(SweepGridError) in
                try SweepConstraint.parse(text, metrics: Self.metricNames)
            }
        } catch {
            throw Self.usage(error.message)
        }
        guard x != y else { throw Self.usage("--x and --y are both \(x); give two different metrics") }
        guard parameters.contains(where: { $0.values.count > 1 }) || policies.count > 1 else {
            throw Self.usage("every --set has a single value; give at least one a range or a list")
        }
    }

    func run() throws -> Int32 {
        let report = job.report(shard: shard)
        // Every point is loaded and validated before anything runs: a value a field refuses
        // fails the sweep at once, with the file and field, and changes no report.
        let plan: SweepPlan
        do {
            plan = try SweepPlan(path: scenarioPath, policies: policies, parameters: parameters, seed: job.seed)
        } catch let error as SweepGridError {
            throw Self.usage(error.message)
        }
        if plan.points.contains(where: { $0.scenario.fleet != nil }) { return try runFleet(plan) }
        let criteria = try runCriteria()
        var batches = plan.batches
        // With --replications auto, every point's two axes (what the table shows) are held to the precision.
        let resolved = try JobOptions.resolve(replicationChoice, batches: batches, seed: batches[0].scenario.seed,
                                              scenarioDefault: batches[0].scenario.replications, paired: false,
                                              metrics: [criteria.x.name, criteria.y.name], threads: job.threads,
                                              label: "keysim sweep")
        for index in batches.indices { batches[index].scenario.replications = resolved.replications }
        let first = batches[0].scenario
        let sweepJob = try Job(command: "sweep", batches: batches, seed: first.seed, replications: first.replications,
                               extraSpec: plan.spec(criteria: criteria))
        let outcome = try job.run(sweepJob, command: "sweep", shard: shard, report: report)

        let policyNote = policies.count == 1 ? ", policy \(policies[0])" : ""
        let json = job.json
        if json, !shard.isWhole {
            print(JSONOutput.document("sweep", [("report", .string(report.path)), ("shard", .string("\(shard)")),
                                                ("itemsRun", .integer(outcome.itemsRun))]).rendered(), terminator: "")
            return 0
        }
        if !json { print("keysim sweep \(scenarioPath)\(policyNote): \(batches.count) point(s) × \(first.replications) replication(s) × \(sweepJob.traceCount) trace(s), seed \(first.seed)") }
        if !json, let line = resolved.line { print(line) }
        if !shard.isWhole {
            print("shard \(shard): \(outcome.itemsRun) of \(sweepJob.itemCount) work items; combine the shards with keysim merge to see the sweep")
            print("report: \(report.path)")
            return 0
        }
        let sweep = try report.sweep(jobID: outcome.jobID)
        if json {
            print(JSONOutput.document("sweep", [
                ("scenario", .string(scenarioPath)), ("scenarioName", .string(sweep.scenarioName)),
                ("policy", .string(policies.count == 1 ? policies[0] : nil)),
                ("policies", .array(policies.map { JSONTree.string($0) })),
                ("seed", .integer(Int64(bitPattern: first.seed))), ("replications", .integer(first.replications)),
                ("traces", .integer(sweepJob.traceCount)),
                ("replicationSearch", JSONOutput.replicationSearch(resolved.search, plan: resolved.plan)), ("parameters", .array(sweep.parameters.map { .string($0) })),
                ("costMetric", .string(sweep.costMetric)), ("delayMetric", .string(sweep.delayMetric)),
                ("confidence", .number(sweep.confidence)), ("where", .array(sweep.constraints.map { JSONTree.string($0.description) })),
                ("report", .string(report.path)), ("points", JSONOutput.sweepPoints(sweep)),
            ]).rendered(), terminator: "")
            return 0
        }
        print("")
        print(sweep.table(), terminator: "")
        for line in sweep.legend() { print(line) }
        print("report: \(report.path)")
        return 0
    }
}
