/// The grammar of `--set`: `PATH=VALUE` for `run`, `compare` and `gate`, and `PATH=VALUES`
/// for `sweep`, where VALUES is a range `LOW..HIGH/STEP` (both ends included), a list
/// `A,B,C`, or one value. A value is read as JSON5 (a number, a string, an object…), and as a
/// plain string when it does not parse. What a value may be is the field's business: the
/// scenario loader checks it exactly as the same value written in the file.
extension ScenarioLoader.Override {
    /// The most values one `PATH=VALUES` may give.
    public static let valuesMax = 10_000

    /// Parses `PATH=VALUE`.
    /// - Throws: `OverrideSyntaxError` without `=`, without a path or without a value.
    public static func parse(_ text: String) throws(OverrideSyntaxError) -> Self {
        guard let (path, raw) = split(text) else { throw OverrideSyntaxError("--set needs PATH=VALUE, not '\(text)'") }
        guard !raw.isEmpty else { throw OverrideSyntaxError("--set \(path)= needs a value") }
        return Self(path: path, value: value(raw))
    }

    /// Parses `PATH=VALUES`: a range, a list, or a single value (an object or array in JSON5
    /// is one value, commas and all).
    /// - Throws: `OverrideSyntaxError` for a missing path, an empty range or list, a bad
    ///   number, or more than `valuesMax` values.
    public static func parseValues(_ text: String) throws(OverrideSyntaxError) -> (path: String, values: [ConfigValue]) {
        guard let (path, raw) = split(text) else {
            throw OverrideSyntaxError("--set needs PATH=VALUES, such as debounce.otherwiseMs=250..5000/250, not '\(text)'")
        }
        let spec = raw.trimmingSpaces()
        guard !path.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
            throw OverrideSyntaxError("--set \(text): '\(path)' is not a field path such as debounce.otherwiseMs")
        }
        guard !spec.isEmpty else { throw OverrideSyntaxError("--set \(path)= needs a value, a list A,B,C or a range LOW..HIGH/STEP") }
        if spec.hasPrefix("{") || spec.hasPrefix("[") || spec.hasPrefix("\"") || spec.hasPrefix("'") {
            return (path, [value(spec)])
        }
        if spec.contains("..") { return (path, try range(spec, path: path)) }
        if spec.contains(",") {
            let items = spec.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
            guard !items.contains(where: \.isEmpty) else {
                throw OverrideSyntaxError("--set \(path)=\(spec): the list has an empty item")
            }
            guard items.count <= valuesMax else {
                throw OverrideSyntaxError("--set \(path): \(items.count) values; at most \(valuesMax) per parameter")
            }
            return (path, items.map(value))
        }
        return (path, [value(spec)])
    }

    /// `PATH` and what follows the first `=`, or nil when there is no `=` or no path.
    private static func split(_ text: String) -> (path: String, rest: String)? {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { return nil }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    /// `LOW..HIGH/STEP` as its values. The count of steps is found without overflow, even
    /// for ends near the largest double, and capped at `valuesMax` before any value is made.
    private static func range(_ spec: String, path: String) throws(OverrideSyntaxError) -> [ConfigValue] {
        let bounds = spec.components(separatedBy: "..")
        let tail = bounds.count == 2 ? bounds[1].split(separator: "/", omittingEmptySubsequences: false) : []
        guard bounds.count == 2, tail.count <= 2 else {
            throw OverrideSyntaxError("--set \(path)=\(spec): a range is LOW..HIGH/STEP, such as 250..5000/250")
        }
        guard tail.count == 2 else {
            throw OverrideSyntaxError("--set \(path)=\(spec): the range needs a step, such as \(spec)/\(bounds[0].isEmpty ? "1" : "STEP")")
        }
        guard let low = Double(bounds[0].trimmingSpaces()), let high = Double(String(tail[0]).trimmingSpaces()),
              let step = Double(String(tail[1]).trimmingSpaces()), low.isFinite, high.isFinite, step.isFinite else {
            throw OverrideSyntaxError("--set \(path)=\(spec): LOW, HIGH and STEP must be numbers")
        }
        guard step > 0 else { throw OverrideSyntaxError("--set \(path)=\(spec): the step must be greater than zero") }
        guard high >= low else {
            throw OverrideSyntaxError("--set \(path)=\(spec): empty range (\(ConfigField.format(high)) is below \(ConfigField.format(low)))")
        }
        // HIGH − LOW overflows when the ends are huge and of opposite signs; each end's share
        // of the steps does not.
        let span = high - low
        let exactSteps = span.isFinite ? span / step : high / step - low / step
        // A small tolerance keeps 0.1..0.3/0.1 from losing its last value to rounding.
        let steps = (exactSteps * (1 + 1e-12)).rounded(.down)
        guard steps < Double(valuesMax) else {
            let count = steps < 1e15 ? "\(Int(steps) + 1) values" : "more than \(valuesMax) values"
            throw OverrideSyntaxError("--set \(path)=\(spec): \(count); at most \(valuesMax) per parameter")
        }
        return (0...Int(steps)).map { i in
            // Halved, the sum cannot overflow where the span did; doubling back is exact.
            var x = span.isFinite ? low + Double(i) * step : 2 * (low / 2 + Double(i) * (step / 2))
            // The tolerance may add a last step a rounding past HIGH; at the largest double
            // that step would be infinite.
            if !x.isFinite { x = high }
            // Print 0.30000000000000004 as 0.3: nine significant decimals are plenty here
            // (and beyond 1e15 a double has no decimals to round).
            let rounded = abs(x) < 1e15 ? (x * 1e9).rounded() / 1e9 : x
            return ConfigValue(.number(rounded))
        }
    }

    /// A value as JSON5, or the text itself as a string when it does not parse; without
    /// positions, as a value typed on the command line has no place in the file.
    private static func value(_ text: String) -> ConfigValue {
        ((try? JSON5Parser.parse(text)) ?? ConfigValue(.string(text))).unpositioned
    }
}

/// A `--set` that does not follow the grammar: the message names the option and the text.
public struct OverrideSyntaxError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong, for the user.
    public let message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
