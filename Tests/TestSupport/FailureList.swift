import Foundation

/// Messages gathered from several threads at once, under a lock.
public final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    /// An empty list.
    public init() {}

    /// Appends `item`.
    public func add(_ item: String) { lock.lock(); items.append(item); lock.unlock() }

    /// Every message so far, in the order they were added.
    public var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}

/// The name the report tests use for a `FailureList`.
public typealias FailureBox = FailureList
