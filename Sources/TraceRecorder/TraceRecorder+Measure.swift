/// A piece of work `TraceRecorder.begin(_:)` started timing; hand it to `end(_:)`.
public struct TraceMeasurementToken: Sendable, Equatable {
    /// The kind of work, as `begin(_:)` named it.
    public let kind: String
    /// When the work began, on the recorder's clock (`nowNanos`).
    public let startNanos: Int64
}

extension TraceRecorder {
    /// Runs `body`, times it on the recorder's clock and records the duration as a measured
    /// cost of `kind` (a `measure` line, docs/trace-format.md "Measured costs"), so that one
    /// recording gives both what the user did and what the work cost on this device:
    ///
    ///     let candidates = recorder.measure("lookup") { dictionary.candidates(for: word) }
    ///
    /// The line's time is when `body` returned. Errors thrown by `body` are rethrown after
    /// the duration is recorded.
    public func measure<T>(_ kind: String, _ body: () throws -> T) rethrows -> T {
        let token = begin(kind)
        defer { end(token) }
        return try body()
    }

    /// Starts timing work of `kind` that ends elsewhere (a callback, another event):
    /// pass the token to `end(_:)` when it is done.
    public func begin(_ kind: String) -> TraceMeasurementToken {
        TraceMeasurementToken(kind: kind, startNanos: nowNanos)
    }

    /// Records the work `token` started as finished now.
    /// - Returns: whether the measurement was recorded.
    @discardableResult
    public func end(_ token: TraceMeasurementToken) -> Bool {
        let now = nowNanos
        return record(.measure(kind: token.kind, durationNanos: max(0, now - token.startNanos)), atNanos: now)
    }
}
