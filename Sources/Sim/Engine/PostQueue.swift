/// The engine's events posted without a handle (`Engine.post(_:at:)`): a `Heap` of events
/// stored beside their keys.
///
/// An event that will never be cancelled or moved needs none of `EventQueue`'s slot table
/// (generations, positions); a task's completion is such an event, and a keyboard replay
/// posts four of them per key. Keys come from the event queue's sequence, so posted and
/// scheduled events keep one total order, exactly as if all were scheduled.
@usableFromInline
struct PostQueue<Event> {
    @usableFromInline var heap = Heap<Event>(capacity: 16)
    /// The earliest key, or `UInt128.max` when empty (no real key is that large: sequences
    /// stay far below 2⁶⁴ − 1). Kept in the struct itself, not the heap's storage: the
    /// engine asks before every event.
    @usableFromInline var earliest: UInt128 = .max

    @inlinable init() {}

    /// The number of posted events.
    @inlinable var count: Int { heap.count }
    /// Whether no event is posted.
    @inlinable var isEmpty: Bool { earliest == .max }
    /// The earliest key, if any.
    @inlinable var earliestKey: UInt128? { isEmpty ? nil : earliest }

    /// Adds `event` under `key`.
    /// - Complexity: O(log n), amortised (the storage doubles when full).
    @inlinable
    mutating func insert(_ event: Event, key: UInt128) {
        heap.insert(event, key: key)
        earliest = Swift.min(earliest, key)
    }

    /// Removes the earliest event and returns it.
    /// - Precondition: not empty.
    /// - Complexity: O(log n)
    @inlinable
    mutating func removeEarliest() -> Event {
        let event = heap.removeMin().value
        earliest = heap.minKeyOrMax
        return event
    }
}
