// One line of a JSON Lines file: the hot path of trace reading.
//
// Foundation's `JSONDecoder` builds a whole object graph and goes through `Codable`; at two
// million trace events per second that is far too slow. `JSONLineParser` runs the shared
// `JSONScanner` in strict syntax, which validates the entire line (RFC 8259 grammar,
// well-formed UTF-8, no unescaped control characters) in one pass, and records the top-level
// object only as a reusable list of (key, value) byte ranges. Values are decoded later, on
// demand, and only the ones the caller asks for: an unknown field costs one validating scan
// and nothing more.
//
// Columns are 1-based byte offsets (byte offset + 1), as in compiler diagnostics.

/// A syntax error in one line of JSON, with the 1-based column (byte offset + 1) it was found at.
public struct JSONLineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based byte column of the offending byte or token.
    public var column: Int
    /// What is wrong, as a sentence fragment without a trailing period.
    public var message: String

    /// Creates an error.
    public init(column: Int, message: String) {
        self.column = column
        self.message = message
    }

    /// The scanner's error at its byte column.
    init(_ error: JSONSyntaxError) {
        self.init(column: error.offset + 1, message: error.message)
    }

    /// "column N: message".
    public var description: String { "column \(column): \(message)" }
}

/// One member of the top-level object of a line: a key token and a value token.
public struct JSONLineMember: Sendable, Equatable {
    /// The key (always a string token).
    public var key: JSONToken
    /// The value.
    public var value: JSONToken
}

/// Parses single lines of JSON; keeps its member list between lines so that steady-state
/// parsing allocates nothing.
public struct JSONLineParser: Sendable {
    /// The deepest nesting of arrays and objects accepted (the top-level object counts as 1).
    public static let maxDepth = JSONScannerLimits.depthMax
    /// The most members accepted in a top-level object.
    public static let maxMembers = JSONMemberRecorder.membersMax

    /// The members of the object parsed last, in document order.
    public private(set) var members: [JSONLineMember] = []

    /// Creates a parser.
    public init() {
        members.reserveCapacity(16)
    }

    /// Parses `line` as exactly one JSON object (whitespace around it allowed) and records its
    /// members in `members`. Values are validated but not decoded.
    ///
    /// - Complexity: O(line length).
    public mutating func parseObject(_ line: UnsafeBufferPointer<UInt8>) throws(JSONLineError) {
        var scanner = JSONScanner(line, syntax: .strict, sink: JSONMemberRecorder())
        members.removeAll(keepingCapacity: true)
        // The recorder appends to this parser's own storage: no copy, no allocation.
        swap(&members, &scanner.sink.members)
        defer { swap(&members, &scanner.sink.members) }
        scanner.skipWhitespace()
        guard scanner.index < line.count else {
            throw JSONLineError(column: scanner.index + 1, message: "expected '{', found the end of the line")
        }
        guard line[scanner.index] == JSONBytes.openBrace else {
            throw JSONLineError(column: scanner.index + 1,
                                message: "expected '{', found \(JSONBytes.describe(line, scanner.index))")
        }
        do {
            _ = try scanner.scanObject(depth: 1)
            try scanner.expectEnd()
        } catch {
            throw JSONLineError(error)
        }
    }

    /// Parses `line` as exactly one JSON value of any type and decodes it in full (positions
    /// are line 1 and the column in Unicode scalars). Throws for a duplicate key too.
    public static func parseValue(_ line: UnsafeBufferPointer<UInt8>) throws(JSONLineError) -> ConfigValue {
        var scanner = JSONScanner(line, syntax: .strict, sink: JSONTreeBuilder(line, syntax: .strict))
        do {
            let root = try scanner.scanDocument()
            return scanner.sink.take(root)
        } catch {
            throw JSONLineError(error)
        }
    }

    /// Parses a string as one JSON value (convenience for tests and tools).
    public static func parseValue(_ text: String) throws(JSONLineError) -> ConfigValue {
        let bytes = Array(text.utf8)
        let result: Result<ConfigValue, JSONLineError> = bytes.withUnsafeBufferPointer { line in
            Result { () throws(JSONLineError) in try parseValue(line) }
        }
        return try result.get()
    }
}
