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
/// Why it is shaped like this (measured with `make bench`, the hold model at 1,000 pending
/// events): a pop walks the hole left by the root down to a leaf along the earliest child
/// and then sifts the heap's last entry up from there (Floyd's trick: it nearly always
/// belongs near the bottom). Each level picks the earliest of four children without a
/// branch — the comparison is a coin flip a branch predictor cannot learn — and four
/// children halve the depth of a binary heap. Time and sequence form one 128-bit key, so
/// one unsigned comparison orders entries. The slot table is split into parallel arrays so
/// that a sift touches only the heap and 4-byte positions.
public struct EventQueue<Payload> {
    /// A heap entry: (time, sequence) as the high and low halves of one 128-bit key.
    @usableFromInline struct Entry {
        @usableFromInline var key: UInt128
        @usableFromInline var slot: Int32

        @usableFromInline init(time: Int64, sequence: UInt64, slot: Int32) {
            self.key = UInt128(UInt64(bitPattern: time) ^ (1 << 63)) << 64 | UInt128(sequence)
            self.slot = slot
        }

        @inlinable var time: Int64 { Int64(bitPattern: UInt64(truncatingIfNeeded: key >> 64) ^ (1 << 63)) }
    }

    /// Children per node.
    @usableFromInline static var arity: Int { 4 }

    @usableFromInline var heap: ContiguousArray<Entry> = []
    /// Per slot: its heap index while live; the next free slot (or −1) while free.
    @usableFromInline var positions: ContiguousArray<Int32> = []
    /// Per slot: bumped on release, so stale handles are recognised.
    @usableFromInline var generations: ContiguousArray<UInt32> = []
    /// Per slot: what the event carries; `nil` while free.
    @usableFromInline var payloads: ContiguousArray<Payload?> = []
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
    }

    /// The number of pending events.
    /// - Complexity: O(1)
    @inlinable public var count: Int { heap.count }

    /// Whether no event is pending.
    /// - Complexity: O(1)
    @inlinable public var isEmpty: Bool { heap.isEmpty }

    /// The time of the earliest pending event, if any.
    /// - Complexity: O(1)
    @inlinable public var earliestTime: Int64? { heap.first?.time }

    /// Schedules `payload` at `time` and returns a handle for cancelling or re-arming it.
    /// - Complexity: O(log n)
    @inlinable @discardableResult
    public mutating func schedule(_ payload: Payload, at time: Int64) -> TimerHandle {
        precondition(heap.count < capacityMax, "event queue is over its limit of \(capacityMax) pending events")
        let slot: Int32
        if freeSlotHead >= 0 {
            slot = freeSlotHead
            freeSlotHead = positions[Int(slot)]
            payloads[Int(slot)] = payload
        } else {
            slot = Int32(truncatingIfNeeded: positions.count)
            positions.append(0)
            generations.append(0)
            payloads.append(payload)
        }
        heap.append(Entry(time: time, sequence: nextSequence, slot: slot))
        nextSequence &+= 1
        siftUp(heap.count - 1)
        checkInvariantsIfEnabled()
        return TimerHandle(slot: slot, generation: generations[Int(slot)])
    }

    /// Removes and returns the earliest event, or `nil` when none is pending.
    /// - Complexity: O(log n)
    @inlinable
    public mutating func popEarliest() -> (time: Int64, payload: Payload)? {
        guard let root = heap.first else { return nil }
        let payload = releaseSlot(root.slot)
        let last = heap.removeLast()
        if !heap.isEmpty { refill(hole: 0, with: last) }
        checkInvariantsIfEnabled()
        return (root.time, payload)
    }

    /// Whether the handle names an event that is still pending.
    /// - Complexity: O(1)
    @inlinable public func isPending(_ handle: TimerHandle) -> Bool {
        let slot = Int(handle.slot)
        return slot < generations.count && generations[slot] == handle.generation && payloads[slot] != nil
    }

    /// The time at which a pending event will fire.
    /// - Complexity: O(1)
    @inlinable public func time(of handle: TimerHandle) -> Int64? {
        guard isPending(handle) else { return nil }
        return heap[Int(positions[Int(handle.slot)])].time
    }

    /// Cancels a pending event. Returns `false` if it already fired or was cancelled.
    /// - Complexity: O(log n)
    @inlinable @discardableResult
    public mutating func cancel(_ handle: TimerHandle) -> Bool {
        guard isPending(handle) else { return false }
        let index = Int(positions[Int(handle.slot)])
        _ = releaseSlot(handle.slot)
        let last = heap.removeLast()
        if index < heap.count { refill(hole: index, with: last) }
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
        if let payload { payloads[Int(handle.slot)] = payload }
        let index = Int(positions[Int(handle.slot)])
        let moved = Entry(time: time, sequence: nextSequence, slot: handle.slot)
        nextSequence &+= 1
        refill(hole: index, with: moved)
        checkInvariantsIfEnabled()
        return true
    }

    // MARK: - Heap mechanics

    @inlinable
    mutating func releaseSlot(_ slot: Int32) -> Payload {
        let index = Int(slot)
        let payload = payloads[index]!
        payloads[index] = nil
        generations[index] &+= 1
        positions[index] = freeSlotHead
        freeSlotHead = slot
        return payload
    }

    @inlinable @inline(__always)
    static func precedes(_ a: Entry, _ b: Entry) -> Bool { a.key < b.key }

    // The loops below work on raw buffers: bounds and uniqueness checks on every step cost
    // more than the comparisons themselves (the engine benchmark runs them ~10^7 times/s).

    @inlinable
    mutating func siftUp(_ start: Int) {
        heap.withUnsafeMutableBufferPointer { heap in
            positions.withUnsafeMutableBufferPointer { positions in
                Self.siftUp(heap, positions, from: start, entry: heap[start])
            }
        }
    }

    @inlinable @inline(__always)
    static func siftUp(_ heap: UnsafeMutableBufferPointer<Entry>, _ positions: UnsafeMutableBufferPointer<Int32>,
                       from start: Int, entry: Entry) {
        var index = start
        while index > 0 {
            let parent = (index - 1) >> 2
            let parentEntry = heap[parent]
            guard precedes(entry, parentEntry) else { break }
            heap[index] = parentEntry
            positions[Int(parentEntry.slot)] = Int32(truncatingIfNeeded: index)
            index = parent
        }
        heap[index] = entry
        positions[Int(entry.slot)] = Int32(truncatingIfNeeded: index)
    }

    /// Puts `entry` into the heap where `hole` is: walks the hole down to a leaf along the
    /// earliest child, then sifts `entry` up from there. Correct for any `entry`, also one
    /// that belongs above the hole (a cancelled event's replacement, a re-armed timer).
    @inlinable
    mutating func refill(hole start: Int, with entry: Entry) {
        heap.withUnsafeMutableBufferPointer { heap in
            positions.withUnsafeMutableBufferPointer { positions in
                let count = heap.count
                var hole = start
                while true {
                    let first = 4 * hole + 1
                    if first + 3 < count {
                        // All four children exist: the earliest, chosen without a branch.
                        var best = first
                        var bestKey = heap[first].key
                        for offset in 1...3 {
                            let key = heap[first + offset].key
                            let earlier = key < bestKey
                            best = earlier ? first + offset : best
                            bestKey = earlier ? key : bestKey
                        }
                        let child = heap[best]
                        heap[hole] = child
                        positions[Int(child.slot)] = Int32(truncatingIfNeeded: hole)
                        hole = best
                    } else if first < count {
                        var best = first
                        for candidate in (first + 1)..<count where heap[candidate].key < heap[best].key { best = candidate }
                        let child = heap[best]
                        heap[hole] = child
                        positions[Int(child.slot)] = Int32(truncatingIfNeeded: hole)
                        hole = best
                    } else {
                        break
                    }
                }
                Self.siftUp(heap, positions, from: hole, entry: entry)
            }
        }
    }
}
