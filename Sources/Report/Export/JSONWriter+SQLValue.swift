import Scenarios

extension JSONWriter {
    /// A SQLite value as JSON text: integers and reals as numbers (`number(_:)`), text as a
    /// string, blobs as a string of hex digits, `NULL` as `null`.
    public static func value(_ value: SQLValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let integer): String(integer)
        case .real(let real): number(real)
        case .text(let text): quoted(text)
        case .blob(let bytes): quoted(hexDigits(bytes))
        }
    }

    /// Writes a SQLite value as `value(_:)` gives it.
    public mutating func value(_ value: SQLValue) {
        switch value {
        case .null: null()
        case .integer(let whole): integer(whole)
        case .real(let real): number(real)
        case .text(let text): string(text)
        case .blob(let bytes): string(JSONWriter.hexDigits(bytes))
        }
    }

    /// Lowercase hexadecimal, two digits a byte.
    private static func hexDigits(_ bytes: [UInt8]) -> String {
        let digits: [Character] = Array("0123456789abcdef")
        var hex = ""
        hex.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return hex
    }
}
