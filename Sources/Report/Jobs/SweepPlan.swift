import Scenarios

/// The points of `keysim sweep`, loaded and checked before anything runs: every policy
/// named (`--policy`, or none) crossed with the grid of the swept fields, where a
/// `debounce.*` field goes only to the points whose debounce policy kind has it — so a
/// sweep over `debounce.policy=sentence-aware,adaptive` with `debounce.otherwiseMs` and
/// `debounce.quantile` axes sweeps each field only where it means something.
public struct SweepPlan: Sendable {
    /// One point: its label, its settings (shown per column) and its scenario.
    public struct Point: Sendable {
        /// `policy=adaptive, debounce.quantile=0.9`.
        public var label: String
        /// The value of each of `columns` at this point (`nil` where the field does not
        /// apply to the point's debounce policy), as the table shows them.
        public var settings: [(column: String, value: ConfigValue)]
        /// The scenario at this point.
        public var scenario: Scenario
    }

    /// The table's parameter columns: `policy` when more than one is swept, then every
    /// swept field in command-line order.
    public let columns: [String]
    /// The points, the first column varying slowest.
    public let points: [Point]

    /// The most points a sweep may have.
    public static let pointsMax = SweepGrid.pointsMax

    /// Builds the points of sweeping `parameters` (a field with one value is fixed at every
    /// point it applies to) under each of `policies` of the scenario at `path`.
    /// - Throws: `SweepGridError` for a grid that sweeps nothing, a field that applies to no
    ///   point, or too many points; `ConfigError` for a point the scenario refuses.
    public init(path: String, policies: [String], parameters: [SweepParameter], seed: UInt64?) throws {
        for (index, policy) in policies.enumerated() where policies[..<index].contains(policy) {
            throw SweepGridError("--policy \(policy) is given more than once")
        }
        let swept = parameters.filter { $0.values.count > 1 }
        let fixed = parameters.filter { $0.values.count == 1 }
        let grid = try SweepGrid(swept)
        let kindAxis = parameters.first { $0.path == "debounce.policy" }
        let showsPolicy = policies.count > 1
        var points: [Point] = []
        var applied: Set<String> = []
        for policy in policies.isEmpty ? [nil] : policies.map(Optional.some) {
            // The policy's own debounce kind, for the points that do not set one.
            let base = try ScenarioLoader.load(path: path, policy: policy,
                                               overrides: fixed.filter { $0.path != "debounce.policy" && !$0.path.hasPrefix("debounce.") }
                                                   .map { ScenarioLoader.Override(path: $0.path, value: $0.values[0]) })
            // `debounce.policy=seed` names one of the file's policies, not a debounce kind.
            let kinds = ScenarioLoader.debounceFields.map(\.kind)
            for value in kindAxis?.values.map(SweepGrid.display) ?? [] where !kinds.contains(value) && base.policyNames.contains(value) {
                throw SweepGridError("--set debounce.policy=\(value): '\(value)' is a policy of the scenario, not a debounce policy kind"
                                     + " (\(kinds.joined(separator: ", "))); run it with --policy \(value)")
            }
            var seen: Set<String> = []
            for index in 0..<grid.count {
                let point = grid.point(index)
                let kindValue = point.first { $0.path == "debounce.policy" }?.value ?? (kindAxis?.values.count == 1 ? kindAxis?.values[0] : nil)
                let kind = kindValue.map(SweepGrid.display) ?? base.keyboard.debounce.name
                let settings = point.filter { ScenarioLoader.field($0.path, appliesToDebounce: kind) }
                let label = (showsPolicy ? ["policy=\(policy!)"] : []) + settings.map { "\($0.path)=\(SweepGrid.display($0.value))" }
                guard seen.insert(label.joined(separator: ", ")).inserted else { continue }
                let fixedHere = fixed.filter { ScenarioLoader.field($0.path, appliesToDebounce: kind) }
                for path in settings.map(\.path) + fixedHere.map(\.path) { applied.insert(path) }
                let overrides = (fixedHere.map { (path: $0.path, value: $0.values[0]) } + settings)
                    .map { ScenarioLoader.Override(path: $0.path, value: $0.value) }
                var scenario = try ScenarioLoader.load(path: path, policy: policy, overrides: overrides)
                if let seed { scenario.seed = seed }
                var shown: [(column: String, value: ConfigValue)] = showsPolicy ? [("policy", ConfigValue(.string(policy!)))] : []
                shown += settings.map { ($0.path, $0.value) }
                points.append(Point(label: label.joined(separator: ", "), settings: shown, scenario: scenario))
                guard points.count <= Self.pointsMax else { throw SweepGridError("the sweep has more than \(Self.pointsMax) points") }
            }
        }
        for parameter in parameters where !applied.contains(parameter.path) {
            throw SweepGridError("--set \(parameter.path) applies to no point: no debounce policy of the sweep has the field '\(parameter.path.split(separator: ".").dropFirst().joined(separator: "."))'")
        }
        guard points.count >= 2 else {
            throw SweepGridError("the sweep has one point; give a --set a range or a list, or --policy more than once")
        }
        columns = (showsPolicy ? ["policy"] : []) + swept.map(\.path)
        self.points = points
    }

    /// The members of the sweep job's spec (JSON, without braces): its parameter columns and
    /// what it decides on, so that every shard and a merge compute the same front.
    public func spec(criteria: SweepCriteria) -> String {
        var json = JSONWriter.objectMembers()
        json.key("parameters")
        json.beginArray()
        for column in columns { json.string(column) }
        json.endArray()
        criteria.writeSpec(into: &json)
        return json.text
    }

    /// One batch per point, with its settings as the report stores them.
    public var batches: [JobBatch] {
        points.map { point in
            let settings = point.settings.map { (path: $0.column, value: $0.value) }
            return JobBatch(label: point.label, scenario: point.scenario, settingsJSON: SweepGrid.json(settings))
        }
    }
}
