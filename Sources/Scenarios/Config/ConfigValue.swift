/// A value from a scenario file (JSON5), with the line and column it was written at so that
/// every error can point at its source like a compiler does.
public struct ConfigValue: Sendable, Equatable {
    /// The value itself.
    public var kind: Kind
    /// 1-based line of the value's first character (0 for values made by `--set`).
    public var line: Int
    /// 1-based column of the value's first character (0 for values made by `--set`).
    public var column: Int
    /// The exact value of a number written as a decimal integer that fits an `Int64`: seeds
    /// above 2^53 have no exact `Double`.
    public var integerLiteral: Int64?

    /// The shapes a JSON5 value can take.
    public enum Kind: Sendable, Equatable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([ConfigValue])
        /// Members in file order; keys are unique (the parser rejects duplicates).
        case object([Member])
    }

    /// One `key: value` member of an object.
    public struct Member: Sendable, Equatable {
        /// The key.
        public var key: String
        /// The value.
        public var value: ConfigValue
        /// Creates a member.
        public init(key: String, value: ConfigValue) { self.key = key; self.value = value }
    }

    /// Creates a value at a position.
    public init(_ kind: Kind, line: Int = 0, column: Int = 0) {
        self.kind = kind
        self.line = line
        self.column = column
    }

    /// A copy with every position, nested ones included, set to 0: a value typed on the
    /// command line (`--set`) has no place in the scenario file, and an error inside it
    /// must not point at one.
    public var unpositioned: ConfigValue {
        switch kind {
        case .array(let elements): ConfigValue(.array(elements.map(\.unpositioned)))
        case .object(let members): ConfigValue(.object(members.map { Member(key: $0.key, value: $0.value.unpositioned) }))
        default: {
            var value = ConfigValue(kind)
            value.integerLiteral = integerLiteral
            return value
        }()
        }
    }

    /// A short name of the value's type for error messages.
    public var typeName: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The member named `key`, when this is an object that has it.
    public subscript(key: String) -> ConfigValue? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// Returns a copy with the value at `path` (object keys) replaced or added, creating
    /// intermediate objects as needed. Used by scenario policies and `--set`.
    public func setting(_ path: ArraySlice<String>, to newValue: ConfigValue) -> ConfigValue {
        guard let key = path.first else { return newValue }
        var members: [Member]
        if case .object(let existing) = kind { members = existing } else { members = [] }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = members[index].value.setting(path.dropFirst(), to: newValue)
        } else {
            members.append(Member(key: key, value: ConfigValue(.null).setting(path.dropFirst(), to: newValue)))
        }
        return ConfigValue(.object(members), line: line, column: column)
    }

    /// Returns this object with `overlay`'s members merged in, recursively for objects;
    /// any other value in the overlay replaces the base value. An overlay object that names
    /// a different `type` or `policy` than the base replaces it whole: the fields of one
    /// distribution or debounce policy mean nothing to another.
    public func merging(_ overlay: ConfigValue) -> ConfigValue {
        guard case .object(var members) = kind, case .object(let extra) = overlay.kind else { return overlay }
        for discriminator in ["type", "policy"] {
            if let replacement = overlay[discriminator], replacement.kind != self[discriminator]?.kind { return overlay }
        }
        for member in extra {
            if let index = members.firstIndex(where: { $0.key == member.key }) {
                members[index].value = members[index].value.merging(member.value)
            } else {
                members.append(member)
            }
        }
        return ConfigValue(.object(members), line: line, column: column)
    }
}
