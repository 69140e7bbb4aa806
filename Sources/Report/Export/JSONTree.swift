import Scenarios

/// A JSON document built in memory, with object members in the order they were added, for
/// the small documents of `--json` (`docs/json-output.md`), written by `JSONWriter` in its
/// indented layout. Large exports stream through `JSONWriter` directly. (Documents keysim
/// reads are `ConfigValue`s.)
public enum JSONTree: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case integer(Int64)
    /// A number; NaN and infinities are written as `null`.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONTree])
    /// An object; members keep their order.
    case object([(String, JSONTree)])

    /// A number, or `null` for nil.
    public static func number(_ value: Double?) -> JSONTree { value.map { .number($0) } ?? .null }
    /// A whole number.
    public static func integer(_ value: Int) -> JSONTree { .integer(Int64(value)) }
    /// A string, or `null` for nil.
    public static func string(_ value: String?) -> JSONTree { value.map { .string($0) } ?? .null }

    /// The document as text: two-space indentation, one member per line, a final newline.
    public func rendered() -> String {
        var writer = JSONWriter(layout: .indented)
        write(to: &writer)
        return writer.text + "\n"
    }

    /// Writes the document with `writer`.
    public func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.null()
        case .bool(let value): writer.bool(value)
        case .integer(let value): writer.integer(value)
        case .number(let value): writer.number(value)
        case .string(let value): writer.string(value)
        case .array(let elements):
            writer.beginArray()
            for element in elements { element.write(to: &writer) }
            writer.endArray()
        case .object(let members):
            writer.beginObject()
            for (key, value) in members {
                writer.key(key)
                value.write(to: &writer)
            }
            writer.endObject()
        }
    }

    /// Two documents are equal when they render to the same text (objects keep member order).
    public static func == (lhs: JSONTree, rhs: JSONTree) -> Bool { lhs.rendered() == rhs.rendered() }
}

/// The envelope of every `--json` document: which schema it follows and at which version.
public enum JSONOutput {
    /// The schema version of every `--json` document; raised when a member changes meaning
    /// or goes away (new members may appear without a raise).
    public static let schemaVersion = 1

    /// An object that starts with `schema` ("keysim.gate") and `schemaVersion`, then `members`.
    public static func document(_ schema: String, _ members: [(String, JSONTree)]) -> JSONTree {
        .object([("schema", .string("keysim.\(schema)")), ("schemaVersion", .integer(schemaVersion)),
                 ("keysimVersion", .string(KeysimVersion.current))] + members)
    }
}
