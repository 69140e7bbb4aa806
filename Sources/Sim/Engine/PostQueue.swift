/// The engine's events posted without a handle (`Engine.post(_:at:)`): a binary heap of
/// (key, event) pairs, the event stored beside its key.
///
/// An event that will never be cancelled or moved needs none of `EventQueue`'s slot
/// machinery (free list, generations, positions); a task's completion is such an event, and
/// a keyboard replay posts four of them per key. Keys come from the event queue's sequence,
/// so posted and scheduled events keep one total order, exactly as if all were scheduled.
///
/// A value type with copy-on-write storage; each operation checks uniqueness once.
@usableFromInline
struct PostQueue<Event> {
    @usableFromInline var storage: Storage
    /// The earliest key, or `UInt128.max` when empty (no real key is that large: sequences
    /// stay far below 2⁶⁴ − 1).
    @usableFromInline var earliest: UInt128 = .max

    @usableFromInline init() { storage = Storage(capacity: 16) }

    @inlinable var count: Int { storage.count }
    /// Read from the struct itself, not the storage: the engine asks before every event.
    @inlinable var isEmpty: Bool { earliest == .max }
    @inlinable var earliestKey: UInt128? { isEmpty ? nil : earliest }

    @usableFromInline final class Storage {
        @exclusivity(unchecked) @usableFromInline var keys: UnsafeMutablePointer<UInt128>
        @exclusivity(unchecked) @usableFromInline var events: UnsafeMutablePointer<Event>
        @exclusivity(unchecked) @usableFromInline var count = 0
        @exclusivity(unchecked) @usableFromInline var capacity: Int

        @usableFromInline init(capacity: Int) {
            self.capacity = capacity
            keys = .allocate(capacity: capacity)
            events = .allocate(capacity: capacity)
        }

        deinit {
            events.deinitialize(count: count)
            events.deallocate()
            keys.deallocate()
        }

        /// A copy with room for at least `capacity` entries.
        @usableFromInline func copy(capacity: Int) -> Storage {
            let copy = Storage(capacity: Swift.max(capacity, count))
            copy.keys.initialize(from: keys, count: count)
            copy.events.initialize(from: events, count: count)
            copy.count = count
            return copy
        }
    }

    /// Adds `event` under `key`.
    /// - Complexity: O(log n), amortised (the storage doubles when full).
    @inlinable
    mutating func insert(_ event: Event, key: UInt128) {
        if _slowPath(!isKnownUniquelyReferenced(&storage) || storage.count == storage.capacity) {
            storage = storage.copy(capacity: storage.count == storage.capacity ? storage.capacity * 2 : storage.capacity)
        }
        let storage = self.storage
        let keys = storage.keys, events = storage.events
        var index = storage.count
        storage.count &+= 1
        while index > 0 {
            let parent = (index &- 1) >> 1
            guard key < keys[parent] else { break }
            keys[index] = keys[parent]
            (events + index).moveInitialize(from: events + parent, count: 1)
            index = parent
        }
        keys[index] = key
        (events + index).initialize(to: event)
        earliest = keys[0]
    }

    /// Removes the earliest event and returns it.
    /// - Precondition: not empty.
    /// - Complexity: O(log n)
    @inlinable
    mutating func removeEarliest() -> Event {
        if _slowPath(!isKnownUniquelyReferenced(&storage)) { storage = storage.copy(capacity: storage.capacity) }
        let storage = self.storage
        let keys = storage.keys, events = storage.events
        precondition(storage.count > 0, "removeEarliest on an empty post queue")
        let removed = events.move()
        storage.count &-= 1
        let count = storage.count
        guard count > 0 else { earliest = .max; return removed }
        // Sift the last entry down from the root's hole.
        let lastKey = keys[count]
        var hole = 0
        while true {
            var child = 2 &* hole &+ 1
            guard child < count else { break }
            if child &+ 1 < count && keys[child &+ 1] < keys[child] { child &+= 1 }
            guard keys[child] < lastKey else { break }
            keys[hole] = keys[child]
            (events + hole).moveInitialize(from: events + child, count: 1)
            hole = child
        }
        keys[hole] = lastKey
        (events + hole).moveInitialize(from: events + count, count: 1)
        earliest = keys[0]
        return removed
    }
}
