/// The buffers behind an `EventQueue`: the heap (keys and slots) and the slot table
/// (positions, generations, payloads), each manually allocated with the same capacity.
///
/// Why a class with raw buffers rather than five arrays: every array mutation pays its own
/// uniqueness check and bounds check, and an `Optional` payload pays for its tag on every
/// move. Here the queue checks uniqueness once per mutating call (`EventQueue.makeUnique`)
/// and then works through raw pointers. The buffers never change after `init` (growing
/// makes a new storage), so they are `let` and need no exclusivity checks; the counters
/// that do change (`count`, the free-list head, the sequence) live in the `EventQueue`
/// value itself.
///
/// What is initialised: `positions` and `generations` over the whole capacity; `keys` over
/// the capacity plus `keysPadding`, with `UInt128.max` beyond the queue's count (sentinels,
/// see `EventQueue.refill`); `heapSlots` over the queue's count (tracked by the queue);
/// `payloads` exactly at the live slots, which are the slots whose position is non-negative.
/// A free slot's position encodes the next free slot (see `EventQueue.encodeFree`), so it
/// is always negative.
@usableFromInline
final class EventQueueStorage<Payload> {
    /// Slots (and heap entries) the buffers hold.
    @usableFromInline let capacity: Int
    /// Per heap index: the (time, sequence) key. Starts three keys into a 64-byte aligned
    /// allocation, so that the four children of every node (4i+1 … 4i+4) share one cache line.
    @usableFromInline let keys: UnsafeMutablePointer<UInt128>
    /// Per heap index: the slot of the event there.
    @usableFromInline let heapSlots: UnsafeMutablePointer<Int32>
    /// Per slot: its heap index while live; the encoded next free slot (negative) while free.
    @usableFromInline let positions: UnsafeMutablePointer<Int32>
    /// Per slot: bumped on release, so stale handles are recognised.
    @usableFromInline let generations: UnsafeMutablePointer<UInt32>
    /// Per slot: what the event carries; initialised only while the slot is live.
    @usableFromInline let payloads: UnsafeMutablePointer<Payload>
    /// The allocation `keys` points into.
    let keysAllocation: UnsafeMutableRawPointer

    /// Keys skipped at the start of `keysAllocation` to line the child groups up.
    static var keysOffset: Int { 3 }
    /// Sentinel keys after the last slot: the last parent's four children can always be read.
    @usableFromInline static var keysPadding: Int { 3 }

    /// Allocates buffers for `capacity` slots, all free and unlinked (position −1), with
    /// generation 0, and an empty heap (every key a sentinel).
    /// - Complexity: O(capacity)
    @usableFromInline
    init(capacity: Int) {
        precondition(capacity >= 0 && capacity <= Int(Int32.max), "event queue capacity \(capacity) out of range")
        self.capacity = capacity
        let keyStride = MemoryLayout<UInt128>.stride
        keysAllocation = UnsafeMutableRawPointer.allocate(
            byteCount: (Self.keysOffset + capacity + Self.keysPadding) * keyStride,
            alignment: max(64, MemoryLayout<UInt128>.alignment))
        keys = (keysAllocation + Self.keysOffset * keyStride)
            .bindMemory(to: UInt128.self, capacity: capacity + Self.keysPadding)
        keys.initialize(repeating: .max, count: capacity + Self.keysPadding)
        heapSlots = .allocate(capacity: capacity)
        positions = .allocate(capacity: capacity)
        positions.initialize(repeating: -1, count: capacity)
        generations = .allocate(capacity: capacity)
        generations.initialize(repeating: 0, count: capacity)
        payloads = .allocate(capacity: capacity)
    }

    deinit {
        if !_isPOD(Payload.self) {
            for slot in 0..<capacity where positions[slot] >= 0 {
                (payloads + slot).deinitialize(count: 1)
            }
        }
        keys.deinitialize(count: capacity + Self.keysPadding)
        keysAllocation.deallocate()
        heapSlots.deallocate()
        positions.deinitialize(count: capacity)
        positions.deallocate()
        generations.deinitialize(count: capacity)
        generations.deallocate()
        payloads.deallocate()
    }

    /// A storage with the same contents and `newCapacity` slots; the slots beyond the old
    /// capacity are free and unlinked. Used to un-share a queue (copy-on-write) and to grow it.
    /// - Parameter count: the number of heap entries (live slots) to copy.
    /// - Complexity: O(newCapacity)
    @usableFromInline
    func copy(count: Int, capacity newCapacity: Int) -> EventQueueStorage {
        precondition(count <= capacity && capacity <= newCapacity)
        let copy = EventQueueStorage(capacity: newCapacity)
        copy.keys.update(from: keys, count: count)
        copy.heapSlots.initialize(from: heapSlots, count: count)
        copy.positions.update(from: positions, count: capacity)
        copy.generations.update(from: generations, count: capacity)
        for slot in 0..<capacity where positions[slot] >= 0 {
            (copy.payloads + slot).initialize(to: payloads[slot])
        }
        return copy
    }
}
