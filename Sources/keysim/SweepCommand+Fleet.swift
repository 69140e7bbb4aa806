import Foundation
import Report
import Scenarios

// `keysim sweep` of a scenario with a `fleet` section: each point a fleet run, its figures
// the fleet metrics (`FleetSweep`); and the check that a keyboard sweep names run metrics.

extension SweepCommand {
    /// The criteria of a keyboard sweep: --x, --y and --where must name run metrics.
    func runCriteria() throws -> SweepCriteria {
        for name in [x, y] + constraints.map(\.metric) where RunMetric.named(name) == nil {
            throw Self.usage("'\(name)' is a fleet metric, and \(scenarioPath) has no 'fleet' section: give a run metric")
        }
        return SweepCriteria(x: RunMetric.named(x)!, y: RunMetric.named(y)!, confidence: confidence, constraints: constraints)
    }

    /// The criteria of a fleet sweep: --x and --y left at the run metrics' defaults take the
    /// fleet's; every name must be a fleet metric.
    func fleetCriteria() throws -> FleetSweep {
        let xName = x == TradeOff.cost.name ? FleetSweep.defaultAxes.x.name : x
        let yName = y == TradeOff.delay.name ? FleetSweep.defaultAxes.y.name : y
        let names = FleetMetric.all.map(\.name)
        for name in [xName, yName] + constraints.map(\.metric) where FleetMetric.named(name) == nil {
            throw Self.usage("'\(name)' is not a fleet metric, and \(scenarioPath) sweeps a fleet: give one of \(names.joined(separator: ", "))"
                             + NameSuggester.hint(for: name, among: names))
        }
        guard xName != yName else { throw Self.usage("--x and --y are both \(xName); give two different metrics") }
        return FleetSweep(x: FleetMetric.named(xName)!, y: FleetMetric.named(yName)!, confidence: confidence, constraints: constraints)
    }

    /// Runs the fleet at every point, prints the table and the recommended point (or the
    /// `keysim.sweep` JSON document).
    func runFleet(_ plan: SweepPlan) throws -> Int32 {
        let criteria = try fleetCriteria()
        // Its points are printed, not stored: say so rather than leave --db unwritten.
        guard job.db == nil else {
            throw Self.usage("a fleet sweep prints its points and writes no report: drop --db, and store a point's day with keysim fleet --set PATH=VALUE --db FILE")
        }
        guard job.shard == nil || job.shard!.isWhole else {
            throw Self.usage("a fleet sweep runs on one machine: --shard splits a fleet's partitions with keysim fleet --shard, not a sweep")
        }
        let replications: Int
        switch try job.replicationChoice(command: Self.configuration.name) {
        case .fixed(let count): replications = count ?? 1
        default: throw Self.usage("--replications auto needs keyboard runs; a fleet sweep takes a number of seeds, --replications N")
        }
        let seed = plan.points[0].scenario.seed
        if !job.json {
            print("keysim sweep \(scenarioPath): \(plan.points.count) point(s) × \(replications) fleet run(s), seed \(seed)\(replications > 1 ? "…\(seed &+ UInt64(replications - 1))" : "")")
        }
        let progress = Progress(label: "keysim sweep")
        let runs = try FleetSweep.runs(plan, replications: replications, jobs: job.threads) { done, total, _ in
            progress.update(done, of: total)
        }
        progress.finish()
        let sweep = criteria.sweep(plan, runs: runs)
        if job.json {
            print(JSONOutput.document("sweep", [
                ("scenario", .string(scenarioPath)), ("scenarioName", .string(sweep.scenarioName)), ("fleet", .bool(true)),
                ("seed", .integer(Int64(bitPattern: seed))), ("replications", .integer(replications)),
                ("parameters", .array(sweep.parameters.map { .string($0) })),
                ("costMetric", .string(sweep.costMetric)), ("delayMetric", .string(sweep.delayMetric)),
                ("confidence", .number(sweep.confidence)), ("where", .array(sweep.constraints.map { JSONTree.string($0.description) })),
                ("recommended", sweep.recommended.first.map { .integer($0.index) } ?? .null),
                ("points", JSONOutput.sweepPoints(sweep)),
            ]).rendered(), terminator: "")
            return 0
        }
        print("")
        print(sweep.table(), terminator: "")
        for line in sweep.legend() { print(line) }
        return 0
    }
}
