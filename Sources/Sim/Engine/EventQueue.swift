/// A handle to a scheduled event, used to cancel or re-arm it.
///
/// A handle stays safe to use after its event fired or was cancelled: the slot's generation
/// no longer matches, and `cancel`/`reschedule` report `false`.
public struct TimerHandle: Hashable, Sendable {
    @usableFromInline let slot: Int32
    @usableFromInline let generation: UInt32
    @usableFromInline init(slot: Int32, generation: UInt32) {
        self.slot = slot
        self.generation = generation
    }
}

/// The pending events of a simulation, ordered by (time, insertion sequence).
///
/// Two parts of the storage layer: a `SlotTable` of payloads, whose slot and generation
/// make a handle, and a `Heap` of slots keyed by (time, sequence), which keeps each event's
/// heap index in its slot's tag (`SlotTable.tag(of:)`), so that a timer can be cancelled or
/// re-armed in O(log n). Ties in time fire in the order they were scheduled (or last
/// re-armed), which makes the order of simultaneous events part of the model rather than an
/// accident of the heap. Time and sequence form one 128-bit key (time's sign bit flipped,
/// so that unsigned order is signed time order), so one comparison orders two events.
///
/// The queue is a value: a copy is independent of the original. Both parts are
/// copy-on-write, and the queue un-shares them together (`makeUnique`), so that one
/// uniqueness check per call covers both: the hold model's pop and schedule pay for one
/// check each, as they did when the queue had a storage of its own.
public struct EventQueue<Payload> {
    @usableFromInline var heap = Heap<Int32>()
    @usableFromInline var slots = SlotTable<Payload>()
    @usableFromInline var nextSequence: UInt64 = 0

    /// The most events that may be pending at once. A model that schedules without bound
    /// is a bug, and this turns it into a clear trap instead of an exhausted machine.
    public let capacityMax: Int

    /// Creates an empty queue.
    /// - Parameter capacityMax: the most events that may be pending at once.
    public init(capacityMax: Int = 1 << 24) {
        precondition(capacityMax > 0 && capacityMax <= Int(Int32.max) / 2)
        self.capacityMax = capacityMax
    }

    /// The number of pending events.
    /// - Complexity: O(1)
    @inlinable public var count: Int { heap.count }

    /// Whether no event is pending.
    /// - Complexity: O(1)
    @inlinable public var isEmpty: Bool { heap.isEmpty }

    /// The time of the earliest pending event, if any.
    /// - Complexity: O(1)
    @inlinable public var earliestTime: Int64? { heap.minKey.map(Self.time(ofKey:)) }

    /// The (time, sequence) key of the earliest pending event, if any.
    /// - Complexity: O(1)
    @inlinable var earliestKey: UInt128? { heap.minKey }

    /// Takes the next insertion sequence without scheduling anything: the key of an event
    /// kept outside the queue that orders among the others as if scheduled now.
    @inlinable
    mutating func reserveKey(time: Int64) -> UInt128 {
        let key = Self.key(time: time, sequence: nextSequence)
        nextSequence &+= 1
        return key
    }

    /// Schedules `payload` at `time` and returns a handle for cancelling or re-arming it.
    /// - Complexity: O(log n), amortised. After a pop it also fills the root the pop left
    ///   empty, in the same walk.
    @inlinable @discardableResult
    public mutating func schedule(_ payload: Payload, at time: Int64) -> TimerHandle {
        precondition(heap.count < capacityMax, "event queue is over its limit of \(capacityMax) pending events")
        // The slot is live and its table unique, so its generation and tags are read
        // straight from the storage.
        makeUnique()
        let slot = slots.insertIntoUnique(payload)
        let storage = slots.storage
        heap.insertIntoUnique(slot, key: reserveKey(time: time), positions: SlotPositions(tags: storage.tags))
        return TimerHandle(slot: slot, generation: storage.generations[Int(slot)])
    }

    /// Removes and returns the earliest event, or `nil` when none is pending.
    /// - Complexity: O(log n); O(1) when the last mutation was not a pop, and then the next
    ///   mutation pays the O(log n).
    @inlinable
    public mutating func popEarliest() -> (time: Int64, payload: Payload)? {
        guard !heap.isEmpty else { return nil }
        makeUnique()
        let (key, slot) = heap.removeMinFromUnique(positions: SlotPositions(tags: slots.storage.tags))
        return (Self.time(ofKey: key), slots.removeFromUnique(slot))
    }

    /// Whether the handle names an event that is still pending.
    /// - Complexity: O(1)
    @inlinable public func isPending(_ handle: TimerHandle) -> Bool {
        slots.contains(handle.slot, generation: handle.generation)
    }

    /// The time at which a pending event will fire.
    /// - Complexity: O(1)
    @inlinable public func time(of handle: TimerHandle) -> Int64? {
        guard isPending(handle) else { return nil }
        return Self.time(ofKey: heap.key(at: Int(slots.tag(of: handle.slot))))
    }

    /// Cancels a pending event. Returns `false` if it already fired or was cancelled.
    /// - Complexity: O(log n)
    @inlinable @discardableResult
    public mutating func cancel(_ handle: TimerHandle) -> Bool {
        guard isPending(handle) else { return false }
        makeUnique()
        _ = heap.remove(handle.slot, positions: positions())
        _ = slots.remove(handle.slot)
        return true
    }

    /// Moves a pending event to a new time, optionally replacing what it carries. A re-armed
    /// event counts as newly inserted for tie-breaking: it fires after every event already
    /// scheduled for the same instant. Returns `false` if the event already fired or was
    /// cancelled.
    /// - Complexity: O(log n)
    @inlinable @discardableResult
    public mutating func reschedule(_ handle: TimerHandle, to time: Int64, payload: Payload? = nil) -> Bool {
        guard isPending(handle) else { return false }
        makeUnique()
        if let payload { slots[handle.slot] = payload }
        heap.update(handle.slot, key: reserveKey(time: time), positions: positions())
        return true
    }
}

// MARK: - Keys and positions

extension EventQueue {
    /// The 128-bit key of an event: time (sign bit flipped, so that unsigned order is
    /// signed time order) in the high half, insertion sequence in the low half.
    @inlinable @inline(__always)
    static func key(time: Int64, sequence: UInt64) -> UInt128 {
        UInt128(UInt64(bitPattern: time) ^ (1 << 63)) << 64 | UInt128(sequence)
    }

    @inlinable @inline(__always)
    static func time(ofKey key: UInt128) -> Int64 {
        Int64(bitPattern: UInt64(truncatingIfNeeded: key >> 64) ^ (1 << 63))
    }

    /// Gives this queue its own heap and slot table if it shares them with a copy. The two
    /// are always shared by the same queues — a copy shares both, and every mutation starts
    /// here and un-shares both — so the heap's uniqueness is the table's too.
    @inlinable @inline(__always)
    mutating func makeUnique() {
        if _slowPath(!isKnownUniquelyReferenced(&heap.storage)) {
            heap.storage = heap.storage.copy(capacity: heap.storage.capacity)
            slots.storage = slots.storage.copy(capacity: slots.storage.capacity)
        }
    }

    /// Where the heap finds and files each event's slot: the slot table's tags, which
    /// `makeUnique` has made this queue's own, so that the heap's moves write into them.
    @inlinable @inline(__always)
    func positions() -> SlotPositions { SlotPositions(tags: slots.storage.tags) }

    /// The heap index of every pending event, kept in its slot's tag.
    @usableFromInline
    struct SlotPositions: HeapPositions {
        @usableFromInline let tags: UnsafeMutablePointer<Int32>
        @inlinable init(tags: UnsafeMutablePointer<Int32>) { self.tags = tags }
        @inlinable @inline(__always)
        func moved(_ slot: Int32, to index: Int) { tags[Int(slot)] = Int32(truncatingIfNeeded: index) }
        @inlinable @inline(__always)
        func index(of slot: Int32) -> Int { Int(tags[Int(slot)]) }
    }
}
