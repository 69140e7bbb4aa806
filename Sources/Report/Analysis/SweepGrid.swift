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
    /// or a single value (an object or array in JSON5 is one value, commas and all).
    /// - Throws: `SweepGridError` for a missing path, an empty range or list, a bad number.
    public static func parse(_ text: String) throws(SweepGridError) -> SweepParameter {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw SweepGridError("--set needs PATH=VALUES, such as debounce.otherwiseMs=250..5000/250, not '\(text)'")
        }
        let path = String(text[..<equals])
        let spec = String(text[text.index(after: equals)...]).trimmingSpaces
        guard !path.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
            throw SweepGridError("--set \(text): '\(path)' is not a field path such as debounce.otherwiseMs")
        }
        guard !spec.isEmpty else { throw SweepGridError("--set \(path)= needs a value, a list A,B,C or a range LOW..HIGH/STEP") }
        if spec.hasPrefix("{") || spec.hasPrefix("[") || spec.hasPrefix("\"") || spec.hasPrefix("'") {
            return SweepParameter(path: path, values: [value(spec)])
        }
        if spec.contains("..") { return SweepParameter(path: path, values: try range(spec, path: path)) }
        if spec.contains(",") {
            let items = spec.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
            guard !items.contains(where: \.isEmpty) else {
                throw SweepGridError("--set \(path)=\(spec): the list has an empty item")
            }
            return SweepParameter(path: path, values: items.map(value))
        }
        return SweepParameter(path: path, values: [value(spec)])
    }

    /// The most values one parameter may take.
    public static let valuesMax = 10_000

    private static func range(_ spec: String, path: String) throws(SweepGridError) -> [ConfigValue] {
        let bounds = spec.components(separatedBy: "..")
        let tail = bounds.count == 2 ? bounds[1].split(separator: "/", omittingEmptySubsequences: false) : []
        guard bounds.count == 2, tail.count <= 2 else {
            throw SweepGridError("--set \(path)=\(spec): a range is LOW..HIGH/STEP, such as 250..5000/250")
        }
        guard tail.count == 2 else {
            throw SweepGridError("--set \(path)=\(spec): the range needs a step, such as \(spec)/\(bounds[0].isEmpty ? "1" : "STEP")")
        }
        guard let low = Double(bounds[0].trimmingSpaces), let high = Double(String(tail[0]).trimmingSpaces),
              let step = Double(String(tail[1]).trimmingSpaces), low.isFinite, high.isFinite, step.isFinite else {
            throw SweepGridError("--set \(path)=\(spec): LOW, HIGH and STEP must be numbers")
        }
        guard step > 0 else { throw SweepGridError("--set \(path)=\(spec): the step must be greater than zero") }
        guard high >= low else {
            throw SweepGridError("--set \(path)=\(spec): empty range (\(JSONText.number(high)) is below \(JSONText.number(low)))")
        }
        // A small tolerance keeps 0.1..0.3/0.1 from losing its last value to rounding.
        let steps = ((high - low) / step * (1 + 1e-12)).rounded(.down)
        guard steps < Double(valuesMax) else {
            throw SweepGridError("--set \(path)=\(spec): \(Int(steps) + 1) values; at most \(valuesMax) per parameter")
        }
        return (0...Int(steps)).map { i in
            let x = low + Double(i) * step
            // Print 0.30000000000000004 as 0.3: nine significant decimals are plenty here.
            let rounded = (x * 1e9).rounded() / 1e9
            return ConfigValue(.number(rounded))
        }
    }

    private static func value(_ text: String) -> ConfigValue {
        let parsed = (try? JSON5Parser.parse(text)) ?? ConfigValue(.string(text))
        return parsed.unpositioned
    }
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
        let count = parameters.reduce(1.0) { $0 * Double($1.values.count) }
        guard count <= Double(Self.pointsMax) else {
            throw SweepGridError("the grid has \(Int(count)) points; at most \(Self.pointsMax)")
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
        "{" + settings.map { JSONText.quoted($0.path) + ":" + jsonValue($0.value) }.joined(separator: ",") + "}"
    }

    private static func jsonValue(_ value: ConfigValue) -> String {
        if case .number(let x) = value.kind { return JSONText.number(x) }
        return ScenarioFingerprint.canonicalText(value)
    }

    /// A value as a table shows it: numbers without a needless `.0`, strings unquoted.
    public static func display(_ value: ConfigValue) -> String {
        switch value.kind {
        case .number(let x): JSONText.number(x)
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

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
