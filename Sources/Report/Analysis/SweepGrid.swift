import Foundation
import Scenarios

/// One swept scenario field and the values it takes.
public struct SweepParameter: Sendable, Equatable {
    /// The dotted field path, such as `debounce.otherwiseMs`.
    public var path: String
    /// The values, in sweep order.
    public var values: [ConfigValue]

    /// Creates a parameter.
    public init(path: String, values: [ConfigValue]) {
        self.path = path
        self.values = values
    }

    /// Parses `PATH=SPEC`: a range `LOW..HIGH/STEP` (both ends included), a list `A,B,C`,
    /// or a single value, in the grammar of `ScenarioLoader.Override.parseValues`.
    /// - Throws: `SweepGridError` for a missing path, an empty range or list, a bad number.
    public static func parse(_ text: String) throws(SweepGridError) -> SweepParameter {
        do {
            let (path, values) = try ScenarioLoader.Override.parseValues(text)
            return SweepParameter(path: path, values: values)
        } catch {
            throw SweepGridError(error.message)
        }
    }

    /// The most values one parameter may take.
    public static let valuesMax = ScenarioLoader.Override.valuesMax
}

/// The points of a sweep: every combination of the parameters' values, the first
/// parameter varying slowest.
public struct SweepGrid: Sendable, Equatable {
    /// The swept parameters, in command-line order.
    public var parameters: [SweepParameter]

    /// The most points a sweep may have.
    public static let pointsMax = 100_000

    /// Creates a grid.
    /// - Throws: `SweepGridError` when a path is swept twice or there are too many points.
    public init(_ parameters: [SweepParameter]) throws(SweepGridError) {
        var seen: Set<String> = []
        for parameter in parameters where !seen.insert(parameter.path).inserted {
            throw SweepGridError("--set \(parameter.path) is given more than once")
        }
        // Counted in doubles (no overflow) and named only while it is a plain figure: eighty
        // parameters of 10,000 values each have more points than a double holds.
        let count = parameters.reduce(1.0) { $0 * Double($1.values.count) }
        guard count <= Double(Self.pointsMax) else {
            let points = count < 1e15 ? "\(Int(count)) points" : "more than \(Self.pointsMax) points"
            throw SweepGridError("the grid has \(points); at most \(Self.pointsMax)")
        }
        self.parameters = parameters
    }

    /// The number of points.
    public var count: Int { parameters.reduce(1) { $0 * $1.values.count } }

    /// The settings of point `index`: one value per parameter, in parameter order.
    public func point(_ index: Int) -> [(path: String, value: ConfigValue)] {
        var rest = index
        var settings: [(path: String, value: ConfigValue)] = []
        for parameter in parameters.reversed() {
            settings.append((parameter.path, parameter.values[rest % parameter.values.count]))
            rest /= parameter.values.count
        }
        return settings.reversed()
    }

    /// A short label: `debounce.otherwiseMs=250, network.x=3`.
    public static func label(_ settings: [(path: String, value: ConfigValue)]) -> String {
        settings.map { "\($0.path)=\(display($0.value))" }.joined(separator: ", ")
    }

    /// The settings as a JSON object, in parameter order.
    public static func json(_ settings: [(path: String, value: ConfigValue)]) -> String {
        "{" + settings.map { JSONWriter.quoted($0.path) + ":" + jsonValue($0.value) }.joined(separator: ",") + "}"
    }

    private static func jsonValue(_ value: ConfigValue) -> String {
        if case .number(let x) = value.kind { return JSONWriter.number(x) }
        return ScenarioFingerprint.canonicalText(value)
    }

    /// A value as a table shows it: numbers without a needless `.0`, strings unquoted.
    public static func display(_ value: ConfigValue) -> String {
        switch value.kind {
        case .number(let x): JSONWriter.number(x)
        case .string(let s): s
        default: ScenarioFingerprint.canonicalText(value)
        }
    }
}

/// A bad sweep specification.
public struct SweepGridError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong.
    public let message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
