extension GateRule {
    /// Reads a `gates` array: each element names a `metric` and one or more bounds (`max`,
    /// `min`, `maxRegression`), with an optional `confidence` and `name`. An element with
    /// several bounds gives one rule per bound, in the order max, min, maxRegression.
    ///
    ///     gates: [
    ///       { metric: "key_latency_p99_ms", max: 10 },
    ///       { metric: "key_latency_p99_ms", maxRegression: 0.5, confidence: 0.95 },
    ///       { metric: "requests_per_100_words", maxRegression: "5%" },
    ///     ]
    public static func rules(config field: ConfigField) throws(ConfigError) -> [GateRule] {
        let lists = try field.array { element throws(ConfigError) -> [GateRule] in try rules(element: element) }
        return lists.flatMap { $0 }
    }

    private static func rules(element: ConfigField) throws(ConfigError) -> [GateRule] {
        var o = try element.object()
        let metric = try o.required("metric") { f throws(ConfigError) in try f.string() }
        let name = try o.optional("name") { f throws(ConfigError) in try f.string() }
        let confidence = try o.optional("confidence") { f throws(ConfigError) in
            try f.number(in: confidenceRange)
        } ?? defaultConfidence
        var bounds: [Bound] = []
        if let max = try o.optional("max", { f throws(ConfigError) in try f.number() }) { bounds.append(.atMost(max)) }
        if let min = try o.optional("min", { f throws(ConfigError) in try f.number() }) { bounds.append(.atLeast(min)) }
        if let regression = try o.optional("maxRegression", readRegression) { bounds.append(regression) }
        try o.finish()
        guard !bounds.isEmpty else { throw element.error("needs a bound: max, min or maxRegression") }
        let origin = element.error("")
        return bounds.map { GateRule(metric: metric, bound: $0, confidence: confidence, name: name, origin: origin) }
    }

    /// `maxRegression`: a number in the metric's unit, or a string `"5%"` of the baseline.
    private static func readRegression(_ field: ConfigField) throws(ConfigError) -> Bound {
        if case .string(let text) = field.value.kind {
            guard text.hasSuffix("%"), let percent = Double(text.dropLast().trimmingSpaces), percent.isFinite, percent >= 0 else {
                throw field.error("expected a number in the metric's unit or a percentage such as \"5%\", found '\(text)'")
            }
            return .relativeRegression(percent / 100)
        }
        return .regression(try field.nonNegative())
    }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
