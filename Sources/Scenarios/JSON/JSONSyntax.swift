/// The grammar a JSON text is read with. One scanner (`JSONScanner`) reads both; each keeps
/// the error wording and positions its readers have always printed.
public enum JSONSyntax: Sendable, Equatable {
    /// RFC 8259 JSON with well-formed UTF-8 and no raw control characters in strings: trace
    /// lines and everything else machines write. Errors name a byte column.
    case strict
    /// JSON5 as people write config files: `//` and `/* */` comments, unquoted keys,
    /// single-quoted strings, trailing commas, hexadecimal numbers, leading or trailing
    /// decimal points, an explicit `+`, `Infinity` and `NaN`. Errors name a line and a
    /// column in Unicode scalars.
    case json5
}

/// A syntax error found by `JSONScanner`: the byte offset it was found at and what is wrong.
/// Readers turn the offset into their own position (`JSONLineError`'s byte column,
/// `JSON5Parser.SyntaxError`'s line and column).
struct JSONSyntaxError: Error, Equatable {
    /// The byte offset of the offending byte or token.
    var offset: Int
    /// What is wrong, as a sentence fragment without a trailing period.
    var message: String
}
