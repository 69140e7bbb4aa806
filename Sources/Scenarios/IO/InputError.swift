/// A problem with an input or output file, reported like a compiler diagnostic:
///
///     traces/x.jsonl:12:7: error: invalid UTF-8
///     traces/y.jsonl.zst:4810: error: truncated zstd stream (the file ends inside a frame)
///     out/report.csv: error: cannot write: No space left on device (errno 28)
///
/// `line` and `column` are 1-based; either is omitted from the text when `nil`. Columns
/// count bytes of the line, as compilers do; an error with a line and no column of its own
/// gets column 1.
public struct InputError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, for callers that handle some failures differently (exit codes,
    /// retries) without reading the message.
    public enum Kind: Sendable, Equatable, Hashable {
        /// The file does not exist.
        case noSuchFile
        /// The file exists but cannot be opened or read (permissions, a directory, EIO).
        case unreadable
        /// A compressed stream ends in the middle of a frame.
        case truncated
        /// A compressed stream is damaged or not in the expected format.
        case corrupt
        /// A line is longer than the reader's limit.
        case lineTooLong
        /// A line is not valid UTF-8.
        case invalidUTF8
        /// The file's content is well-formed bytes but not what the reader expects.
        case invalidContent
        /// Writing, syncing or renaming an output file failed.
        case writeFailed
        /// An output file could not be written because the disk or quota is full.
        case noSpace
    }

    /// What went wrong.
    public let kind: Kind
    /// The file as the user named it.
    public let file: String
    /// The 1-based line the problem is on, when known.
    public let line: Int?
    /// The 1-based byte column within `line`, when known.
    public let column: Int?
    /// A sentence fragment in lower case, without a trailing period, as compilers write.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, file: String, line: Int? = nil, column: Int? = nil, message: String) {
        precondition(line.map { $0 >= 1 } ?? true, "line numbers are 1-based")
        precondition(column.map { $0 >= 1 } ?? true, "column numbers are 1-based")
        self.kind = kind
        self.file = file
        self.line = line
        // An error about a line as a whole (a missing field, a bad tap order) points at the
        // line's first byte: every error about a place names its line and column.
        self.column = column ?? (line == nil ? nil : 1)
        self.message = message
    }

    /// `file:line:column: error: message`, leaving out what is unknown.
    public var description: String { "\(location): error: \(message)" }

    /// `file:line:column: message` without the `error:` tag, for quoting this error inside
    /// another diagnostic (a scenario field naming the file).
    public var quoted: String { "\(location): \(message)" }

    /// `file`, `file:line` or `file:line:column`.
    private var location: String {
        guard let line else { return file }
        return column.map { "\(file):\(line):\($0)" } ?? "\(file):\(line)"
    }

    /// The same error placed at `line` (and `column`), for readers that learn the position
    /// only after a lower layer failed.
    public func at(line: Int?, column: Int? = nil) -> InputError {
        InputError(kind, file: file, line: line, column: column, message: message)
    }
}
