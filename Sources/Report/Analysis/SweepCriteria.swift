import Scenarios

/// What a sweep decides on: the two run metrics of its trade-off (`--x`, `--y`), the
/// confidence at which one point dominates another (`--confidence`), and the constraints a
/// recommended point meets (`--where`). Part of the job's spec, so every shard and a merged
/// report compute the same front.
public struct SweepCriteria: Sendable, Equatable {
    /// The horizontal axis (by default cloud requests per 100 words).
    public var x: RunMetric
    /// The vertical axis (by default the time to a verdict on an underline).
    public var y: RunMetric
    /// The confidence of "better on both axes", in (0, 1).
    public var confidence: Double
    /// What a recommended point meets.
    public var constraints: [SweepConstraint]

    /// The defaults: `TradeOff`'s axes at 95 %, no constraints.
    public static let defaults = SweepCriteria(x: TradeOff.cost, y: TradeOff.delay, confidence: 0.95, constraints: [])

    /// Creates criteria.
    public init(x: RunMetric, y: RunMetric, confidence: Double, constraints: [SweepConstraint]) {
        self.x = x
        self.y = y
        self.confidence = confidence
        self.constraints = constraints
    }

    /// The metrics whose means the sweep needs: the axes, then the constrained ones.
    public var metrics: [RunMetric] {
        var names: [String] = []
        for name in [x.name, y.name] + constraints.map(\.metric) where !names.contains(name) { names.append(name) }
        return names.compactMap(RunMetric.named)
    }

    /// Adds the members the job's spec carries to `json` (an object being written).
    func writeSpec(into json: inout JSONWriter) {
        json.key("x")
        json.string(x.name)
        json.key("y")
        json.string(y.name)
        json.key("confidence")
        json.number(confidence)
        json.key("where")
        json.beginArray()
        for constraint in constraints { json.string(constraint.description) }
        json.endArray()
    }

    /// The criteria a job's spec names; the defaults for what it leaves out (a sweep
    /// stored before the axes could be chosen).
    static func read(spec: ConfigValue?) -> SweepCriteria {
        var criteria = SweepCriteria.defaults
        let names = RunMetric.all.map(\.name)
        if case .string(let name)? = spec?["x"]?.kind, let metric = RunMetric.named(name) { criteria.x = metric }
        if case .string(let name)? = spec?["y"]?.kind, let metric = RunMetric.named(name) { criteria.y = metric }
        if case .number(let c)? = spec?["confidence"]?.kind, c > 0, c < 1 { criteria.confidence = c }
        if case .array(let rules)? = spec?["where"]?.kind {
            criteria.constraints = rules.compactMap { rule in
                guard case .string(let text) = rule.kind else { return nil }
                return try? SweepConstraint.parse(text, metrics: names)
            }
        }
        return criteria
    }
}
