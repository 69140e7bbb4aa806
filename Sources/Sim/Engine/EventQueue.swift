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
/// A 4-ary min-heap of small entries plus a slot table that maps every handle to its heap
/// position, so that a timer can be cancelled or re-armed in O(log n). Ties in time fire in
/// the order they were scheduled (or last re-armed), which makes the order of simultaneous
/// events part of the model rather than an accident of the heap.
///
/// The queue is a value: a copy is independent of the original. Both share one storage
/// until either is mutated, which then copies it first (copy-on-write).
///
/// Why it is shaped like this (measured with `make bench`, the hold model at 1,000 pending
/// events):
///
/// - A pop leaves the root empty, because what an event handler most often does next is
///   schedule another event, and that fills the hole in one pass. Filling the hole — then,
///   or before any other mutation — walks it down to a leaf along the earliest child and
///   sifts the new entry (or else the heap's last one) up from there (Floyd's trick: it
///   nearly always belongs near the bottom). A pop and a schedule thus cost one walk down
///   instead of a walk down and two sifts up.
/// - Each level of the walk picks the earliest of four children without a branch (the
///   comparison is a coin flip a branch predictor cannot learn), as a two-round tournament,
///   so only two comparisons lie on the path to the next level; four children halve the
///   depth of a binary heap.
/// - Time and sequence form one 128-bit key, so one unsigned comparison orders entries.
///   Keys are stored apart from slots, so the four children's keys fill exactly one cache
///   line, and sentinel keys after the last entry let every parent be read as full.
/// - All buffers live in one `EventQueueStorage`: each operation checks uniqueness once and
///   then uses raw pointers, instead of paying an array's uniqueness and bounds checks on
///   every access, and payloads are stored unwrapped (liveness is the slot's position).
public struct EventQueue<Payload> {
    @usableFromInline var storage: EventQueueStorage<Payload>
    /// Pending events, which is also the number of live slots.
    @usableFromInline var heapCount: Int = 0
    /// Whether heap index 0 is empty after a pop, with the events at 1 … `heapCount`. Never
    /// true while the queue is empty.
    @usableFromInline var rootIsHole = false
    /// The first free slot, or −1 when every slot is live (the next schedule grows).
    @usableFromInline var freeSlotHead: Int32 = -1
    @usableFromInline var nextSequence: UInt64 = 0

    /// The most events that may be pending at once. A model that schedules without bound
    /// is a bug, and this turns it into a clear trap instead of an exhausted machine.
    public let capacityMax: Int

    /// Creates an empty queue.
    /// - Parameter capacityMax: the most events that may be pending at once.
    public init(capacityMax: Int = 1 << 24) {
        precondition(capacityMax > 0 && capacityMax <= Int(Int32.max))
        self.capacityMax = capacityMax
        storage = EventQueueStorage(capacity: 0)
    }

    /// The number of pending events.
    /// - Complexity: O(1)
    @inlinable public var count: Int { heapCount }

    /// Whether no event is pending.
    /// - Complexity: O(1)
    @inlinable public var isEmpty: Bool { heapCount == 0 }

    /// The time of the earliest pending event, if any.
    /// - Complexity: O(1)
    @inlinable public var earliestTime: Int64? {
        // Under an empty root the earliest event is the earliest of its children; the keys
        // after the last entry are sentinels, so reading all four is safe.
        earliestKey.map(Self.time(ofKey:))
    }

    /// The (time, sequence) key of the earliest pending event, if any.
    /// - Complexity: O(1)
    @inlinable var earliestKey: UInt128? {
        guard heapCount > 0 else { return nil }
        let keys = storage.keys
        return rootIsHole ? min(min(keys[1], keys[2]), min(keys[3], keys[4])) : keys[0]
    }

    /// Takes the next insertion sequence without scheduling anything: the key of an event
    /// kept outside the queue that orders among the others as if scheduled now.
    @inlinable
    mutating func reserveKey(time: Int64) -> UInt128 {
        let key = Self.key(time: time, sequence: nextSequence)
        nextSequence &+= 1
        return key
    }

    /// Schedules `payload` at `time` and returns a handle for cancelling or re-arming it.
    /// - Complexity: O(log n), amortised: the slot table doubles when full. After a pop it
    ///   also fills the root the pop left empty, in the same walk.
    @inlinable @discardableResult
    public mutating func schedule(_ payload: Payload, at time: Int64) -> TimerHandle {
        precondition(heapCount < capacityMax, "event queue is over its limit of \(capacityMax) pending events")
        makeUnique()
        if freeSlotHead < 0 { grow() }
        let storage = self.storage
        let slot = freeSlotHead
        freeSlotHead = Self.decodeFree(storage.positions[Int(slot)])
        (storage.payloads + Int(slot)).initialize(to: payload)
        let key = Self.key(time: time, sequence: nextSequence)
        nextSequence &+= 1
        if rootIsHole {
            Self.refill(storage, count: heapCount &+ 1, hole: 0, key: key, slot: slot)
            rootIsHole = false
        } else {
            Self.siftUp(storage, from: heapCount, key: key, slot: slot)
        }
        heapCount &+= 1
        checkInvariantsIfEnabled()
        return TimerHandle(slot: slot, generation: storage.generations[Int(slot)])
    }

    /// Removes and returns the earliest event, or `nil` when none is pending.
    /// - Complexity: O(log n); O(1) when the last mutation was not a pop, and then the next
    ///   mutation pays the O(log n).
    @inlinable
    public mutating func popEarliest() -> (time: Int64, payload: Payload)? {
        guard heapCount > 0 else { return nil }
        makeUnique()
        if rootIsHole { fillRootHole() }
        let storage = self.storage
        let rootKey = storage.keys[0]
        let payload = releaseSlot(storage.heapSlots[0])
        heapCount &-= 1
        if heapCount > 0 {
            rootIsHole = true
        } else {
            storage.keys[0] = .max
        }
        checkInvariantsIfEnabled()
        return (Self.time(ofKey: rootKey), payload)
    }

    /// Whether the handle names an event that is still pending.
    /// - Complexity: O(1)
    @inlinable public func isPending(_ handle: TimerHandle) -> Bool {
        let slot = Int(handle.slot)
        return slot >= 0 && slot < storage.capacity
            && storage.generations[slot] == handle.generation && storage.positions[slot] >= 0
    }

    /// The time at which a pending event will fire.
    /// - Complexity: O(1)
    @inlinable public func time(of handle: TimerHandle) -> Int64? {
        guard isPending(handle) else { return nil }
        return Self.time(ofKey: storage.keys[Int(storage.positions[Int(handle.slot)])])
    }

    /// Cancels a pending event. Returns `false` if it already fired or was cancelled.
    /// - Complexity: O(log n)
    @inlinable @discardableResult
    public mutating func cancel(_ handle: TimerHandle) -> Bool {
        guard isPending(handle) else { return false }
        makeUnique()
        if rootIsHole { fillRootHole() }
        let storage = self.storage
        let index = Int(storage.positions[Int(handle.slot)])
        _ = releaseSlot(handle.slot)
        heapCount &-= 1
        let (lastKey, lastSlot) = Self.removeLast(storage, count: heapCount)
        if index < heapCount { Self.refill(storage, count: heapCount, hole: index, key: lastKey, slot: lastSlot) }
        checkInvariantsIfEnabled()
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
        if rootIsHole { fillRootHole() }
        let storage = self.storage
        let slot = Int(handle.slot)
        if let payload { storage.payloads[slot] = payload }
        let key = Self.key(time: time, sequence: nextSequence)
        nextSequence &+= 1
        Self.refill(storage, count: heapCount, hole: Int(storage.positions[slot]), key: key, slot: handle.slot)
        checkInvariantsIfEnabled()
        return true
    }
}

// MARK: - Slots and storage

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

    /// A free slot's position: the next free slot `next` (−1 for none) as a negative number,
    /// so that "position ≥ 0" alone says a slot is live.
    @inlinable @inline(__always)
    static func encodeFree(next: Int32) -> Int32 { -2 &- next }

    @inlinable @inline(__always)
    static func decodeFree(_ position: Int32) -> Int32 { -2 &- position }

    /// Heap indices in use: the events, plus the empty root after a pop.
    @inlinable var heapEnd: Int { rootIsHole ? heapCount &+ 1 : heapCount }

    /// Gives this queue its own storage if it shares it with a copy: the one uniqueness
    /// check of a mutating call.
    @inlinable @inline(__always)
    mutating func makeUnique() {
        if _slowPath(!isKnownUniquelyReferenced(&storage)) {
            storage = storage.copy(count: heapEnd, capacity: storage.capacity)
        }
    }

    /// Fills the empty root that a pop left with the heap's last entry, so that the heap is
    /// whole again before a mutation other than a schedule.
    @inlinable
    mutating func fillRootHole() {
        let (lastKey, lastSlot) = Self.removeLast(storage, count: heapCount)
        Self.refill(storage, count: heapCount, hole: 0, key: lastKey, slot: lastSlot)
        rootIsHole = false
    }

    /// Doubles the slot table (up to `capacityMax`) and puts the new slots on the free list.
    /// Called only when no slot is free, that is when every slot holds a pending event.
    /// - Complexity: O(n)
    @usableFromInline
    mutating func grow() {
        precondition(freeSlotHead < 0 && !rootIsHole && heapCount == storage.capacity && heapCount < capacityMax)
        let oldCapacity = storage.capacity
        let newCapacity = min(max(16, 2 * oldCapacity), capacityMax)
        storage = storage.copy(count: heapCount, capacity: newCapacity)
        for slot in oldCapacity..<newCapacity {
            let next = slot + 1 < newCapacity ? Int32(slot + 1) : -1
            storage.positions[slot] = Self.encodeFree(next: next)
        }
        freeSlotHead = Int32(oldCapacity)
    }

    /// Frees a live slot: moves its payload out, bumps its generation and pushes it on the
    /// free list. The caller removes its heap entry.
    @inlinable @inline(__always)
    mutating func releaseSlot(_ slot: Int32) -> Payload {
        let storage = self.storage
        let index = Int(slot)
        let payload = (storage.payloads + index).move()
        storage.generations[index] &+= 1
        storage.positions[index] = Self.encodeFree(next: freeSlotHead)
        freeSlotHead = slot
        return payload
    }
}

// MARK: - Heap mechanics

// The loops below work on raw pointers into storage that `makeUnique` has just made unique;
// every index they touch is below the heap's count, which never exceeds the capacity.
extension EventQueue {
    /// Children per node.
    @usableFromInline static var arity: Int { 4 }

    /// Takes the entry at heap index `count` (the old last one) out of the heap and leaves a
    /// sentinel key in its place.
    @inlinable @inline(__always)
    static func removeLast(_ storage: EventQueueStorage<Payload>, count: Int) -> (key: UInt128, slot: Int32) {
        let last = (storage.keys[count], storage.heapSlots[count])
        storage.keys[count] = .max
        return last
    }

    /// Puts (`key`, `slot`) at heap index `start` or above: moves later parents down until
    /// its parent precedes it.
    @inlinable @inline(__always)
    static func siftUp(_ storage: EventQueueStorage<Payload>, from start: Int, key: UInt128, slot: Int32) {
        let keys = storage.keys
        let heapSlots = storage.heapSlots
        let positions = storage.positions
        var index = start
        while index > 0 {
            let parent = (index &- 1) >> 2
            let parentKey = keys[parent]
            guard key < parentKey else { break }
            let parentSlot = heapSlots[parent]
            keys[index] = parentKey
            heapSlots[index] = parentSlot
            positions[Int(parentSlot)] = Int32(truncatingIfNeeded: index)
            index = parent
        }
        keys[index] = key
        heapSlots[index] = slot
        positions[Int(slot)] = Int32(truncatingIfNeeded: index)
    }

    /// Puts (`key`, `slot`) into the heap of `count` entries where `hole` is: walks the hole
    /// down to a leaf along the earliest child, then sifts the entry up from there. Correct
    /// for any entry, also one that belongs above the hole (a cancelled event's replacement,
    /// a re-armed timer).
    ///
    /// Every node with a child is read as if it had four: the keys after the last entry are
    /// sentinels (`UInt128.max`) that never win, so there is no special case for the last
    /// parent. (A real key can equal the sentinel only at time `Int64.max` after 2⁶⁴
    /// insertions; even then it is earlier in the array and wins the tie.)
    @inlinable @inline(__always)
    static func refill(_ storage: EventQueueStorage<Payload>, count: Int, hole start: Int, key: UInt128, slot: Int32) {
        let keys = storage.keys
        let heapSlots = storage.heapSlots
        let positions = storage.positions
        // The walk is a chain of dependent loads, so it tracks byte offsets rather than
        // indices: the next group's offset is then one multiply-add of the winner's.
        let keyBytes = MemoryLayout<UInt128>.stride
        let keyBase = UnsafeRawPointer(keys)
        let endBytes = count &* keyBytes
        var hole = start
        var firstBytes = (4 &* hole &+ 1) &* keyBytes
        while firstBytes < endBytes {
            // The earliest of four children, as a tournament without branches: keys are
            // unique (the sequence breaks ties), so `<` decides every match.
            let key0 = keyBase.load(fromByteOffset: firstBytes, as: UInt128.self)
            let key1 = keyBase.load(fromByteOffset: firstBytes &+ keyBytes, as: UInt128.self)
            let key2 = keyBase.load(fromByteOffset: firstBytes &+ 2 &* keyBytes, as: UInt128.self)
            let key3 = keyBase.load(fromByteOffset: firstBytes &+ 3 &* keyBytes, as: UInt128.self)
            let left = key1 < key0 ? firstBytes &+ keyBytes : firstBytes
            let leftKey = key1 < key0 ? key1 : key0
            let right = key3 < key2 ? firstBytes &+ 3 &* keyBytes : firstBytes &+ 2 &* keyBytes
            let rightKey = key3 < key2 ? key3 : key2
            let bestBytes = rightKey < leftKey ? right : left
            let best = Int(bitPattern: UInt(bitPattern: bestBytes) / UInt(keyBytes))  // a shift, not a signed division
            let childSlot = heapSlots[best]
            keys[hole] = rightKey < leftKey ? rightKey : leftKey
            heapSlots[hole] = childSlot
            positions[Int(childSlot)] = Int32(truncatingIfNeeded: hole)
            hole = best
            firstBytes = 4 &* bestBytes &+ keyBytes
        }
        siftUp(storage, from: hole, key: key, slot: slot)
    }
}
