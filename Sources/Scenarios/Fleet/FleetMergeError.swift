/// Why two fleet results cannot be merged.
public struct FleetMergeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
