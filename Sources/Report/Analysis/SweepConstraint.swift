import Foundation
import Scenarios

/// A condition a sweep point must meet to be recommended, `--where 'METRIC OP NUMBER'`:
/// judged on the point's mean of that run metric (its interval is shown beside it).
public struct SweepConstraint: Sendable, Equatable, CustomStringConvertible {
    /// A comparison.
    public enum Relation: String, Sendable, Equatable, CaseIterable {
        case atMost = "<="
        case atLeast = ">="
        case below = "<"
        case above = ">"

        /// Whether `value` stands in this relation to `bound`.
        public func holds(_ value: Double, _ bound: Double) -> Bool {
            switch self {
            case .atMost: value <= bound
            case .atLeast: value >= bound
            case .below: value < bound
            case .above: value > bound
            }
        }
    }

    /// The run metric's name.
    public var metric: String
    /// How the mean must compare with `bound`.
    public var relation: Relation
    /// The bound, in the metric's unit.
    public var bound: Double

    /// Creates a constraint.
    public init(metric: String, relation: Relation, bound: Double) {
        self.metric = metric
        self.relation = relation
        self.bound = bound
    }

    /// `verdict_coverage >= 0.7`, as `--where` takes it.
    public var description: String { "\(metric) \(relation.rawValue) \(JSONWriter.number(bound))" }

    /// Whether a point whose mean is `mean` meets it (a point without a value does not).
    public func holds(mean: Double?) -> Bool { mean.map { relation.holds($0, bound) } ?? false }

    /// Parses `METRIC OP NUMBER` (spaces optional; OP one of `<=`, `>=`, `<`, `>`), the
    /// metric one of `metrics`.
    /// - Throws: `SweepGridError` naming what is wrong, with "did you mean" for a metric.
    public static func parse(_ text: String, metrics: [String]) throws(SweepGridError) -> SweepConstraint {
        // The two-character relations first, so that `<=` is not read as `<`.
        let relations: [Relation] = [.atMost, .atLeast, .below, .above]
        for relation in relations {
            guard let range = text.range(of: relation.rawValue) else { continue }
            let metric = text[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            let number = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
            guard !metric.isEmpty, let bound = Double(number), bound.isFinite else { break }
            guard metrics.contains(metric) else {
                throw SweepGridError("--where \(text): no run metric named \(NameSuggester.quoted(metric))"
                                     + (NameSuggester.suggestion(for: metric, among: metrics).map { "; did you mean '\($0)'?" } ?? ""))
            }
            return SweepConstraint(metric: metric, relation: relation, bound: bound)
        }
        throw SweepGridError("--where needs METRIC OP NUMBER with OP one of <=, >=, <, >, such as 'verdict_coverage >= 0.7', not '\(text)'")
    }
}
