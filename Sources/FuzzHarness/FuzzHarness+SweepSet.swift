import Report
import Scenarios

extension FuzzHarness {
    /// Any bytes as `--set` arguments, one a line (the first hundred): each read as
    /// `PATH=VALUE` (`run`; the first four are also loaded) and as `PATH=VALUES` (`sweep`); a
    /// range gives at most `valuesMax` values, all finite; the parameters make a grid, and
    /// its first and last points are loaded over a small scenario with and without a policy.
    /// Every step returns a value or its own error — a range near the largest double
    /// included — and never traps.
    public static func sweepSet(_ raw: UnsafeRawBufferPointer) {
        let text = String(decoding: raw, as: UTF8.self)
        var parameters: [SweepParameter] = []
        for (index, line) in text.split(separator: "\n").prefix(100).enumerated() {
            let spec = String(line)
            // Loading is what costs: the first few lines as run's --set, the grid's ends below.
            if index < 4, let override = try? ScenarioLoader.Override.parse(spec) { load([override]) }
            guard let parameter = try? SweepParameter.parse(spec) else { continue }
            precondition((1...SweepParameter.valuesMax).contains(parameter.values.count), "\(parameter.values.count) values")
            for value in parameter.values {
                if case .number(let x) = value.kind { precondition(x.isFinite, "a range gave \(x)") }
            }
            parameters.append(parameter)
        }
        guard !parameters.isEmpty, let grid = try? SweepGrid(parameters) else { return }
        precondition((1...SweepGrid.pointsMax).contains(grid.count))
        for index in Set([0, grid.count - 1]).sorted() {
            load(grid.point(index).map { ScenarioLoader.Override(path: $0.path, value: $0.value) })
        }
    }

    /// Loads the sweep scenario with `overrides`, under its base and its policy.
    private static func load(_ overrides: [ScenarioLoader.Override]) {
        for policy in [nil, "slow"] {
            _ = try? ScenarioLoader.parse(sweepScenario, path: shortTrace + ".json5", policy: policy, overrides: overrides)
        }
    }

    /// A scenario beside the short trace, with a policy to override.
    static let sweepScenario = """
        {
          traces: ["trace.jsonl"],
          replications: 1,
          debounce: { sentenceEndMs: 400, otherwiseMs: 2000 },
          policies: { slow: { debounce: { otherwiseMs: 3000 } } },
        }
        """
}
