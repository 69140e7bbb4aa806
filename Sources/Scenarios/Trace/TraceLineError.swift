import Sim

/// An error in one line of a trace: what is wrong and, where it can be pinned down, the
/// 1-based byte column. The caller adds the file and line and prints
/// `path:line:column: error: message`.
public struct TraceLineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based byte column (byte offset + 1) of the offending value or byte; `nil` when
    /// the error concerns the line as a whole (an empty line, a missing field).
    public var column: Int?
    /// What is wrong, as a sentence fragment without a trailing period.
    public var message: String

    /// Creates an error.
    public init(column: Int?, message: String) {
        self.column = column
        self.message = message
    }

    /// "column: message", or just the message when there is no column.
    public var description: String {
        column.map { "\($0): \(message)" } ?? message
    }
}
