/// One validated JSON value in a buffer, as a byte range: decoded only when asked.
///
/// Every token handed out by `JSONLineParser` has been fully validated (strict syntax), so the
/// decoding members below cannot fail on syntax; the buffer passed to them must be the one
/// the token was scanned from.
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

        /// A short name of the type for error messages: "a string", "an object"…
        public var typeName: String {
            switch self {
            case .null: "null"
            case .bool: "a boolean"
            case .number: "a number"
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }

    /// The JSON type.
    public var kind: Kind
    /// The bytes of the token in its line, quotes and brackets included. (A JSON5 key written
    /// without quotes is a string token whose range is the bare name.)
    public var range: Range<Int>
    /// For a string, whether it contains a backslash escape (decoding then copies); for a
    /// number, whether it is a plain integer (no fraction, no exponent); for a bool, its value.
    public var flag: Bool

    /// Creates a token. Tokens are normally made by `JSONScanner` only.
    public init(kind: Kind, range: Range<Int>, flag: Bool) {
        self.kind = kind
        self.range = range
        self.flag = flag
    }

    /// The 1-based column of the token's first byte.
    public var column: Int { range.lowerBound + 1 }

    /// A short name of the JSON type for error messages: "a string", "an object"…
    public var kindDescription: String { kind.typeName }

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

    /// The decoded string. Precondition: `kind == .string` (quoted).
    ///
    /// - Complexity: O(length); allocates only for strings longer than the small-string size.
    public func string(in line: UnsafeBufferPointer<UInt8>) -> String {
        precondition(kind == .string, "string(in:) on a \(kind) token")
        let start = range.lowerBound + 1
        let end = range.upperBound - 1
        if !flag {
            return String(decoding: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self)
        }
        // Escapes only ever shrink the text (`JSONBytes.unescape`), so the raw length is
        // enough capacity.
        return String(unsafeUninitializedCapacity: end - start) { output in
            JSONBytes.unescape(line, start, end, into: output)
        }
    }

    /// The text of an object's key: a decoded string, or a JSON5 name written without quotes.
    func keyText(in line: UnsafeBufferPointer<UInt8>) -> String {
        let first = line[range.lowerBound]
        if first == JSONBytes.quote || first == JSONBytes.apostrophe { return string(in: line) }
        return String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self)
    }

    /// The number as the nearest `Double` (correctly rounded); ±infinity when it overflows.
    /// Precondition: `kind == .number`, strict syntax.
    public func double(in line: UnsafeBufferPointer<UInt8>) -> Double {
        precondition(kind == .number, "double(in:) on a \(kind) token")
        return JSONNumber.double(line, range)
    }

    /// The number as an `Int` when it is written as a plain integer (no fraction, no exponent)
    /// and fits; `nil` otherwise. Precondition: `kind == .number`, strict syntax.
    public func integer(in line: UnsafeBufferPointer<UInt8>) -> Int? {
        precondition(kind == .number, "integer(in:) on a \(kind) token")
        guard flag else { return nil }
        return JSONNumber.integer(line, range)
    }

    /// The number times 10^`decimalShift`, rounded half away from zero to an integer, computed
    /// exactly from the decimal digits (no floating point); `nil` when the magnitude exceeds
    /// `magnitudeMax`. Used for times: milliseconds with `decimalShift: 6` give nanoseconds.
    /// Precondition: `kind == .number` (strict syntax), `0 <= decimalShift <= 18`.
    public func scaledInteger(decimalShift: Int, magnitudeMax: Int64,
                              in line: UnsafeBufferPointer<UInt8>) -> Int64? {
        precondition(kind == .number, "scaledInteger(in:) on a \(kind) token")
        precondition((0...18).contains(decimalShift) && magnitudeMax >= 0)
        return JSONNumber.scaled(line, range, decimalShift: decimalShift, magnitudeMax: magnitudeMax)
    }

    /// The whole value decoded as a tree, positioned in `line` (for tools and nested values;
    /// not the hot path). Throws for a duplicate key in an object, which a tree cannot hold.
    public func value(in line: UnsafeBufferPointer<UInt8>) throws(JSONLineError) -> ConfigValue {
        var scanner = JSONScanner(line, syntax: .strict, sink: JSONTreeBuilder(line, syntax: .strict))
        scanner.index = range.lowerBound
        do {
            let token = try scanner.scanValue(depth: 0)
            return scanner.sink.take(token)
        } catch {
            throw JSONLineError(error)
        }
    }
}
