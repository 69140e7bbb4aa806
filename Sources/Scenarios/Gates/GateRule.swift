/// One rule of `keysim gate`: a bound on one metric of the candidate, alone or against the
/// baseline.
///
/// Rules come from a scenario's `gates` section or a rules file (`docs/scenario-format.md`,
/// "Gates"). The metric is named as in `run_metrics` (`key_latency_p99_ms`); the names are
/// checked when the gate runs, against the metrics that build knows, so a metric added later
/// can be gated without touching this type.
public struct GateRule: Sendable, Equatable {
    /// What the rule bounds.
    public enum Bound: Sendable, Equatable {
        /// The candidate's mean is at most this value (an absolute budget).
        case atMost(Double)
        /// The candidate's mean is at least this value (for metrics where higher is better).
        case atLeast(Double)
        /// The candidate is no worse than the baseline by more than this amount, in the
        /// metric's unit.
        case regression(Double)
        /// The candidate is no worse than the baseline by more than this share of the
        /// baseline's mean (0.05 for 5 %).
        case relativeRegression(Double)
    }

    /// The metric's name (`key_latency_p99_ms`).
    public var metric: String
    /// The bound.
    public var bound: Bound
    /// The confidence level of a regression bound's interval (0.95 unless given).
    public var confidence: Double
    /// A name for reports, or nil to describe the rule from its metric and bound.
    public var name: String?
    /// Where the rule was written, for errors about it.
    public var origin: ConfigError

    /// The confidence level used when a rule gives none.
    public static let defaultConfidence = 0.95
    /// The confidence levels a rule may ask for.
    public static let confidenceRange: ClosedRange<Double> = 0.5...0.999

    /// Creates a rule.
    public init(metric: String, bound: Bound, confidence: Double = defaultConfidence, name: String? = nil,
                origin: ConfigError = ConfigError(file: "", line: 0, column: 0, path: "", message: "")) {
        self.metric = metric
        self.bound = bound
        self.confidence = confidence
        self.name = name
        self.origin = origin
    }

    /// An error about this rule, positioned where it was written.
    public func error(_ message: String) -> ConfigError {
        var error = origin
        error.message = message
        return error
    }
}
