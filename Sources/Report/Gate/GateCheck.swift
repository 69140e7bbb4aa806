/// The verdict on one rule or budget of a gate, with the figures it was decided on.
public struct GateCheck: Sendable, Equatable {
    /// Where the check came from.
    public enum Kind: String, Sendable {
        /// A rule of the `gates` section or a rules file.
        case rule
        /// A latency budget of the scenario.
        case budget
    }

    /// A rule or a budget.
    public var kind: Kind
    /// The name reports show: the rule's own name or a description of it.
    public var name: String
    /// The metric: a run metric's name for rules, the latency metric for budgets.
    public var metric: String
    /// The metric's unit ("ms", "share", …).
    public var unit: String
    /// Whether it holds.
    public var passed: Bool
    /// One sentence with the measured figures: why it holds or fails.
    public var detail: String
    /// The measured value the bound applies to: the candidate's mean (absolute rules), how
    /// much worse the candidate is than the baseline (regression rules), or the candidate's
    /// share over the budget.
    public var measured: Double?
    /// The bound on `measured`, in the same unit.
    public var limit: Double
    /// By how much a failed check broke its bound (for a regression rule: the amount by
    /// which even the favourable end of the interval is over it); nil when it holds.
    public var excess: Double?
    /// The baseline's figure (its mean, or its share over the budget).
    public var baseline: Double?
    /// The candidate's figure.
    public var candidate: Double?
    /// The interval of `measured` at `confidence`, for regression rules.
    public var interval: ClosedRange<Double>?
    /// The confidence level of `interval`.
    public var confidence: Double?
    /// Pairs of runs (rules) or samples of the candidate (budgets) behind the figures.
    public var count: Int
    /// For a regression bound that held without ruling the regression out (the interval
    /// reaches past the bound): the pairs a paired t-test would need to detect a difference
    /// of the bound's size with 80 % power.
    public var pairsToDetectLimit: Int?
}
