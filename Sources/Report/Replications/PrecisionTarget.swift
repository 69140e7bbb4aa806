import Foundation

/// How narrow a metric's 95 % interval must be before `--replications auto` stops: a share
/// of the metric's mean ("5%") or an amount in a unit ("0.2ms", "0.001share", or a bare
/// number for every unit).
public struct PrecisionTarget: Sendable, Equatable, CustomStringConvertible {
    /// Relative or absolute.
    public enum Kind: Sendable, Equatable {
        /// The half-width is at most this share of the reference mean (0.05 for 5 %).
        case relative(Double)
        /// The half-width is at most this amount; with a unit, only metrics in that unit are held to it.
        case absolute(Double, unit: String?)
    }

    /// The target.
    public var kind: Kind

    /// The target `keysim` uses when none is given: 5 %.
    public static let standard = PrecisionTarget(kind: .relative(0.05))

    /// Creates a target.
    public init(kind: Kind) { self.kind = kind }

    /// Parses "5%", "0.2ms", "0.2 ms" or "0.2"; the units are those of the run metrics.
    /// - Throws: a message for the user when the text is none of these.
    public static func parse(_ text: String) throws(PrecisionTargetError) -> PrecisionTarget {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("%") {
            guard let percent = Double(trimmed.dropLast().trimmingCharacters(in: .whitespaces)), percent > 0, percent < 1000 else {
                throw PrecisionTargetError(message: "--precision \(text): a percentage must be a number above 0, such as 5%")
            }
            return PrecisionTarget(kind: .relative(percent / 100))
        }
        let numberPart = trimmed.prefix { $0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "-" || $0 == "+" }
        let unit = trimmed.dropFirst(numberPart.count).trimmingCharacters(in: .whitespaces)
        guard let amount = Double(numberPart), amount > 0, amount.isFinite else {
            throw PrecisionTargetError(message: "--precision \(text): give a percentage (5%) or an amount in a metric's unit (0.2ms)")
        }
        let units = Self.units
        guard unit.isEmpty || units.contains(unit) else {
            throw PrecisionTargetError(message: "--precision \(text): unknown unit '\(unit)'; the metrics' units are \(units.joined(separator: ", "))")
        }
        return PrecisionTarget(kind: .absolute(amount, unit: unit.isEmpty ? nil : unit))
    }

    /// The units of the run metrics, in `RunMetric.all` order without repeats.
    public static var units: [String] {
        var seen: [String] = []
        for metric in RunMetric.all where !seen.contains(metric.unit) { seen.append(metric.unit) }
        return seen
    }

    /// Whether an interval of `halfWidth` around a figure whose reference mean is
    /// `reference`, in `unit`, is narrow enough. A metric in another unit than an absolute
    /// target's is not held to it.
    public func isMet(halfWidth: Double, reference: Double, unit: String) -> Bool {
        switch kind {
        case .relative(let share): halfWidth <= share * abs(reference)
        case .absolute(let amount, let targetUnit): targetUnit.map { $0 != unit } ?? false || halfWidth <= amount
        }
    }

    /// The half-width allowed for a figure with mean `reference` in `unit`; nil when the
    /// target does not apply to that unit.
    public func allowedHalfWidth(reference: Double, unit: String) -> Double? {
        switch kind {
        case .relative(let share): share * abs(reference)
        case .absolute(let amount, let targetUnit): targetUnit.map { $0 != unit } ?? false ? nil : amount
        }
    }

    /// As given: "5%", "0.2 ms".
    public var description: String {
        switch kind {
        case .relative(let share): Gate.number((share * 1e6).rounded() / 1e4) + "%"
        case .absolute(let amount, let unit): Gate.number(amount) + (unit.map { " " + $0 } ?? "")
        }
    }
}

/// A `--precision` value keysim cannot read.
public struct PrecisionTargetError: Error, Sendable {
    /// What is wrong, for the user.
    public var message: String
}
