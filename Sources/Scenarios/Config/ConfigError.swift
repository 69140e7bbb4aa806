/// An error in a scenario file: where it is (file, line, column, field path) and what is wrong.
///
/// Prints like a compiler diagnostic, so editors can jump to it:
/// `scenarios/x.json5:12:7: error: keyboard.mainThread.cores: must be at least 1`.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The scenario file (as the user named it).
    public var file: String
    /// 1-based line, or 0 when the value did not come from the file (a `--set`).
    public var line: Int
    /// 1-based column, or 0 when unknown.
    public var column: Int
    /// The dotted field path ("keyboard.mainThread.cores"), empty for syntax errors.
    public var path: String
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int, column: Int, path: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    public var description: String {
        let location = line > 0 ? "\(file):\(line):\(column)" : file
        let field = path.isEmpty ? "" : "\(Self.shortenedPath(path)): "
        return "\(location): error: \(field)\(message)"
    }

    /// A path whose long keys (a policy or field named with megabytes of text) are shortened
    /// as `NameSuggester` quotes names, so that the message stays one short line.
    static func shortenedPath(_ path: String) -> String {
        guard path.utf8.count > NameSuggester.quotedCharactersMax else { return path }
        return path.split(separator: ".", omittingEmptySubsequences: false)
            .map { NameSuggester.shortened(String($0)) }.joined(separator: ".")
    }
}
