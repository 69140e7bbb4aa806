import Scenarios
import Sim

/// `keysim sweep` over a scenario with a `fleet` section: every point of the grid (a
/// backend field, say `fleet.backend.replicas=1,2,4,8`) is a fleet run (`FleetRunner`), its
/// figures the `FleetMetric`s, and the sweep's table, trade-off and `--where` constraints
/// as for keyboard runs (`Sweep`, `ParetoTest`). Its one recommended point is the best on x
/// among the points on the front that meet every constraint: with x `replicas` and
/// `--where 'busiest_hour_verdict_p95_ms <= 800'`, the fewest replicas that keep the
/// busiest hour's p95 verdict within 800 ms.
///
/// Replications are seeds: replication r of every point runs with the scenario's seed + r,
/// so the points' runs pair up (common random numbers) and `ParetoTest` compares them.
public struct FleetSweep: Sendable {
    /// The two metrics of the trade-off, the confidence of "dominated", the constraints.
    public var x: FleetMetric
    /// The vertical axis.
    public var y: FleetMetric
    /// The confidence of "better on both axes".
    public var confidence: Double
    /// What the recommended point meets; each names a `FleetMetric`.
    public var constraints: [SweepConstraint]

    /// The axes a fleet sweep uses unless told: capacity across, the busiest hour's p95
    /// verdict up.
    public static let defaultAxes = (x: FleetMetric.replicas, y: FleetMetric.busiestHourVerdictP95Ms)

    /// Creates a fleet sweep's criteria.
    public init(x: FleetMetric = defaultAxes.x, y: FleetMetric = defaultAxes.y, confidence: Double = 0.95,
                constraints: [SweepConstraint] = []) {
        self.x = x
        self.y = y
        self.confidence = confidence
        self.constraints = constraints
    }

    /// One point's fleet runs, replication order.
    public struct PointRuns: Sendable {
        /// The point's index in the plan.
        public var index: Int
        /// Each replication's day (its result and summary).
        public var days: [FleetMetric.Day]
    }

    /// Runs every point of `plan` (each a scenario with a fleet) `replications` times,
    /// `jobs` partitions at a time; `progress` hears of each point when it is done.
    /// - Throws: `FleetRunError` for a point with no fleet, and what a run throws.
    public static func runs(_ plan: SweepPlan, replications: Int, jobs: Int,
                            progress: ((_ done: Int, _ of: Int, _ label: String) -> Void)? = nil) throws -> [PointRuns] {
        precondition(replications >= 1, "a replication at least")
        var all: [PointRuns] = []
        for (index, point) in plan.points.enumerated() {
            var days: [FleetMetric.Day] = []
            for replication in 0..<replications {
                var scenario = point.scenario
                scenario.seed = point.scenario.seed &+ UInt64(replication)
                days.append(FleetMetric.Day(try FleetRunner.run(scenario, jobs: jobs)))
            }
            all.append(PointRuns(index: index, days: days))
            progress?(index + 1, plan.points.count, point.label)
        }
        return all
    }

    /// The sweep of `runs` over `plan`'s points: each point's means and 95 % intervals on
    /// both axes and on each constraint's metric, and its place in the trade-off.
    public func sweep(_ plan: SweepPlan, runs: [PointRuns]) -> Sweep {
        precondition(runs.count == plan.points.count, "a point's runs per point")
        func values(_ metric: FleetMetric, _ point: PointRuns) -> [Double?] { point.days.map { metric.value(for: $0) } }
        let classified = ParetoTest.classify(runs.map { point in
            let feasible = constraints.allSatisfy { constraint in
                let present = FleetMetric.named(constraint.metric).map { values($0, point).compactMap { $0 } } ?? []
                return constraint.holds(mean: present.isEmpty ? nil : MeanInterval(present).mean)
            }
            return ParetoTest.Point(x: values(x, point), y: values(y, point), feasible: feasible)
        }, lowerIsBetter: (x.lowerIsBetter, y.lowerIsBetter), confidence: confidence)
        func interval(_ metric: FleetMetric, _ point: PointRuns) -> MeanInterval? {
            let present = values(metric, point).compactMap { $0 }
            return present.isEmpty ? nil : MeanInterval(present)
        }
        let points = zip(runs, classified).map { point, outcome in
            let settings = plan.points[point.index].settings
            let shown = plan.columns.map { column in settings.first { $0.column == column }.map { SweepGrid.display($0.value) } ?? "-" }
            let xi = interval(x, point), yi = interval(y, point)
            return Sweep.Point(index: point.index, values: shown, runs: point.days.count, cost: xi?.mean,
                               costHalfWidth: xi.flatMap { $0.count > 1 ? $0.halfWidth : nil }, delay: yi?.mean,
                               delayHalfWidth: yi.flatMap { $0.count > 1 ? $0.halfWidth : nil }, onFront: outcome.status == .front,
                               status: outcome.status, dominatedBy: outcome.dominatedBy,
                               constrained: constraints.map { FleetMetric.named($0.metric).flatMap { interval($0, point) } })
        }
        let name = runs.first?.days.first?.result.scenarioName ?? plan.points.first?.scenario.name ?? ""
        return Sweep(id: 0, scenarioName: name, parameters: plan.columns, costMetric: x.name, delayMetric: y.name,
                     confidence: confidence, constraints: constraints, points: points, subject: .fleet)
    }
}
