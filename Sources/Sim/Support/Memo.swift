import Synchronization

/// A memo of a pure function, safe to share between threads: one of a job's
/// `SimulationCaches`, never a process-wide static.
///
/// Values are keyed by the whole input, so a hit is exactly what `make` would return. The
/// memo holds at most `capacity` entries and starts afresh when full: a job replays a
/// handful of traces, each with a few dozen fields, while a population study of thousands
/// of traces sees each text about once and gains nothing from keeping it.
final class Memo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let values = Mutex<[Key: Value]>([:])
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// `make(key)`, from the memo when known.
    func value(for key: Key, _ make: (Key) -> Value) -> Value {
        if let known = values.withLock({ $0[key] }) { return known }
        let value = make(key)
        values.withLock { values in
            if values.count >= capacity { values.removeAll(keepingCapacity: true) }
            values[key] = value
        }
        return value
    }
}
