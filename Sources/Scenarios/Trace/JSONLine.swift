// A small JSON parser for one line of a JSON Lines file: the hot path of trace reading.
//
// Foundation's `JSONDecoder` builds a whole object graph and goes through `Codable`; at two
// million trace events per second that is far too slow. This parser validates the entire line
// (RFC 8259 grammar, well-formed UTF-8, no unescaped control characters) in one pass, but it
// records the top-level object only as a reusable list of (key, value) byte ranges. Values are
// decoded later, on demand, and only the ones the caller asks for: an unknown field costs one
// validating scan and nothing more. Nested values are validated the same way and can be
// decoded into a `JSONValue` tree when somebody wants them (tools, tests).
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

    /// "column N: message".
    public var description: String { "column \(column): \(message)" }
}

/// One validated JSON value in a line, as a byte range: decoded only when asked.
///
/// Every token handed out by `JSONLineParser` has been fully validated, so the decoding
/// members below cannot fail on syntax; the buffer passed to them must be the line the token
/// was parsed from.
public struct JSONToken: Sendable, Equatable {
    /// The JSON type of a token.
    public enum Kind: Sendable, Equatable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool
        /// A number.
        case number
        /// A string.
        case string
        /// An array (its elements are validated, not recorded).
        case array
        /// An object (its members are validated, not recorded).
        case object
    }

    /// The JSON type.
    public var kind: Kind
    /// The bytes of the token in its line, quotes and brackets included.
    public var range: Range<Int>
    /// For a string, whether it contains a backslash escape (decoding then copies); for a
    /// number, whether it is a plain integer (no fraction, no exponent); for a bool, its value.
    public var flag: Bool

    /// Creates a token. Tokens are normally made by `JSONLineParser` only.
    public init(kind: Kind, range: Range<Int>, flag: Bool) {
        self.kind = kind
        self.range = range
        self.flag = flag
    }

    /// The 1-based column of the token's first byte.
    public var column: Int { range.lowerBound + 1 }

    /// A short name of the JSON type for error messages: "a string", "an object"…
    public var kindDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The token's source text, exactly as written (for error messages).
    public func sourceText(in line: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self)
    }

    /// Whether this is a string token without escapes whose content equals `literal` byte for
    /// byte. Strings with escapes never match: compare `string(in:)` for those.
    @inline(__always)
    public func isUnescapedString(_ literal: StaticString, in line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard kind == .string, !flag else { return false }
        return JSONBytes.equal(line, range.lowerBound + 1, range.upperBound - 1, literal)
    }

    /// The decoded string. Precondition: `kind == .string`.
    ///
    /// - Complexity: O(length); allocates only for strings longer than the small-string size.
    public func string(in line: UnsafeBufferPointer<UInt8>) -> String {
        precondition(kind == .string, "string(in:) on a \(kind) token")
        let start = range.lowerBound + 1
        let end = range.upperBound - 1
        if !flag {
            return String(decoding: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self)
        }
        // Escapes only ever shrink the text: \uXXXX (6 bytes) is at most 3 bytes of UTF-8 and a
        // surrogate pair (12 bytes) is 4, so the raw length is enough capacity.
        return String(unsafeUninitializedCapacity: end - start) { output in
            JSONBytes.unescape(line, start, end, into: output)
        }
    }

    /// The number as the nearest `Double` (correctly rounded); ±infinity when it overflows.
    /// Precondition: `kind == .number`.
    public func double(in line: UnsafeBufferPointer<UInt8>) -> Double {
        precondition(kind == .number, "double(in:) on a \(kind) token")
        return JSONNumber.double(line, range)
    }

    /// The number as an `Int` when it is written as a plain integer (no fraction, no exponent)
    /// and fits; `nil` otherwise. Precondition: `kind == .number`.
    public func integer(in line: UnsafeBufferPointer<UInt8>) -> Int? {
        precondition(kind == .number, "integer(in:) on a \(kind) token")
        guard flag else { return nil }
        return JSONNumber.integer(line, range)
    }

    /// The number times 10^`decimalShift`, rounded half away from zero to an integer, computed
    /// exactly from the decimal digits (no floating point); `nil` when the magnitude exceeds
    /// `magnitudeMax`. Used for times: milliseconds with `decimalShift: 6` give nanoseconds.
    /// Precondition: `kind == .number`, `0 <= decimalShift <= 18`.
    public func scaledInteger(decimalShift: Int, magnitudeMax: Int64,
                              in line: UnsafeBufferPointer<UInt8>) -> Int64? {
        precondition(kind == .number, "scaledInteger(in:) on a \(kind) token")
        precondition((0...18).contains(decimalShift) && magnitudeMax >= 0)
        return JSONNumber.scaled(line, range, decimalShift: decimalShift, magnitudeMax: magnitudeMax)
    }

    /// The whole value decoded as a tree (for tools and nested values; not the hot path).
    public func value(in line: UnsafeBufferPointer<UInt8>) -> JSONValue {
        var scanner = JSONScanner(line, recordingMembers: false)
        return scanner.tree(self, depth: 0)
    }
}

/// One member of the top-level object of a line: a key token and a value token.
public struct JSONLineMember: Sendable, Equatable {
    /// The key (always a string token).
    public var key: JSONToken
    /// The value.
    public var value: JSONToken
}

/// A JSON value decoded in full.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as the nearest `Double`.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object's members in document order (duplicate keys are kept as written).
    case object([Member])

    /// One member of an object.
    public struct Member: Sendable, Equatable {
        /// The key.
        public var key: String
        /// The value.
        public var value: JSONValue
        /// Creates a member.
        public init(key: String, value: JSONValue) { self.key = key; self.value = value }
    }
}

/// Parses single lines of JSON; keeps its member list between lines so that steady-state
/// parsing allocates nothing.
public struct JSONLineParser: Sendable {
    /// The deepest nesting of arrays and objects accepted (the top-level object counts as 1).
    public static let maxDepth = 64
    /// The most members accepted in a top-level object.
    public static let maxMembers = 1024

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
        var scanner = JSONScanner(line, recordingMembers: true)
        members.removeAll(keepingCapacity: true)
        swap(&members, &scanner.members)
        defer { swap(&members, &scanner.members) }
        scanner.skipWhitespace()
        guard scanner.index < line.count else {
            throw JSONLineError(column: scanner.index + 1, message: "expected '{', found the end of the line")
        }
        guard line[scanner.index] == JSONBytes.openBrace else {
            throw JSONLineError(column: scanner.index + 1,
                                message: "expected '{', found \(JSONBytes.describe(line, scanner.index))")
        }
        _ = try scanner.scanObject(depth: 1)
        try scanner.expectEnd()
    }

    /// Parses `line` as exactly one JSON value of any type and decodes it in full.
    public static func parseValue(_ line: UnsafeBufferPointer<UInt8>) throws(JSONLineError) -> JSONValue {
        var scanner = JSONScanner(line, recordingMembers: false)
        scanner.skipWhitespace()
        let token = try scanner.scanValue(depth: 0)
        try scanner.expectEnd()
        return token.value(in: line)
    }

    /// Parses a string as one JSON value (convenience for tests and tools).
    public static func parseValue(_ text: String) throws(JSONLineError) -> JSONValue {
        let bytes = Array(text.utf8)
        let result: Result<JSONValue, JSONLineError> = bytes.withUnsafeBufferPointer { line in
            Result { () throws(JSONLineError) in try parseValue(line) }
        }
        return try result.get()
    }
}

// MARK: - Scanner

/// The validating scanner behind `JSONLineParser`: one pass, byte ranges only.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Members of the depth-1 object, recorded only when `recordingMembers`.
    var members: [JSONLineMember] = []
    let recordingMembers: Bool

    init(_ bytes: UnsafeBufferPointer<UInt8>, recordingMembers: Bool) {
        self.bytes = bytes
        self.recordingMembers = recordingMembers
    }

    private func error(_ at: Int, _ message: String) -> JSONLineError {
        JSONLineError(column: at + 1, message: message)
    }

    private func found(_ at: Int) -> String {
        at < bytes.count ? JSONBytes.describe(bytes, at) : "the end of the line"
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Checks that only whitespace follows the value just scanned.
    mutating func expectEnd() throws(JSONLineError) {
        skipWhitespace()
        if index < bytes.count {
            throw error(index, "unexpected \(found(index)) after the end of the value")
        }
    }

    /// Scans one value starting at `index` (no leading whitespace); `depth` is the number of
    /// containers already open around it.
    mutating func scanValue(depth: Int) throws(JSONLineError) -> JSONToken {
        guard index < bytes.count else {
            throw error(index, "expected a value, found the end of the line")
        }
        switch bytes[index] {
        case JSONBytes.quote: return try scanString()
        case JSONBytes.openBrace: return try scanObject(depth: depth + 1)
        case JSONBytes.openBracket: return try scanArray(depth: depth + 1)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try scanNumber()
        case UInt8(ascii: "t"): return try scanLiteral("true", .bool, flag: true)
        case UInt8(ascii: "f"): return try scanLiteral("false", .bool, flag: false)
        case UInt8(ascii: "n"): return try scanLiteral("null", .null, flag: false)
        default: throw error(index, "expected a value, found \(found(index))")
        }
    }

    private mutating func scanLiteral(_ literal: StaticString, _ kind: JSONToken.Kind,
                                      flag: Bool) throws(JSONLineError) -> JSONToken {
        let start = index
        let end = start + literal.utf8CodeUnitCount
        guard end <= bytes.count, JSONBytes.equal(bytes, start, end, literal) else {
            throw error(start, "invalid literal, expected '\(literal)'")
        }
        index = end
        return JSONToken(kind: kind, range: start..<end, flag: flag)
    }

    /// Scans an object whose '{' is at `index`; `depth` counts this object.
    mutating func scanObject(depth: Int) throws(JSONLineError) -> JSONToken {
        let start = index
        guard depth <= JSONLineParser.maxDepth else {
            throw error(start, "nesting deeper than \(JSONLineParser.maxDepth) levels")
        }
        let record = recordingMembers && depth == 1
        index += 1
        skipWhitespace()
        if index < bytes.count && bytes[index] == JSONBytes.closeBrace {
            index += 1
            return JSONToken(kind: .object, range: start..<index, flag: false)
        }
        while true {
            guard index < bytes.count, bytes[index] == JSONBytes.quote else {
                throw error(index, "expected a string key, found \(found(index))")
            }
            let key = try scanString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error(index, "expected ':' after the key, found \(found(index))")
            }
            index += 1
            skipWhitespace()
            let value = try scanValue(depth: depth)
            if record {
                guard members.count < JSONLineParser.maxMembers else {
                    throw error(key.range.lowerBound, "more than \(JSONLineParser.maxMembers) fields in one object")
                }
                members.append(JSONLineMember(key: key, value: value))
            }
            skipWhitespace()
            guard index < bytes.count else {
                throw error(index, "expected ',' or '}', found the end of the line")
            }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case JSONBytes.closeBrace:
                index += 1
                return JSONToken(kind: .object, range: start..<index, flag: false)
            default:
                throw error(index, "expected ',' or '}', found \(found(index))")
            }
        }
    }

    /// Scans an array whose '[' is at `index`; `depth` counts this array.
    mutating func scanArray(depth: Int) throws(JSONLineError) -> JSONToken {
        let start = index
        guard depth <= JSONLineParser.maxDepth else {
            throw error(start, "nesting deeper than \(JSONLineParser.maxDepth) levels")
        }
        index += 1
        skipWhitespace()
        if index < bytes.count && bytes[index] == JSONBytes.closeBracket {
            index += 1
            return JSONToken(kind: .array, range: start..<index, flag: false)
        }
        while true {
            _ = try scanValue(depth: depth)
            skipWhitespace()
            guard index < bytes.count else {
                throw error(index, "expected ',' or ']', found the end of the line")
            }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case JSONBytes.closeBracket:
                index += 1
                return JSONToken(kind: .array, range: start..<index, flag: false)
            default:
                throw error(index, "expected ',' or ']', found \(found(index))")
            }
        }
    }

    /// Scans a string whose opening quote is at `index`.
    mutating func scanString() throws(JSONLineError) -> JSONToken {
        let start = index
        var i = start + 1
        var escaped = false
        var nonASCII = false
        let count = bytes.count
        while true {
            guard i < count else { throw error(start, "unterminated string") }
            let byte = bytes[i]
            if byte == JSONBytes.quote { break }
            if byte == JSONBytes.backslash {
                escaped = true
                i = try scanEscape(at: i, stringStart: start)
                continue
            }
            if byte < 0x20 {
                throw error(i, "control character \(JSONBytes.unicodeName(UInt32(byte))) must be escaped in a string")
            }
            if byte >= 0x80 { nonASCII = true }
            i += 1
        }
        if nonASCII, let bad = JSONBytes.firstInvalidUTF8(bytes, start + 1, i) {
            throw error(bad, "invalid UTF-8 (byte \(JSONBytes.hex(bytes[bad])))")
        }
        index = i + 1
        return JSONToken(kind: .string, range: start..<index, flag: escaped)
    }

    /// Validates the escape whose backslash is at `at`; returns the index after it.
    private func scanEscape(at: Int, stringStart: Int) throws(JSONLineError) -> Int {
        guard at + 1 < bytes.count else { throw error(stringStart, "unterminated string") }
        switch bytes[at + 1] {
        case JSONBytes.quote, JSONBytes.backslash, UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return at + 2
        case UInt8(ascii: "u"):
            guard let unit = JSONBytes.hex4(bytes, at + 2) else {
                throw error(at, "invalid \\u escape: expected 4 hexadecimal digits")
            }
            switch unit {
            case 0xD800...0xDBFF:
                guard at + 7 < bytes.count, bytes[at + 6] == JSONBytes.backslash,
                      bytes[at + 7] == UInt8(ascii: "u"),
                      let low = JSONBytes.hex4(bytes, at + 8), (0xDC00...0xDFFF).contains(low) else {
                    throw error(at, "unpaired surrogate \\u\(JSONBytes.hex4Text(unit)) (a high surrogate must be followed by a \\u escape of a low surrogate)")
                }
                return at + 12
            case 0xDC00...0xDFFF:
                throw error(at, "unpaired surrogate \\u\(JSONBytes.hex4Text(unit)) (a low surrogate must follow a high surrogate)")
            default:
                return at + 6
            }
        default:
            throw error(at, "invalid escape '\\\(JSONBytes.printable(bytes[at + 1]))'")
        }
    }

    /// Scans a number starting at `index` (a '-' or a digit).
    mutating func scanNumber() throws(JSONLineError) -> JSONToken {
        let start = index
        var i = start
        let count = bytes.count
        var isInteger = true
        if bytes[i] == UInt8(ascii: "-") {
            i += 1
            guard i < count, JSONBytes.isDigit(bytes[i]) else {
                throw error(i, "expected a digit after '-', found \(found(i))")
            }
        }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < count, JSONBytes.isDigit(bytes[i]) {
                throw error(start, "leading zeros are not allowed in numbers")
            }
        } else {
            while i < count, JSONBytes.isDigit(bytes[i]) { i += 1 }
        }
        if i < count, bytes[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard i < count, JSONBytes.isDigit(bytes[i]) else {
                throw error(i, "expected a digit after '.', found \(found(i))")
            }
            while i < count, JSONBytes.isDigit(bytes[i]) { i += 1 }
        }
        if i < count, bytes[i] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            i += 1
            if i < count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < count, JSONBytes.isDigit(bytes[i]) else {
                throw error(i, "expected a digit in the exponent, found \(found(i))")
            }
            while i < count, JSONBytes.isDigit(bytes[i]) { i += 1 }
        }
        index = i
        return JSONToken(kind: .number, range: start..<i, flag: isInteger)
    }

    /// Builds the tree of an already validated token by walking it again.
    mutating func tree(_ token: JSONToken, depth: Int) -> JSONValue {
        switch token.kind {
        case .null: return .null
        case .bool: return .bool(token.flag)
        case .number: return .number(token.double(in: bytes))
        case .string: return .string(token.string(in: bytes))
        case .array:
            var elements: [JSONValue] = []
            index = token.range.lowerBound + 1
            skipWhitespace()
            while index < token.range.upperBound - 1 {
                // The token was validated, so scanning it again cannot fail.
                let element = try! scanValue(depth: depth + 1)
                let resume = index
                elements.append(tree(element, depth: depth + 1))
                index = resume
                skipWhitespace()
                if bytes[index] == UInt8(ascii: ",") { index += 1; skipWhitespace() }
            }
            return .array(elements)
        case .object:
            var members: [JSONValue.Member] = []
            index = token.range.lowerBound + 1
            skipWhitespace()
            while index < token.range.upperBound - 1 {
                let key = try! scanString()
                skipWhitespace()
                index += 1 // ':'
                skipWhitespace()
                let value = try! scanValue(depth: depth + 1)
                let resume = index
                members.append(JSONValue.Member(key: key.string(in: bytes), value: tree(value, depth: depth + 1)))
                index = resume
                skipWhitespace()
                if bytes[index] == UInt8(ascii: ",") { index += 1; skipWhitespace() }
            }
            return .object(members)
        }
    }
}

// MARK: - Byte helpers

/// Byte-level helpers shared by the scanner and the token decoders.
enum JSONBytes {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Whether `bytes[start..<end]` equals the ASCII `literal`.
    @inline(__always)
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                      _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard end - start == count else { return false }
        let expected = literal.utf8Start
        var i = 0
        while i < count {
            if bytes[start + i] != expected[i] { return false }
            i += 1
        }
        return true
    }

    /// The value of one hexadecimal digit, or nil.
    @inline(__always) static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The 16-bit value of four hexadecimal digits at `at`, or nil.
    static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32? {
        guard at + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for i in at..<(at + 4) {
            guard let digit = hexValue(bytes[i]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    /// "D83D" for 0xD83D.
    static func hex4Text(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// "0xFF" for 255.
    static func hex(_ byte: UInt8) -> String {
        "0x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }

    /// "U+0009" for a tab.
    static func unicodeName(_ scalar: UInt32) -> String { "U+" + hex4Text(scalar) }

    /// A byte for messages: the character itself when printable ASCII.
    static func printable(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : hex(byte)
    }

    /// A byte for "found …" messages: "'x'" when printable ASCII, else a name.
    static func describe(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> String {
        let byte = bytes[at]
        switch byte {
        case 0x21...0x7E: return "'\(UnicodeScalar(byte))'"
        case 0x20: return "a space"
        case 0x00..<0x20: return "control character \(unicodeName(UInt32(byte)))"
        default: return "byte \(hex(byte))"
        }
    }

    /// The offset of the first byte of the first ill-formed UTF-8 sequence in
    /// `bytes[start..<end]`, or nil when it is all well-formed (Unicode Table 3-7).
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        var i = start
        @inline(__always) func continuation(_ at: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            at < end && bytes[at] >= low && bytes[at] <= high
        }
        while i < end {
            let lead = bytes[i]
            switch lead {
            case 0x00...0x7F:
                i += 1
            case 0xC2...0xDF:
                guard continuation(i + 1) else { return i }
                i += 2
            case 0xE0...0xEF:
                let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
                let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
                guard continuation(i + 1, low, high), continuation(i + 2) else { return i }
                i += 3
            case 0xF0...0xF4:
                let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
                let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
                guard continuation(i + 1, low, high), continuation(i + 2), continuation(i + 3) else { return i }
                i += 4
            default:
                return i
            }
        }
        return nil
    }

    /// Decodes the validated string content `bytes[start..<end]` (escapes included) into
    /// `output`; returns the number of bytes written.
    static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                         into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var i = start
        var o = 0
        while i < end {
            let byte = bytes[i]
            guard byte == backslash else {
                output[o] = byte
                o += 1
                i += 1
                continue
            }
            let escape = bytes[i + 1]
            i += 2
            let simple: UInt8
            switch escape {
            case UInt8(ascii: "b"): simple = 0x08
            case UInt8(ascii: "f"): simple = 0x0C
            case UInt8(ascii: "n"): simple = 0x0A
            case UInt8(ascii: "r"): simple = 0x0D
            case UInt8(ascii: "t"): simple = 0x09
            case UInt8(ascii: "u"):
                var scalar = hex4(bytes, i)!
                i += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    let low = hex4(bytes, i + 2)!
                    i += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                for unit in UTF8.encode(UnicodeScalar(scalar)!)! {
                    output[o] = unit
                    o += 1
                }
                continue
            default: simple = escape // '"', '\\' and '/' stand for themselves
            }
            output[o] = simple
            o += 1
        }
        return o
    }
}

// MARK: - Numbers

/// Conversions of validated number tokens.
enum JSONNumber {
    /// Powers of ten that a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The exponent of a number token, or 0; saturates at ±1,000,000 (far beyond any double).
    private static func exponent(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var i = start
        var negative = false
        if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var value = 0
        while i < end {
            value = min(1_000_000, value * 10 + Int(bytes[i] - UInt8(ascii: "0")))
            i += 1
        }
        return negative ? -value : value
    }

    /// The nearest double to a validated number token.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double {
        var i = range.lowerBound
        let end = range.upperBound
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var exponent10 = 0
        var inFraction = false
        while i < end {
            let byte = bytes[i]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if JSONBytes.isDigit(byte) {
                let digit = UInt64(byte - UInt8(ascii: "0"))
                if mantissa != 0 || digit != 0 {
                    // More than 19 significant digits do not fit a UInt64: take the slow path.
                    guard significantDigits < 19 else { return slowDouble(bytes, range) }
                    mantissa = mantissa * 10 + digit
                    significantDigits += 1
                }
                if inFraction { exponent10 -= 1 }
            } else {
                exponent10 += exponent(bytes, from: i + 1, to: end)
                break
            }
            i += 1
        }
        let magnitude: Double
        if mantissa == 0 {
            magnitude = 0
        } else if mantissa <= 1 << 53 && (-22...22).contains(exponent10) {
            // Clinger's fast path: both operands are exact, so the one rounding is correct.
            let value = Double(mantissa)
            magnitude = exponent10 >= 0 ? value * exactPowersOfTen[exponent10]
                                        : value / exactPowersOfTen[-exponent10]
        } else {
            return slowDouble(bytes, range)
        }
        return negative ? -magnitude : magnitude
    }

    /// The standard library's correctly rounded conversion (strtod), for the rare hard cases.
    private static func slowDouble(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        guard let value = Double(text) else {
            preconditionFailure("a validated JSON number was rejected by Double(_:): \(text)")
        }
        return value
    }

    /// A validated plain-integer token as an `Int`, or nil when it does not fit.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var i = range.lowerBound
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var value = 0
        while i < range.upperBound {
            let digit = Int(bytes[i] - UInt8(ascii: "0"))
            // Accumulate towards the sign so that Int.min is representable.
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? times10.subtractingReportingOverflow(digit)
                                             : times10.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = next
            i += 1
        }
        return value
    }

    /// value × 10^decimalShift rounded half away from zero, exactly, or nil past `magnitudeMax`.
    static func scaled(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                       decimalShift: Int, magnitudeMax: Int64) -> Int64? {
        var i = range.lowerBound
        let end = range.upperBound
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        // Where the digits end, how many follow the point, and the explicit exponent.
        var mantissaEnd = i
        var fractionDigits = 0
        var inFraction = false
        while mantissaEnd < end {
            let byte = bytes[mantissaEnd]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if JSONBytes.isDigit(byte) {
                if inFraction { fractionDigits += 1 }
            } else {
                break
            }
            mantissaEnd += 1
        }
        let explicitExponent = mantissaEnd < end ? exponent(bytes, from: mantissaEnd + 1, to: end) : 0
        // The significant digits D (leading zeros and the point skipped): value = D × 10^scale.
        var first = i
        while first < mantissaEnd && (bytes[first] == UInt8(ascii: "0") || bytes[first] == UInt8(ascii: ".")) {
            first += 1
        }
        if first == mantissaEnd { return 0 }
        var significantDigits = 0
        for j in first..<mantissaEnd where bytes[j] != UInt8(ascii: ".") { significantDigits += 1 }
        let scale = decimalShift + explicitExponent - fractionDigits
        // Digits of D that land left of the decimal point after scaling.
        let integerDigits = significantDigits + scale
        if integerDigits > 19 { return nil } // at least 10^19 > Int64.max
        if integerDigits < 0 { return 0 }    // below 0.1: rounds to zero
        var result: UInt64 = 0
        var taken = 0
        var roundUp = false
        var j = first
        while j < mantissaEnd {
            let byte = bytes[j]
            j += 1
            if byte == UInt8(ascii: ".") { continue }
            let digit = UInt64(byte - UInt8(ascii: "0"))
            if taken < integerDigits {
                result = result * 10 + digit
                taken += 1
            } else {
                roundUp = digit >= 5 // only the first dropped digit decides half-away-from-zero
                break
            }
        }
        while taken < integerDigits {
            result *= 10
            taken += 1
        }
        if roundUp { result += 1 }
        guard result <= UInt64(magnitudeMax) else { return nil }
        return negative ? -Int64(result) : Int64(result)
    }
}
