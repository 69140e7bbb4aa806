import Sim

extension Distribution {
    /// The distribution kinds a scenario may name in `type`.
    public static let configKinds = ["constant", "uniform", "normal", "lognormal", "exponential", "gamma",
                                     "weibull", "shifted", "pareto", "empirical", "quantiles", "mixture", "measured"]

    /// The fields each kind needs, as documented (docs/scenario-format.md, "Distributions");
    /// `lognormal` has two forms.
    static let configForms: [String: [[String]]] = [
        "constant": [["valueMs"]], "uniform": [["minMs", "maxMs"]], "normal": [["meanMs", "stddevMs"]],
        "lognormal": [["medianMs", "p99Ms"], ["mu", "sigma"]], "exponential": [["meanMs"]], "gamma": [["shape", "scaleMs"]],
        "weibull": [["shape", "scaleMs"]], "shifted": [["shiftMs", "distribution"]], "measured": [["trace", "kind"]],
        "pareto": [["scaleMs", "shape"]], "empirical": [["samplesMs"]], "quantiles": [["table"]], "mixture": [["components"]],
    ]

    /// What a distribution of `kind` needs, in the words of the documentation:
    /// `lognormal needs 'medianMs' and 'p99Ms' (or 'mu' and 'sigma')`.
    static func needs(_ kind: String) -> String {
        let forms = (configForms[kind] ?? []).map { form in
            form.map { "'\($0)'" }.joined(separator: " and ")
        }
        guard let first = forms.first else { return kind }
        let others = forms.dropFirst().map { " (or \($0))" }.joined()
        return "\(kind) needs \(first)\(others)"
    }

    /// Reads a distribution of milliseconds from a scenario field. Values that are durations
    /// (a constant, a uniform's ends, a shift, samples, a quantile table's milliseconds) are
    /// checked against `ValueLimits`; scale parameters are only finite and positive.
    ///
    /// A bare number is a constant. Otherwise an object with a `type`:
    /// `{type: "lognormal", medianMs: 3, p99Ms: 9}` or `{type: "lognormal", mu: 1.1, sigma: 0.5}`,
    /// `{type: "normal", meanMs, stddevMs}` (truncated at zero), `{type: "uniform", minMs, maxMs}`,
    /// `{type: "exponential", meanMs}`, `{type: "gamma", shape, scaleMs}`,
    /// `{type: "weibull", shape, scaleMs}`, `{type: "shifted", shiftMs, distribution: {...}}`
    /// (a fixed minimum plus a draw), `{type: "measured", trace: "device.jsonl", kind: "lookup"}`
    /// (the durations a trace measured for that kind, replayed as an empirical distribution;
    /// the path is relative to the scenario file), `{type: "pareto", scaleMs, shape}`, `{type: "empirical", samplesMs: [...]}`,
    /// `{type: "quantiles", table: [[0, 1.5], [0.5, 3], [1, 20]]}` (p, milliseconds),
    /// `{type: "mixture", components: [{weight: 0.9, distribution: {...}}, ...]}`.
    public init(config field: ConfigField) throws(ConfigError) {
        if case .number = field.value.kind {
            self = .constant(try field.durationMs())
            return
        }
        var o = try field.object()
        let kind = try o.required("type") { f throws(ConfigError) in try f.oneOf(Self.configKinds) }
        // The form the object started (the first with any of its fields present) must be
        // complete; naming one missing field of one form would hide the documented ones.
        let forms = Self.configForms[kind] ?? []
        let started = forms.first { form in form.contains { o.has($0) } } ?? forms.first ?? []
        guard started.allSatisfy({ o.has($0) }) else { throw o.error(Self.needs(kind)) }
        switch kind {
        case "constant":
            self = .constant(try o.required("valueMs") { f throws(ConfigError) in try f.durationMs() })
        case "uniform":
            let low = try o.required("minMs") { f throws(ConfigError) in try f.durationMs() }
            let high = try o.required("maxMs") { f throws(ConfigError) in try f.durationMs() }
            guard high >= low else { throw o.error("maxMs", "must be at least minMs (\(low))") }
            self = .uniform(min: low, max: high)
        case "normal":
            self = .normal(mean: try o.required("meanMs") { f throws(ConfigError) in try f.number() },
                           stddev: try o.required("stddevMs") { f throws(ConfigError) in try f.positive() })
        case "lognormal":
            if o.has("medianMs") || o.has("p99Ms") {
                let median = try o.required("medianMs") { f throws(ConfigError) in try f.positive() }
                let p99 = try o.required("p99Ms") { f throws(ConfigError) in try f.positive() }
                guard p99 > median else { throw o.error("p99Ms", "must be greater than medianMs (\(median))") }
                self = .lognormal(median: median, p99: p99)
            } else {
                self = .lognormal(mu: try o.required("mu") { f throws(ConfigError) in try f.number() },
                                  sigma: try o.required("sigma") { f throws(ConfigError) in try f.positive() })
            }
        case "exponential":
            self = .exponential(mean: try o.required("meanMs") { f throws(ConfigError) in try f.positive() })
        case "gamma":
            self = .gamma(shape: try o.required("shape") { f throws(ConfigError) in try f.positive() },
                          scale: try o.required("scaleMs") { f throws(ConfigError) in try f.positive() })
        case "weibull":
            self = .weibull(shape: try o.required("shape") { f throws(ConfigError) in try f.positive() },
                            scale: try o.required("scaleMs") { f throws(ConfigError) in try f.positive() })
        case "shifted":
            let shift = try o.required("shiftMs") { f throws(ConfigError) in try f.durationMs() }
            let base = try o.required("distribution") { d throws(ConfigError) in try Distribution(config: d) }
            self = .shifted(offset: shift, base: base)
        case "measured":
            self = try Self.measured(&o)
        case "pareto":
            self = .pareto(scale: try o.required("scaleMs") { f throws(ConfigError) in try f.positive() },
                           shape: try o.required("shape") { f throws(ConfigError) in try f.positive() })
        case "empirical":
            let samples = try o.required("samplesMs") { f throws(ConfigError) in
                try f.array { s throws(ConfigError) in try s.durationMs() }
            }
            guard !samples.isEmpty else { throw o.error("samplesMs", "needs at least one sample") }
            self = .empirical(samples: samples)
        case "quantiles":
            let table = try o.required("table") { f throws(ConfigError) in
                try f.array { row throws(ConfigError) -> QuantilePoint in
                    let pair = try row.array { x throws(ConfigError) in try x.number() }
                    guard pair.count == 2 else { throw row.error("expected [p, milliseconds]") }
                    guard (0...1).contains(pair[0]) else { throw row.error("p must be between 0 and 1") }
                    guard pair[1] >= 0 else { throw row.error("milliseconds must not be negative") }
                    if let problem = ValueLimits.durationProblem(ms: pair[1], text: ConfigField.format(pair[1])) {
                        throw row.error("milliseconds " + problem)
                    }
                    return QuantilePoint(p: pair[0], value: pair[1])
                }
            }
            guard table.count >= 2, table.first?.p == 0, table.last?.p == 1 else {
                throw o.error("table", "needs at least two rows, from p = 0 to p = 1")
            }
            for i in 1..<table.count where table[i].p <= table[i - 1].p || table[i].value < table[i - 1].value {
                throw o.error("table", "row \(i): p must increase and milliseconds must not decrease")
            }
            self = .quantileTable(table)
        case "mixture":
            let components = try o.required("components") { f throws(ConfigError) in
                try f.array { c throws(ConfigError) -> MixtureComponent in
                    var m = try c.object()
                    let weight = try m.required("weight") { w throws(ConfigError) in try w.positive() }
                    let inner = try m.required("distribution") { d throws(ConfigError) in try Distribution(config: d) }
                    try m.finish()
                    return MixtureComponent(weight: weight, distribution: inner)
                }
            }
            guard !components.isEmpty else { throw o.error("components", "needs at least one component") }
            self = .mixture(components)
        default:
            preconditionFailure("oneOf returned an unlisted kind")
        }
        try o.finish()
        if let problem = validate().first {
            throw o.error(problem.field, problem.message)
        }
    }
}
