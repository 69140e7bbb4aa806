import Sim

/// Reads typed fields out of a `ConfigValue` object, tracking the field path for errors and
/// refusing keys the reader never asked for (a misspelt field must not be silently ignored).
///
///     var reader = try ConfigReader(value, path: "network", file: file)
///     let rtt = try reader.optional("rtt") { try Distribution(config: $0) } ?? .constant(60)
///     try reader.finish()
public struct ConfigReader {
    /// The object being read.
    public let value: ConfigValue
    /// The dotted path of the object ("" at the top).
    public let path: String
    /// The scenario file, for errors.
    public let file: String
    private var members: [ConfigValue.Member]
    private var known: [String] = []

    /// Starts reading `value`, which must be an object.
    public init(_ value: ConfigValue, path: String, file: String) throws(ConfigError) {
        self.value = value
        self.path = path
        self.file = file
        guard case .object(let members) = value.kind else {
            throw ConfigError(file: file, line: value.line, column: value.column, path: path,
                              message: "expected an object, found \(value.typeName)")
        }
        self.members = members
    }

    /// The path of a member.
    public func path(of key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// An error about this object itself.
    public func error(_ message: String) -> ConfigError {
        ConfigError(file: file, line: value.line, column: value.column, path: path, message: message)
    }

    /// An error about one of its members (positioned at the member when present).
    public func error(_ key: String, _ message: String) -> ConfigError {
        let at = members.first { $0.key == key }?.value ?? value
        return ConfigError(file: file, line: at.line, column: at.column, path: path(of: key), message: message)
    }

    /// Whether the object has the member.
    public func has(_ key: String) -> Bool { members.contains { $0.key == key } }

    /// Reads an optional member through `read`, which gets a `ConfigField` to decode.
    public mutating func optional<T>(_ key: String, _ read: (ConfigField) throws(ConfigError) -> T) throws(ConfigError) -> T? {
        known.append(key)
        guard let member = members.first(where: { $0.key == key }) else { return nil }
        if case .null = member.value.kind { return nil }
        return try read(ConfigField(value: member.value, path: path(of: key), file: file))
    }

    /// Reads a required member.
    public mutating func required<T>(_ key: String, _ read: (ConfigField) throws(ConfigError) -> T) throws(ConfigError) -> T {
        guard let value = try optional(key, read) else { throw error("missing required field '\(key)'") }
        return value
    }

    /// Declares keys that are read elsewhere (so `finish()` accepts them).
    public mutating func allow(_ keys: String...) { known.append(contentsOf: keys) }

    /// Throws for the first member that was never asked for, suggesting the closest known
    /// field or naming them all. Linear in the length of the unknown name, however long
    /// (`NameSuggester`), and the message quotes a long name shortened.
    public func finish() throws(ConfigError) {
        for member in members where !known.contains(member.key) {
            let hint = NameSuggester.suggestion(for: member.key, among: known).map { "did you mean '\($0)'?" }
                ?? "known fields: \(known.sorted().joined(separator: ", "))"
            throw ConfigError(file: file, line: member.value.line, column: member.value.column,
                              path: path(of: NameSuggester.shortened(member.key)),
                              message: "unknown field \(NameSuggester.quoted(member.key)); \(hint)")
        }
    }
}

/// One value being decoded, with its path and position for errors.
public struct ConfigField {
    /// The value.
    public let value: ConfigValue
    /// Its dotted path.
    public let path: String
    /// The scenario file.
    public let file: String

    /// An error positioned at this value.
    public func error(_ message: String) -> ConfigError {
        ConfigError(file: file, line: value.line, column: value.column, path: path, message: message)
    }

    /// The value as an object reader.
    public func object() throws(ConfigError) -> ConfigReader { try ConfigReader(value, path: path, file: file) }

    /// A finite number.
    public func number() throws(ConfigError) -> Double {
        guard case .number(let x) = value.kind else { throw error("expected a number, found \(value.typeName)") }
        guard x.isFinite else { throw error("must be a finite number") }
        return x
    }

    /// A number that is ≥ 0 (durations, rates, sizes).
    public func nonNegative() throws(ConfigError) -> Double {
        let x = try number()
        guard x >= 0 else { throw error("must not be negative (got \(Self.format(x)))") }
        return x
    }

    /// A number that is > 0.
    public func positive() throws(ConfigError) -> Double {
        let x = try number()
        guard x > 0 else { throw error("must be greater than 0 (got \(Self.format(x)))") }
        return x
    }

    /// A number in a closed range.
    public func number(in range: ClosedRange<Double>) throws(ConfigError) -> Double {
        let x = try number()
        guard range.contains(x) else {
            throw error("must be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound)) (got \(Self.format(x)))")
        }
        return x
    }

    /// A probability in [0, 1].
    public func probability() throws(ConfigError) -> Double { try number(in: 0...1) }

    /// A whole number in a range.
    public func integer(in range: ClosedRange<Int> = Int.min...Int.max) throws(ConfigError) -> Int {
        let x = try number()
        guard x == x.rounded(), abs(x) < 9.0e15 else { throw error("expected a whole number, found \(Self.format(x))") }
        let n = Int(x)
        guard range.contains(n) else { throw error("must be between \(range.lowerBound) and \(range.upperBound) (got \(n))") }
        return n
    }

    /// A whole number up to 2^63 − 1 exactly, as a seed may be: written as a decimal
    /// integer it is read digit for digit, not through a `Double`.
    public func integer64(in range: ClosedRange<Int64>) throws(ConfigError) -> Int64 {
        if let exact = value.integerLiteral {
            guard range.contains(exact) else { throw error("must be between \(range.lowerBound) and \(range.upperBound) (got \(exact))") }
            return exact
        }
        let x = try number()
        guard x == x.rounded(), abs(x) < 9.0e15 else {
            throw error(x == x.rounded() ? "must be between \(range.lowerBound) and \(range.upperBound) (got \(Self.format(x)))"
                        : "expected a whole number, found \(Self.format(x))")
        }
        return try Int64(integer(in: Int(range.lowerBound)...Int(range.upperBound)))
    }

    /// A duration given in milliseconds, as `ValueLimits` says: finite, not negative (with
    /// `positive`, greater than 0) and at most about 104 days.
    public func milliseconds(positive: Bool = false) throws(ConfigError) -> SimDuration {
        SimDuration(milliseconds: try durationMs(positive: positive))
    }

    /// `milliseconds(positive:)` as a number of milliseconds, for the models that keep one.
    public func durationMs(positive: Bool = false) throws(ConfigError) -> Double {
        let x = try positive ? self.positive() : nonNegative()
        if let problem = ValueLimits.durationProblem(ms: x, text: Self.format(x)) { throw error(problem) }
        return x
    }

    /// A string.
    public func string() throws(ConfigError) -> String {
        guard case .string(let s) = value.kind else { throw error("expected a string, found \(value.typeName)") }
        return s
    }

    /// A boolean.
    public func bool() throws(ConfigError) -> Bool {
        guard case .bool(let b) = value.kind else { throw error("expected true or false, found \(value.typeName)") }
        return b
    }

    /// One of a fixed set of strings.
    public func oneOf(_ choices: [String]) throws(ConfigError) -> String {
        let s = try string()
        guard choices.contains(s) else {
            throw error("unknown value \(NameSuggester.quoted(s)); expected one of: \(choices.joined(separator: ", "))"
                        + NameSuggester.hint(for: s, among: choices))
        }
        return s
    }

    /// An array whose elements are read by `read`.
    public func array<T>(_ read: (ConfigField) throws(ConfigError) -> T) throws(ConfigError) -> [T] {
        guard case .array(let elements) = value.kind else { throw error("expected an array, found \(value.typeName)") }
        var out: [T] = []
        out.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            out.append(try read(ConfigField(value: element, path: "\(path)[\(i)]", file: file)))
        }
        return out
    }

    /// Formats a number without a needless ".0".
    static func format(_ x: Double) -> String {
        NumberText.shortest(x)
    }
}
