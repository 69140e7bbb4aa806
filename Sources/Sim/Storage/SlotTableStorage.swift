/// The buffers behind a `SlotTable`: per slot a value, a tag and a generation, manually
/// allocated with the same capacity, and the counters of the free list.
///
/// What is initialised: `tags` and `generations` over the whole capacity; `values` exactly
/// at the live slots, which are the slots whose tag is non-negative. The buffers never
/// change after `init` (growing makes a new storage), so they are `let`; the counters are
/// read and written without exclusivity checks (the table reaches them only through its
/// unique reference).
@usableFromInline
final class SlotTableStorage<Value> {
    /// Slots the buffers hold.
    @usableFromInline let capacity: Int
    /// Per slot: the value, initialised only while the slot is live.
    @usableFromInline let values: UnsafeMutablePointer<Value>
    /// Per slot: the owner's tag (non-negative) while live; the encoded next free slot
    /// (negative) while free.
    @usableFromInline let tags: UnsafeMutablePointer<Int32>
    /// Per slot: bumped on every removal, so stale handles are recognised.
    @usableFromInline let generations: UnsafeMutablePointer<UInt32>
    /// The first free slot, or −1 when every slot is live (the next insert grows).
    @exclusivity(unchecked) @usableFromInline var freeHead: Int32 = -1
    /// The number of live slots.
    @exclusivity(unchecked) @usableFromInline var liveCount = 0

    /// Allocates `capacity` slots, all free and unlinked (tag −1: the end of a free list),
    /// with generation 0.
    /// - Complexity: O(capacity)
    @usableFromInline
    init(capacity: Int) {
        precondition(capacity >= 0 && capacity <= Int(Int32.max), "slot table capacity \(capacity) out of range")
        self.capacity = capacity
        guard capacity > 0 else {
            // Every table starts empty, and many stay small: no buffers until the first insert
            // grows it (a zero-byte allocation is still a call to malloc and one to free).
            values = UnsafeMutablePointer(bitPattern: MemoryLayout<Value>.alignment)!
            tags = UnsafeMutablePointer(bitPattern: MemoryLayout<Int32>.alignment)!
            generations = UnsafeMutablePointer(bitPattern: MemoryLayout<UInt32>.alignment)!
            return
        }
        values = .allocate(capacity: capacity)
        tags = .allocate(capacity: capacity)
        tags.initialize(repeating: -1, count: capacity)
        generations = .allocate(capacity: capacity)
        generations.initialize(repeating: 0, count: capacity)
    }

    deinit {
        guard capacity > 0 else { return }  // nothing was allocated
        if !_isPOD(Value.self) {
            for slot in 0..<capacity where tags[slot] >= 0 { (values + slot).deinitialize(count: 1) }
        }
        values.deallocate()
        tags.deinitialize(count: capacity)
        tags.deallocate()
        generations.deinitialize(count: capacity)
        generations.deallocate()
    }

    /// A storage with the same slots (live values copied) and `newCapacity` slots in all;
    /// the new ones are free and unlinked.
    /// - Complexity: O(newCapacity)
    @usableFromInline
    func copy(capacity newCapacity: Int) -> SlotTableStorage { transfer(capacity: newCapacity, moving: false) }

    /// A storage with this one's slots (live values moved over) and `newCapacity` slots in
    /// all; leaves this storage with no live slot.
    /// - Complexity: O(newCapacity)
    @usableFromInline
    func move(capacity newCapacity: Int) -> SlotTableStorage { transfer(capacity: newCapacity, moving: true) }

    private func transfer(capacity newCapacity: Int, moving: Bool) -> SlotTableStorage {
        let other = SlotTableStorage(capacity: Swift.max(newCapacity, capacity))
        other.tags.update(from: tags, count: capacity)
        other.generations.update(from: generations, count: capacity)
        for slot in 0..<capacity where tags[slot] >= 0 {
            if moving {
                (other.values + slot).initialize(to: (values + slot).move())
                tags[slot] = -1
            } else {
                (other.values + slot).initialize(to: values[slot])
            }
        }
        other.freeHead = freeHead
        other.liveCount = liveCount
        if moving { liveCount = 0 }
        return other
    }
}
