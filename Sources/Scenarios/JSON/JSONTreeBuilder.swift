/// Builds the `ConfigValue` tree of a document while `JSONScanner` validates it: every value
/// with the line and column (in Unicode scalars) of its first character, object members in
/// document order, and a duplicate key refused where it stands, since a tree looks members
/// up by key.
struct JSONTreeBuilder: JSONScanSink {
    /// An object or array being filled.
    private struct Frame {
        var members: [ConfigValue.Member] = []
        var elements: [ConfigValue] = []
        /// The key whose value is being read.
        var key = ""
        let isObject: Bool
        let line: Int
        let column: Int
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let syntax: JSONSyntax
    private var positions: JSONPositionCounter
    private var frames: [Frame] = []
    /// The object or array that closed last, until its parent takes it.
    private var closedValue: ConfigValue?

    /// A builder for a document in `bytes`, read with `syntax`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, syntax: JSONSyntax) {
        self.bytes = bytes
        self.syntax = syntax
        positions = JSONPositionCounter(bytes)
    }

    mutating func opened(_ kind: JSONToken.Kind, at offset: Int) {
        let position = positions.position(at: offset)
        frames.append(Frame(isObject: kind == .object, line: position.line, column: position.column))
    }

    mutating func key(_ key: JSONToken) -> JSONSyntaxError? {
        let text = key.keyText(in: bytes)
        let last = frames.count - 1
        if frames[last].members.contains(where: { $0.key == text }) {
            return JSONSyntaxError(offset: key.range.lowerBound, message: "duplicate key '\(text)'")
        }
        frames[last].key = text
        return nil
    }

    mutating func member(_ key: JSONToken, _ value: JSONToken, depth: Int) -> JSONSyntaxError? {
        let value = take(value)
        let last = frames.count - 1
        frames[last].members.append(ConfigValue.Member(key: frames[last].key, value: value))
        return nil
    }

    mutating func element(_ value: JSONToken) {
        let value = take(value)
        frames[frames.count - 1].elements.append(value)
    }

    mutating func closed(_ token: JSONToken) {
        let frame = frames.removeLast()
        closedValue = ConfigValue(frame.isObject ? .object(frame.members) : .array(frame.elements),
                                  line: frame.line, column: frame.column)
    }

    /// The value of a token just scanned: the object or array that just closed, or the
    /// scalar decoded. Call it once per value, in document order.
    mutating func take(_ token: JSONToken) -> ConfigValue {
        if token.kind == .object || token.kind == .array {
            defer { closedValue = nil }
            return closedValue!
        }
        let position = positions.position(at: token.range.lowerBound)
        var value = ConfigValue(.null, line: position.line, column: position.column)
        switch token.kind {
        case .null, .object, .array: break
        case .bool: value.kind = .bool(token.flag)
        case .string: value.kind = .string(token.string(in: bytes))
        case .number where syntax == .json5:
            // Validated already: reading it again cannot fail.
            let number = try! JSONNumber.json5(bytes, from: token.range.lowerBound)
            value.kind = .number(number.value)
            value.integerLiteral = number.exact
        case .number:
            value.kind = .number(token.double(in: bytes))
            value.integerLiteral = token.integer(in: bytes).map(Int64.init)
        }
        return value
    }
}

/// The line and column (both 1-based, the column in Unicode scalars) of byte offsets asked
/// for in increasing order: a document's positions cost one pass over it in all.
struct JSONPositionCounter {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0
    private var line = 1
    private var column = 1

    /// A counter at the start of `bytes`.
    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The position of the byte at `target` (`bytes.count` for the end); `target` must not
    /// be before the last one asked for.
    mutating func position(at target: Int) -> (line: Int, column: Int) {
        precondition(target >= offset && target <= bytes.count, "positions are asked for in document order")
        while offset < target {
            let byte = bytes[offset]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            offset += 1
        }
        return (line, column)
    }
}
