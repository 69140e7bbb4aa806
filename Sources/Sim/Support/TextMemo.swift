import Synchronization

/// A process-wide memo of a pure function of a text: the words of a trace's intended texts,
/// which every replication of the trace would otherwise split, clean and number again.
///
/// Values are keyed by the whole text, so a hit is exactly what `make` would return. The
/// memo holds at most `capacity` texts and starts afresh when full: a job replays a
/// handful of traces, each with a few dozen fields, while a population study of thousands
/// of traces sees each text about once and gains nothing from keeping it.
final class TextMemo<Value: Sendable>: Sendable {
    private let values = Mutex<[String: Value]>([:])
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// `make(text)`, from the memo when known.
    func value(for text: String, _ make: (String) -> Value) -> Value {
        if let known = values.withLock({ $0[text] }) { return known }
        let value = make(text)
        values.withLock { values in
            if values.count >= capacity { values.removeAll(keepingCapacity: true) }
            values[text] = value
        }
        return value
    }
}
