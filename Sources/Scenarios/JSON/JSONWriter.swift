/// The one JSON writer of keysim: every command, export and trace line writes its JSON
/// through it, value by value, into a byte buffer that the caller may hand on in pieces
/// (`take()`), so a large document streams without being built in memory.
///
/// It puts in the commas, colons and (in the indented layout) the line breaks and
/// indentation; it escapes strings (`"`, `\` and control characters, and by default U+2028
/// and U+2029, which break JavaScript that embeds the JSON); and it formats numbers one way
/// each, so the same values always give the same bytes: `number` for measured values
/// (`3`, `0.25`, `null` for NaN), `double` for Swift's shortest round-trip form (`40.0`),
/// `integer`, and `decimal` for exact fixed-point values such as milliseconds from
/// nanoseconds (`123.5`). Misuse (a key outside an object, a value where a key is due, an
/// unclosed container at the end) is a programmer error and traps.
public struct JSONWriter: Sendable {
    /// How containers are laid out.
    public enum Layout: Sendable {
        /// No white space at all: `{"a":1,"b":[true,null]}` (trace lines, job specs, Chrome
        /// traces, `trace stats --json`).
        case compact
        /// Two-space indentation, one member or element a line, `": "` after keys, `{}` and
        /// `[]` when empty (the `--json` documents of `run`, `compare`, `sweep` and `gate`).
        case indented
    }

    /// The bytes written and not yet taken, UTF-8.
    public private(set) var bytes: [UInt8]
    /// The layout of every container.
    public let layout: Layout
    /// Whether U+2028 and U+2029 are written as `\u2028` and `\u2029` (everything keysim
    /// exports) or as themselves (trace lines, as `TraceRecorder` writes them too).
    public let escapesLineSeparators: Bool
    /// Containers open around the next value.
    private var depth = 0
    /// The depth at which the writer started: 1 for `objectMembers`, else 0.
    private let baseDepth: Int
    /// Bit d: the container open at depth d holds a value already (a comma is due).
    private var nonEmpty: UInt64 = 0
    /// Bit d: the container open at depth d is an object.
    private var objects: UInt64 = 0
    /// A key was written; its value comes next.
    private var afterKey = false

    /// The deepest nesting the writer accepts.
    public static var depthMax: Int { 63 }

    /// A writer that appends to `bytes`.
    public init(layout: Layout = .compact, escapesLineSeparators: Bool = true, bytes: [UInt8] = []) {
        self.layout = layout
        self.escapesLineSeparators = escapesLineSeparators
        self.bytes = bytes
        baseDepth = 0
    }

    /// A writer of members only, `"a":1,"b":2`, for an object whose braces are written
    /// elsewhere (see `rawMembers`).
    public static func objectMembers(escapesLineSeparators: Bool = true) -> JSONWriter {
        JSONWriter(membersOf: escapesLineSeparators)
    }

    private init(membersOf escapesLineSeparators: Bool) {
        layout = .compact
        self.escapesLineSeparators = escapesLineSeparators
        bytes = []
        baseDepth = 1
        depth = 1
        objects = 1 << 1
    }

    /// The text written and not yet taken. Precondition: every container is closed.
    public var text: String {
        precondition(depth == baseDepth && !afterKey, "JSON text taken with a container still open")
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Returns the text written so far and empties the buffer; the containers stay open, so
    /// a document can be written out piece by piece.
    public mutating func take() -> String {
        defer { bytes.removeAll(keepingCapacity: true) }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Structure

    /// Opens an object.
    public mutating func beginObject() { open(JSONBytes.openBrace, isObject: true) }

    /// Closes the object opened last.
    public mutating func endObject() { close(JSONBytes.closeBrace, isObject: true) }

    /// Opens an array.
    public mutating func beginArray() { open(JSONBytes.openBracket, isObject: false) }

    /// Closes the array opened last.
    public mutating func endArray() { close(JSONBytes.closeBracket, isObject: false) }

    /// Writes the key of the next member of the object open last.
    public mutating func key(_ name: String) {
        precondition(depth > 0 && objects & bit(depth) != 0 && !afterKey, "a JSON key outside an object or after a key")
        separate()
        JSONWriter.appendQuoted(name, escapesLineSeparators: escapesLineSeparators, to: &bytes)
        bytes.append(JSONBytes.colon)
        if layout == .indented { bytes.append(0x20) }
        afterKey = true
    }

    /// Splices in members already written as JSON text (`"a":1,"b":2`, see `objectMembers`),
    /// with a comma before them when the object holds members already. Empty text adds nothing.
    public mutating func rawMembers(_ json: String) {
        precondition(depth > 0 && objects & bit(depth) != 0 && !afterKey && layout == .compact,
                     "raw JSON members outside a compact object")
        guard !json.isEmpty else { return }
        separate()
        bytes.append(contentsOf: json.utf8)
    }

    // MARK: Values

    /// Writes a string, escaped.
    public mutating func string(_ text: String) {
        beginValue()
        JSONWriter.appendQuoted(text, escapesLineSeparators: escapesLineSeparators, to: &bytes)
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        beginValue()
        append(value ? "true" : "false")
    }

    /// Writes `null`.
    public mutating func null() {
        beginValue()
        append("null")
    }

    /// Writes an integer.
    public mutating func integer<Integer: BinaryInteger>(_ value: Integer) {
        beginValue()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Writes a measured value: a whole number below 10^15 without a fraction (`3`), any other
    /// in Swift's shortest round-trip form (`0.25`, `1e+20`), and `null` for NaN and the
    /// infinities, which JSON cannot represent.
    public mutating func number(_ value: Double) {
        beginValue()
        bytes.append(contentsOf: JSONWriter.number(value).utf8)
    }

    /// Writes a finite double in Swift's shortest round-trip form (`12.5`, `40.0`, `1e-05`),
    /// all of which JSON reads. Traps on NaN and the infinities.
    public mutating func double(_ value: Double) {
        precondition(value.isFinite, "JSON cannot hold a non-finite number (\(value))")
        beginValue()
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Writes `scaled` / 10^`fractionDigits` exactly: with `keepsTrailingZeros` always that
    /// many decimals (`1.500`), otherwise the shortest exact form (`1.5`, `1000`).
    public mutating func decimal(_ scaled: Int64, fractionDigits: Int, keepsTrailingZeros: Bool = false) {
        beginValue()
        JSONWriter.appendDecimal(scaled, fractionDigits: fractionDigits, keepsTrailingZeros: keepsTrailingZeros, to: &bytes)
    }

    /// Writes nanoseconds as the shortest decimal number of milliseconds that denotes them
    /// exactly: 123_500_000 → `123.5`, 1 → `0.000001`.
    public mutating func milliseconds(nanoseconds: Int64) {
        decimal(nanoseconds, fractionDigits: 6)
    }

    /// Writes a value already written as JSON text (a number in a fixed format, a document
    /// from elsewhere). The caller vouches that it is JSON.
    public mutating func raw(_ json: String) {
        beginValue()
        bytes.append(contentsOf: json.utf8)
    }

    // MARK: Layout

    @inline(__always) private func bit(_ depth: Int) -> UInt64 { 1 << UInt64(depth) }

    private mutating func append(_ literal: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// What comes before a value: nothing after a key or at the top, else a separator.
    @inline(__always)
    private mutating func beginValue() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        precondition(objects & bit(depth) == 0, "a JSON value where an object needs a key")
        separate()
    }

    /// A comma after the container's previous value, then in the indented layout a line break
    /// and the indentation.
    @inline(__always)
    private mutating func separate() {
        if nonEmpty & bit(depth) != 0 { bytes.append(JSONBytes.comma) }
        nonEmpty |= bit(depth)
        if layout == .indented { newline(indent: depth) }
    }

    private mutating func newline(indent: Int) {
        bytes.append(0x0A)
        for _ in 0..<(2 * indent) { bytes.append(0x20) }
    }

    private mutating func open(_ bracket: UInt8, isObject: Bool) {
        beginValue()
        bytes.append(bracket)
        depth += 1
        precondition(depth <= Self.depthMax, "JSON nested deeper than \(Self.depthMax) levels")
        nonEmpty &= ~bit(depth)
        if isObject { objects |= bit(depth) } else { objects &= ~bit(depth) }
    }

    private mutating func close(_ bracket: UInt8, isObject: Bool) {
        precondition(depth > baseDepth && (objects & bit(depth) != 0) == isObject && !afterKey,
                     "a JSON container closed that is not open, or a key without its value")
        let hadValues = nonEmpty & bit(depth) != 0
        depth -= 1
        if layout == .indented && hadValues { newline(indent: depth) }
        bytes.append(bracket)
    }
}

extension JSONWriter {
    /// Writes a parsed document back as JSON: numbers written as integer literals as those
    /// integers, other numbers as `number(_:)` writes them (`null` for NaN and the
    /// infinities, which JSON5 reads and JSON cannot hold), members in their order.
    public mutating func value(_ value: ConfigValue) {
        switch value.kind {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number):
            if let exact = value.integerLiteral { integer(exact) } else { self.number(number) }
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for member in members {
                key(member.key)
                self.value(member.value)
            }
            endObject()
        }
    }
}
