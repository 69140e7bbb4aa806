/// One SQLite value, as stored in a column or bound to a statement parameter.
///
/// The cases mirror SQLite's five storage classes. `Equatable` and `Hashable` compare the
/// case and its payload exactly: `.integer(1)` and `.real(1.0)` are different values, and
/// `.real(.nan)` is not equal to itself, as with `Double`.
public enum SQLValue: Sendable, Equatable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE 754 double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])
}

extension SQLValue: CustomStringConvertible {
    /// The value as a short SQL-like literal, for messages and debugging.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return "'" + value.replacingSQLQuotes() + "'"
        case .blob(let bytes):
            let hexDigits: [Character] = Array("0123456789ABCDEF")
            var hex = "X'"
            hex.reserveCapacity(bytes.count * 2 + 3)
            for byte in bytes {
                hex.append(hexDigits[Int(byte >> 4)])
                hex.append(hexDigits[Int(byte & 0x0F)])
            }
            return hex + "'"
        }
    }
}

extension SQLValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral
{
    /// `nil` is SQL `NULL`.
    public init(nilLiteral: ()) { self = .null }
    /// An integer literal is `.integer`.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A floating-point literal is `.real`.
    public init(floatLiteral value: Double) { self = .real(value) }
    /// A string literal is `.text`.
    public init(stringLiteral value: String) { self = .text(value) }
}

extension String {
    /// The string with every `'` doubled, as inside an SQL string literal.
    fileprivate func replacingSQLQuotes() -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for character in unicodeScalars {
            if character == "'" { result.append("''") } else { result.unicodeScalars.append(character) }
        }
        return result
    }
}
