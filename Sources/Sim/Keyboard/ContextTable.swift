/// A table of values addressed by small integer handles, reused through a free list: the
/// contexts of running tasks and the texts of pending edits, found again in O(1) without
/// hashing.
///
/// Every task passes through it twice (stored at submit, taken at completion), so it keeps
/// its slots in one manually managed buffer: an insert or a remove checks uniqueness once,
/// where an array of optionals and an array of free handles paid a uniqueness check, a
/// bounds check and an optional's wrapping on each of three or four accesses. The free list
/// runs through `links`; a live slot's link is `Storage.live`. It is still a value: a copy
/// shares the buffer until either side changes, which then copies it first.
struct ContextTable<Value> {
    private var storage = Storage()

    /// Whether nothing is stored.
    var isEmpty: Bool { storage.liveCount == 0 }

    /// Stores a value and returns its handle.
    /// - Complexity: O(1), amortised (the buffer doubles when full).
    @inline(__always)
    mutating func insert(_ value: consuming Value) -> Int32 {
        makeUnique()
        if storage.freeHead < 0 { storage.grow() }
        let slot = storage.freeHead
        storage.freeHead = storage.links[Int(slot)]
        storage.links[Int(slot)] = Storage.live
        (storage.values + Int(slot)).initialize(to: value)
        storage.liveCount &+= 1
        return slot
    }

    /// Removes and returns the value of a live handle.
    /// - Complexity: O(1)
    @inline(__always)
    mutating func remove(_ slot: Int32) -> Value {
        makeUnique()
        precondition(slot >= 0 && Int(slot) < storage.capacity && storage.links[Int(slot)] == Storage.live,
                     "a context handle is used once, while live")
        let value = (storage.values + Int(slot)).move()
        storage.links[Int(slot)] = storage.freeHead
        storage.freeHead = slot
        storage.liveCount &-= 1
        return value
    }

    @inline(__always)
    private mutating func makeUnique() {
        if _slowPath(!isKnownUniquelyReferenced(&storage)) { storage = storage.copy() }
    }

    private final class Storage {
        /// The link of a live slot; free slots link to the next free one, or −1.
        static var live: Int32 { -2 }

        var values: UnsafeMutablePointer<Value>
        var links: UnsafeMutablePointer<Int32>
        private(set) var capacity: Int
        var freeHead: Int32 = -1
        var liveCount = 0

        init(capacity: Int = 0) {
            self.capacity = capacity
            values = .allocate(capacity: capacity)
            links = .allocate(capacity: capacity)
        }

        deinit {
            for slot in 0..<capacity where links[slot] == Self.live { (values + slot).deinitialize(count: 1) }
            values.deallocate()
            links.deallocate()
        }

        /// Doubles the buffer and puts the new slots on the free list (lowest first).
        /// Called only when no slot is free.
        func grow() {
            precondition(freeHead < 0 && capacity < Int(Int32.max) / 2, "a context table is limited to 2³⁰ live values")
            let newCapacity = Swift.max(16, 2 * capacity)
            let newValues = UnsafeMutablePointer<Value>.allocate(capacity: newCapacity)
            let newLinks = UnsafeMutablePointer<Int32>.allocate(capacity: newCapacity)
            // Every old slot is live (none was free), so the values move over whole.
            newValues.moveInitialize(from: values, count: capacity)
            newLinks.initialize(from: links, count: capacity)
            for slot in capacity..<newCapacity { newLinks[slot] = slot + 1 < newCapacity ? Int32(slot + 1) : -1 }
            values.deallocate()
            links.deallocate()
            values = newValues
            links = newLinks
            freeHead = Int32(capacity)
            capacity = newCapacity
        }

        /// An independent copy: live values copied, the free list kept as it is.
        func copy() -> Storage {
            let copy = Storage(capacity: capacity)
            for slot in 0..<capacity {
                copy.links[slot] = links[slot]
                if links[slot] == Self.live { (copy.values + slot).initialize(to: values[slot]) }
            }
            copy.freeHead = freeHead
            copy.liveCount = liveCount
            return copy
        }
    }
}
