/// Parses a whole JSON5 (or strict JSON) document into a `ConfigValue` tree that keeps the
/// line and column of every value: scenario files, gate rules, typist profiles, MetricKit
/// payloads, `log show` lines, `--set` values.
///
/// Foundation's `JSONDecoder(allowsJSON5:)` reads the same files but reports a syntax error
/// without its position; scenario authors deserve `file:line:column`. The JSON5 features
/// people use in config files are read: `//` and `/* */` comments, unquoted keys,
/// single-quoted strings, trailing commas, hexadecimal numbers, leading or trailing decimal
/// points, an explicit `+`, `Infinity` and `NaN` (`JSONSyntax.json5`). The scanner is the
/// trace line's (`JSONScanner`), with a tree builder as its sink.
public enum JSON5Parser {
    /// A syntax error at a position.
    public struct SyntaxError: Error, Equatable, Sendable {
        /// 1-based line.
        public var line: Int
        /// 1-based column (in Unicode scalars).
        public var column: Int
        /// What is wrong.
        public var message: String
    }

    /// Parses a whole document: exactly one value, optionally surrounded by white space (and,
    /// in JSON5, comments). A duplicate key in an object is an error.
    public static func parse(_ text: String, syntax: JSONSyntax = .json5) throws(SyntaxError) -> ConfigValue {
        var text = text
        return try text.withUTF8 { bytes in parse(bytes, syntax: syntax) }.get()
    }

    /// The document in `bytes`, or its first error positioned by line and column.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, syntax: JSONSyntax) -> Result<ConfigValue, SyntaxError> {
        var scanner = JSONScanner(bytes, syntax: syntax, sink: JSONTreeBuilder(bytes, syntax: syntax))
        do throws(JSONSyntaxError) {
            let root = try scanner.scanDocument()
            return .success(scanner.sink.take(root))
        } catch {
            var positions = JSONPositionCounter(bytes)
            let position = positions.position(at: error.offset)
            return .failure(SyntaxError(line: position.line, column: position.column, message: error.message))
        }
    }
}
