/// One thing wrong with a distribution's parameters, named so that a scenario loader can
/// point at the offending field: `field` is a path such as "stddev", "points[2].p" or
/// "components[1].distribution.sigma", relative to the distribution.
public struct DistributionProblem: Sendable, Equatable, CustomStringConvertible {
    /// The path of the offending parameter, relative to the distribution.
    public var field: String
    /// What is wrong, as a sentence fragment after the field: "must be > 0".
    public var message: String

    /// Creates a problem report.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// "field: message".
    public var description: String { "\(field): \(message)" }
}

extension Distribution {
    /// Every problem with the parameters, in field order; empty when the distribution may be
    /// sampled. Checks finiteness, signs, orderings, emptiness and limits, recursing into
    /// mixture components with paths like "components[1].distribution.sigma".
    ///
    /// For `.empirical`, one problem names the first bad sample and counts the others, so
    /// that a large sample set does not flood the report.
    /// - Complexity: O(n) in the number of samples, points or (nested) components.
    public func validate() -> [DistributionProblem] {
        var problems: [DistributionProblem] = []
        collectProblems(into: &problems, prefix: "")
        return problems
    }

    /// The problems with the inputs of `lognormal(median:p99:)`, named after them: a
    /// scenario written in medians and percentiles gets errors in those terms.
    public static func validateLognormal(median: Double, p99: Double) -> [DistributionProblem] {
        var problems: [DistributionProblem] = []
        if !median.isFinite || median <= 0 {
            problems.append(DistributionProblem(field: "median", message: "must be finite and > 0"))
        }
        if !p99.isFinite {
            problems.append(DistributionProblem(field: "p99", message: "must be finite"))
        } else if p99 <= median {
            problems.append(DistributionProblem(field: "p99", message: "must be > median"))
        }
        return problems
    }

    private func collectProblems(into problems: inout [DistributionProblem], prefix: String) {
        func report(_ field: String, _ message: String) {
            problems.append(DistributionProblem(field: prefix + field, message: message))
        }
        func requireNonNegative(_ field: String, _ value: Double) {
            if !value.isFinite {
                report(field, "must be finite")
            } else if value < 0 {
                report(field, "must be >= 0")
            }
        }
        func requirePositive(_ field: String, _ value: Double) {
            if !value.isFinite {
                report(field, "must be finite")
            } else if value <= 0 {
                report(field, "must be > 0")
            }
        }

        switch self {
        case .constant(let value):
            requireNonNegative("value", value)
        case .uniform(let min, let max):
            requireNonNegative("min", min)
            requireNonNegative("max", max)
            if min.isFinite && max.isFinite && min > max {
                report("max", "must be >= min")
            }
        case .normal(let mean, let stddev):
            // A negative mean would be a valid truncated normal, but it is almost surely a
            // typo, and its `mean` would then say little about the values actually drawn.
            requireNonNegative("mean", mean)
            requirePositive("stddev", stddev)
        case .lognormal(let mu, let sigma):
            if !mu.isFinite { report("mu", "must be finite") }
            requirePositive("sigma", sigma)
        case .exponential(let mean):
            requirePositive("mean", mean)
        case .gamma(let shape, let scale):
            requirePositive("shape", shape)
            if shape.isFinite && shape > SpecialFunctions.gammaShapeMax {
                report("shape", "must be <= 1e6 (use normal for a nearly constant value)")
            }
            requirePositive("scale", scale)
        case .pareto(let scale, let shape):
            requirePositive("scale", scale)
            requirePositive("shape", shape)
        case .weibull(let shape, let scale):
            requirePositive("shape", shape)
            requirePositive("scale", scale)
        case .shifted(let offset, let base):
            requireNonNegative("offset", offset)
            base.collectProblems(into: &problems, prefix: prefix + "base.")
        case .empirical(let samples):
            if samples.isEmpty {
                report("samples", "must not be empty")
            }
            var firstBad: Int?
            var badCount = 0
            for (index, sample) in samples.enumerated() where !(sample.isFinite && sample >= 0) {
                if firstBad == nil { firstBad = index }
                badCount += 1
            }
            if let firstBad {
                let others = badCount > 1 ? " (\(badCount - 1) more samples are not)" : ""
                report("samples[\(firstBad)]", "must be finite and >= 0\(others)")
            }
        case .quantileTable(let points):
            collectTableProblems(points, report: report)
        case .mixture(let components):
            if components.isEmpty {
                report("components", "must not be empty")
            }
            for (index, component) in components.enumerated() {
                requirePositive("components[\(index)].weight", component.weight)
                component.distribution.collectProblems(
                    into: &problems, prefix: prefix + "components[\(index)].distribution.")
            }
        }
    }

    private func collectTableProblems(
        _ points: [QuantilePoint], report: (String, String) -> Void
    ) {
        guard points.count >= 2 else {
            report("points", "needs at least 2 points (p = 0 and p = 1)")
            return
        }
        for (index, point) in points.enumerated() {
            let pField = "points[\(index)].p"
            let valueField = "points[\(index)].value"
            if !(point.p >= 0 && point.p <= 1) {
                report(pField, "must be in [0, 1]")
            } else if index == 0 && point.p != 0 {
                report(pField, "must be 0")
            } else if index == points.count - 1 && point.p != 1 {
                report(pField, "must be 1")
            } else if index > 0 && !(point.p > points[index - 1].p) {
                report(pField, "must be > points[\(index - 1)].p")
            }
            if !point.value.isFinite {
                report(valueField, "must be finite")
            } else if point.value < 0 {
                report(valueField, "must be >= 0")
            } else if index > 0 && point.value < points[index - 1].value {
                report(valueField, "must be >= points[\(index - 1)].value")
            }
        }
    }
}
