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
/// A binary min-heap over small fixed-size entries, with a slot table that maps every
/// handle to its heap position so that a timer can be cancelled or re-armed in O(log n).
/// Ties in time fire in the order they were scheduled (or last re-armed), which makes the
/// order of simultaneous events part of the model rather than an accident of the heap.
public struct EventQueue<Payload> {
    @usableFromInline struct Entry {
        @usableFromInline var time: Int64
        @usableFromInline var sequence: UInt64
        @usableFromInline var slot: Int32
        @usableFromInline init(time: Int64, sequence: UInt64, slot: Int32) {
            self.time = time
            self.sequence = sequence
            self.slot = slot
        }
    }

    @usableFromInline struct Slot {
        @usableFromInline var payload: Payload?
        @usableFromInline var heapIndex: Int32
        @usableFromInline var generation: UInt32
        @usableFromInline init(payload: Payload?, heapIndex: Int32, generation: UInt32) {
            self.payload = payload
            self.heapIndex = heapIndex
            self.generation = generation
        }
    }

    @usableFromInline var heap: ContiguousArray<Entry> = []
    @usableFromInline var slots: ContiguousArray<Slot> = []
    @usableFromInline var freeSlots: ContiguousArray<Int32> = []
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
        if let reused = freeSlots.popLast() {
            slot = reused
            slots[Int(slot)].payload = payload
        } else {
            slot = Int32(slots.count)
            slots.append(Slot(payload: payload, heapIndex: 0, generation: 0))
        }
        let index = heap.count
        heap.append(Entry(time: time, sequence: nextSequence, slot: slot))
        nextSequence &+= 1
        slots[Int(slot)].heapIndex = Int32(index)
        siftUp(from: index)
        checkInvariantsIfEnabled()
        return TimerHandle(slot: slot, generation: slots[Int(slot)].generation)
    }

    /// Removes and returns the earliest event, or `nil` when none is pending.
    /// - Complexity: O(log n)
    @inlinable
    public mutating func popEarliest() -> (time: Int64, payload: Payload)? {
        guard let root = heap.first else { return nil }
        let payload = releaseSlot(root.slot)
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            slots[Int(last.slot)].heapIndex = 0
            siftDown(from: 0)
        }
        checkInvariantsIfEnabled()
        return (root.time, payload)
    }

    /// Whether the handle names an event that is still pending.
    /// - Complexity: O(1)
    @inlinable public func isPending(_ handle: TimerHandle) -> Bool {
        let slot = Int(handle.slot)
        return slot < slots.count && slots[slot].generation == handle.generation && slots[slot].payload != nil
    }

    /// The time at which a pending event will fire.
    /// - Complexity: O(1)
    @inlinable public func time(of handle: TimerHandle) -> Int64? {
        guard isPending(handle) else { return nil }
        return heap[Int(slots[Int(handle.slot)].heapIndex)].time
    }

    /// Cancels a pending event. Returns `false` if it already fired or was cancelled.
    /// - Complexity: O(log n)
    @inlinable @discardableResult
    public mutating func cancel(_ handle: TimerHandle) -> Bool {
        guard isPending(handle) else { return false }
        let index = Int(slots[Int(handle.slot)].heapIndex)
        _ = releaseSlot(handle.slot)
        let last = heap.removeLast()
        if index < heap.count {
            heap[index] = last
            slots[Int(last.slot)].heapIndex = Int32(index)
            restoreOrder(at: index)
        }
        checkInvariantsIfEnabled()
        return true
    }

    /// Moves a pending event to a new time, optionally replacing what it carries. A re-armed event counts as newly inserted for
    /// tie-breaking: it fires after every event already scheduled for the same instant.
    /// Returns `false` if the event already fired or was cancelled.
    /// - Complexity: O(log n)
    @inlinable @discardableResult
    public mutating func reschedule(_ handle: TimerHandle, to time: Int64, payload: Payload? = nil) -> Bool {
        guard isPending(handle) else { return false }
        if let payload { slots[Int(handle.slot)].payload = payload }
        let index = Int(slots[Int(handle.slot)].heapIndex)
        heap[index].time = time
        heap[index].sequence = nextSequence
        nextSequence &+= 1
        restoreOrder(at: index)
        checkInvariantsIfEnabled()
        return true
    }

    // MARK: - Heap mechanics

    @inlinable
    mutating func releaseSlot(_ slot: Int32) -> Payload {
        let index = Int(slot)
        let payload = slots[index].payload!
        slots[index].payload = nil
        slots[index].generation &+= 1
        freeSlots.append(slot)
        return payload
    }

    @inlinable
    static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.time < b.time || (a.time == b.time && a.sequence < b.sequence)
    }

    @inlinable
    mutating func restoreOrder(at index: Int) {
        if index > 0 && Self.precedes(heap[index], heap[(index - 1) / 2]) {
            siftUp(from: index)
        } else {
            siftDown(from: index)
        }
    }

    @inlinable
    mutating func siftUp(from start: Int) {
        var index = start
        let entry = heap[index]
        while index > 0 {
            let parent = (index - 1) / 2
            let parentEntry = heap[parent]
            guard Self.precedes(entry, parentEntry) else { break }
            heap[index] = parentEntry
            slots[Int(parentEntry.slot)].heapIndex = Int32(index)
            index = parent
        }
        heap[index] = entry
        slots[Int(entry.slot)].heapIndex = Int32(index)
    }

    @inlinable
    mutating func siftDown(from start: Int) {
        let count = heap.count
        var index = start
        let entry = heap[index]
        while true {
            let left = 2 * index + 1
            guard left < count else { break }
            var child = left
            let right = left + 1
            if right < count && Self.precedes(heap[right], heap[left]) { child = right }
            let childEntry = heap[child]
            guard Self.precedes(childEntry, entry) else { break }
            heap[index] = childEntry
            slots[Int(childEntry.slot)].heapIndex = Int32(index)
            index = child
        }
        heap[index] = entry
        slots[Int(entry.slot)].heapIndex = Int32(index)
    }
}
