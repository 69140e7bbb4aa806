/// A parsed JSON or JSON5 document (`JSON5Parser`, `JSONLineParser.parseValue`): the one tree
/// keysim reads JSON into. Every value keeps the line and column it was written at, so that
/// every error can point at its source like a compiler does; the name says where most of
/// them come from, scenario files.
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

    /// A short name of the value's type for error messages: "a string", "an object"…
    public var typeName: String { tokenKind.typeName }

    /// The type of the value as the scanner names it.
    public var tokenKind: JSONToken.Kind {
        switch kind {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// The member named `key`, when this is an object that has it.
    public subscript(key: String) -> ConfigValue? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }
}
