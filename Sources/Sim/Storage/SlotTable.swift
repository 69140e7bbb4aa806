/// A table of values addressed by small integer indices, reused through a free list: the
/// one slot pool of `Sim`. The event queue keeps its payloads here, each executor its tasks,
/// the keyboard its task contexts.
///
/// Every slot also carries a generation, bumped when its value is removed, so that a handle
/// made of (index, generation) — a `TimerHandle` — recognises that its value is gone even
/// after the slot is reused; and a tag, a non-negative number the owner may keep beside a
/// live value (the event queue keeps the event's heap index there). A free slot's tag holds
/// the next free slot instead, encoded as a negative number, so "tag ≥ 0" alone says a slot
/// is live.
///
/// Slots are reused last freed, first taken; a table that grows puts its new slots on the
/// free list lowest first. So the indices handed out depend only on the order of inserts
/// and removals, never on anything else.
///
/// A value: a copy is independent of the original. Both share one storage until either is
/// mutated, which then copies it first (copy-on-write). Each mutating call checks
/// uniqueness once and then works through raw pointers.
@usableFromInline
struct SlotTable<Value> {
    @usableFromInline var storage: SlotTableStorage<Value>

    /// Creates an empty table.
    @inlinable
    init() {
        storage = SlotTableStorage(capacity: 0)
    }

    /// The number of live values.
    /// - Complexity: O(1)
    @inlinable var count: Int { storage.liveCount }

    /// Whether no value is stored.
    /// - Complexity: O(1)
    @inlinable var isEmpty: Bool { storage.liveCount == 0 }

    /// The number of slots, live or free.
    /// - Complexity: O(1)
    @inlinable var capacity: Int { storage.capacity }

    /// Stores `value` in a free slot (the one freed last) or a new one, and returns its index.
    /// - Complexity: O(1), amortised: the storage doubles when full.
    @inlinable @inline(__always)
    mutating func insert(_ value: consuming Value) -> Int32 {
        makeUnique()
        return insertIntoUnique(value)
    }

    /// `insert(_:)` for a caller that has just called `makeUnique()`: a queue that checks
    /// once for several calls.
    @inlinable @inline(__always)
    mutating func insertIntoUnique(_ value: consuming Value) -> Int32 {
        if _slowPath(storage.freeHead < 0) { grow() }
        let storage = self.storage
        let slot = storage.freeHead
        storage.freeHead = Self.decodeFree(storage.tags[Int(slot)])
        storage.tags[Int(slot)] = 0
        (storage.values + Int(slot)).initialize(to: value)
        storage.liveCount &+= 1
        checkInvariantsIfEnabled()
        return slot
    }

    /// Removes and returns the value in slot `slot`; the slot's generation moves on, and the
    /// slot is the next one `insert` takes.
    /// - Precondition: `slot` is live. Each value is removed once.
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    mutating func remove(_ slot: Int32) -> Value {
        makeUnique()
        precondition(contains(slot), "a slot is removed once, while live")
        return removeFromUnique(slot)
    }

    /// `remove(_:)` for a caller that has just called `makeUnique()` and knows `slot` is
    /// live (the event queue's heap holds it).
    @inlinable @inline(__always)
    mutating func removeFromUnique(_ slot: Int32) -> Value {
        let storage = self.storage
        let index = Int(slot)
        let value = (storage.values + index).move()
        storage.generations[index] &+= 1
        storage.tags[index] = Self.encodeFree(next: storage.freeHead)
        storage.freeHead = slot
        storage.liveCount &-= 1
        checkInvariantsIfEnabled()
        return value
    }

    /// Whether slot `slot` holds a value.
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    func contains(_ slot: Int32) -> Bool {
        slot >= 0 && Int(slot) < storage.capacity && storage.tags[Int(slot)] >= 0
    }

    /// The generation of slot `slot`: how many values it has held and lost.
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    func generation(of slot: Int32) -> UInt32 {
        precondition(slot >= 0 && Int(slot) < storage.capacity, "slot \(slot) out of range")
        return storage.generations[Int(slot)]
    }

    /// Whether slot `slot` holds a value and has generation `generation`: a handle's test
    /// that its value is still there.
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    func contains(_ slot: Int32, generation: UInt32) -> Bool {
        contains(slot) && storage.generations[Int(slot)] == generation
    }

    /// The owner's tag of live slot `slot`.
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    func tag(of slot: Int32) -> Int32 {
        precondition(contains(slot), "only a live slot has a tag")
        return storage.tags[Int(slot)]
    }

    /// The value in live slot `slot`, read or changed in place.
    /// - Complexity: O(1)
    @inlinable
    subscript(slot: Int32) -> Value {
        @inline(__always) get {
            precondition(contains(slot), "slot \(slot) is not live")
            return storage.values[Int(slot)]
        }
        @inline(__always) _modify {
            makeUnique()
            precondition(contains(slot), "slot \(slot) is not live")
            yield &storage.values[Int(slot)]
        }
    }

    /// Calls `body` with every live slot and its value, in slot order.
    /// - Complexity: O(capacity)
    @inlinable
    func forEach(_ body: (Int32, Value) throws -> Void) rethrows {
        let storage = self.storage
        for slot in 0..<storage.capacity where storage.tags[slot] >= 0 { try body(Int32(slot), storage.values[slot]) }
    }

    /// Removes every value, keeping the slots: every live slot's generation moves on, and the
    /// free list starts again from slot 0, as in a new table.
    /// - Complexity: O(capacity)
    @inlinable
    mutating func removeAll() {
        makeUnique()
        let storage = self.storage
        for slot in 0..<storage.capacity {
            if storage.tags[slot] >= 0 {
                (storage.values + slot).deinitialize(count: 1)
                storage.generations[slot] &+= 1
            }
            storage.tags[slot] = Self.encodeFree(next: slot + 1 < storage.capacity ? Int32(slot + 1) : -1)
        }
        storage.freeHead = storage.capacity > 0 ? 0 : -1
        storage.liveCount = 0
        checkInvariantsIfEnabled()
    }
}

// MARK: - Storage and the free list

extension SlotTable {
    /// A free slot's tag: the next free slot `next` (−1 for none) as a negative number.
    @inlinable @inline(__always)
    static func encodeFree(next: Int32) -> Int32 { -2 &- next }

    @inlinable @inline(__always)
    static func decodeFree(_ tag: Int32) -> Int32 { -2 &- tag }

    /// Gives this table its own storage if it shares it with a copy.
    @inlinable @inline(__always)
    mutating func makeUnique() {
        if _slowPath(!isKnownUniquelyReferenced(&storage)) { storage = storage.copy(capacity: storage.capacity) }
    }

    /// Doubles the storage and puts the new slots on the free list, lowest first. Called
    /// only when no slot is free.
    /// - Complexity: O(capacity)
    @usableFromInline
    mutating func grow() {
        precondition(storage.freeHead < 0 && storage.capacity < Int(Int32.max) / 2, "a slot table is limited to 2³⁰ slots")
        let oldCapacity = storage.capacity
        storage = storage.move(capacity: Swift.max(16, 2 * oldCapacity))
        for slot in oldCapacity..<storage.capacity {
            storage.tags[slot] = Self.encodeFree(next: slot + 1 < storage.capacity ? Int32(slot + 1) : -1)
        }
        storage.freeHead = Int32(oldCapacity)
    }
}

extension SlotTable: @unchecked Sendable where Value: Sendable {}
