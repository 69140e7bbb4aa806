/// A JSON document built in memory, with object members in the order they were added, for
/// the small documents of `--json` (`docs/json-output.md`). Large exports stream through
/// `JSONText` instead.
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
        var text = ""
        write(into: &text, indent: "")
        return text + "\n"
    }

    private func write(into text: inout String, indent: String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .integer(let value): text += String(value)
        case .number(let value): text += JSONText.number(value)
        case .string(let value): text += JSONText.quoted(value)
        case .array(let elements):
            guard !elements.isEmpty else { text += "[]"; return }
            let inner = indent + "  "
            text += "[\n"
            for (index, element) in elements.enumerated() {
                text += inner
                element.write(into: &text, indent: inner)
                text += index + 1 < elements.count ? ",\n" : "\n"
            }
            text += indent + "]"
        case .object(let members):
            guard !members.isEmpty else { text += "{}"; return }
            let inner = indent + "  "
            text += "{\n"
            for (index, member) in members.enumerated() {
                text += inner + JSONText.quoted(member.0) + ": "
                member.1.write(into: &text, indent: inner)
                text += index + 1 < members.count ? ",\n" : "\n"
            }
            text += indent + "}"
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
