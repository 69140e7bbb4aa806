/// The buffers behind a `Heap`: the keys and the values, manually allocated with the same
/// capacity, and the two counters that say which of them are initialised.
///
/// Why a class with raw buffers rather than two arrays: every array mutation pays its own
/// uniqueness check and bounds check. Here the heap checks uniqueness once per mutating call
/// (`Heap.makeUnique`) and then works through raw pointers. The buffers never change after
/// `init` (growing makes a new storage), so they are `let`; the counters live here too, so
/// that `deinit` and `copy` know what to release, and are read and written without
/// exclusivity checks (the heap reaches them only through its unique reference).
///
/// What is initialised: `keys` over the capacity plus `keysPadding`, with `UInt128.max`
/// from the heap's end on (sentinels, see `Heap.refill`); `values` over the heap's entries,
/// indices `0 ..< count`, or `1 ... count` while `rootIsHole`.
@usableFromInline
final class HeapStorage<Value> {
    /// Entries the buffers hold.
    @usableFromInline let capacity: Int
    /// Per heap index: the key. Starts three keys into a 64-byte aligned allocation, so that
    /// the four children of every node (4i+1 … 4i+4) share one cache line.
    @usableFromInline let keys: UnsafeMutablePointer<UInt128>
    /// Per heap index: the value.
    @usableFromInline let values: UnsafeMutablePointer<Value>
    /// The allocation `keys` points into.
    let keysAllocation: UnsafeMutableRawPointer
    /// The number of entries.
    @exclusivity(unchecked) @usableFromInline var count = 0
    /// Whether heap index 0 is empty after a pop, with the entries at 1 … `count`. Never true
    /// while the heap is empty.
    @exclusivity(unchecked) @usableFromInline var rootIsHole = false

    /// Keys skipped at the start of `keysAllocation` to line the child groups up.
    static var keysOffset: Int { 3 }
    /// Sentinel keys after the last index: the last parent's four children can always be read.
    @usableFromInline static var keysPadding: Int { 3 }

    /// Allocates buffers for `capacity` entries and an empty heap (every key a sentinel).
    /// - Complexity: O(capacity)
    @usableFromInline
    init(capacity: Int) {
        precondition(capacity >= 0 && capacity <= Int(Int32.max), "heap capacity \(capacity) out of range")
        self.capacity = capacity
        let keyStride = MemoryLayout<UInt128>.stride
        keysAllocation = UnsafeMutableRawPointer.allocate(
            byteCount: (Self.keysOffset + capacity + Self.keysPadding) * keyStride,
            alignment: Swift.max(64, MemoryLayout<UInt128>.alignment))
        keys = (keysAllocation + Self.keysOffset * keyStride)
            .bindMemory(to: UInt128.self, capacity: capacity + Self.keysPadding)
        keys.initialize(repeating: .max, count: capacity + Self.keysPadding)
        // An empty heap (every heap starts so) has no values to hold: no zero-byte allocation.
        values = capacity > 0 ? .allocate(capacity: capacity) : UnsafeMutablePointer(bitPattern: MemoryLayout<Value>.alignment)!
    }

    deinit {
        let start = rootIsHole ? 1 : 0
        (values + start).deinitialize(count: count)
        if capacity > 0 { values.deallocate() }
        keys.deinitialize(count: capacity + Self.keysPadding)
        keysAllocation.deallocate()
    }

    /// Heap indices in use.
    var end: Int { rootIsHole ? count + 1 : count }

    /// A storage with the same entries (copied) and room for `newCapacity`: un-shares a heap.
    /// - Complexity: O(newCapacity)
    @usableFromInline
    func copy(capacity newCapacity: Int) -> HeapStorage { transfer(capacity: newCapacity, moving: false) }

    /// A storage with this one's entries moved over and room for `newCapacity`: grows a heap
    /// whose only reference this is. Leaves this storage empty.
    /// - Complexity: O(newCapacity)
    @usableFromInline
    func move(capacity newCapacity: Int) -> HeapStorage { transfer(capacity: newCapacity, moving: true) }

    private func transfer(capacity newCapacity: Int, moving: Bool) -> HeapStorage {
        let other = HeapStorage(capacity: Swift.max(newCapacity, end))
        let start = rootIsHole ? 1 : 0
        other.keys.update(from: keys, count: end)
        if moving {
            (other.values + start).moveInitialize(from: values + start, count: count)
        } else {
            (other.values + start).initialize(from: values + start, count: count)
        }
        other.count = count
        other.rootIsHole = rootIsHole
        if moving { count = 0; rootIsHole = false }
        return other
    }
}

/// What a heap tells about where its values are, for a caller that must find one again: the
/// heap reports every move, and asks for a value's index when removing or re-keying it.
/// The event queue keeps the indices in its slot table.
@usableFromInline
protocol HeapPositions {
    /// What the heap holds.
    associatedtype Value
    /// `value` is now at heap index `index`.
    func moved(_ value: Value, to index: Int)
    /// The heap index of `value`, as last reported by `moved`.
    func index(of value: Value) -> Int
}

/// No positions: for a heap whose values are only ever popped.
@usableFromInline
struct UntrackedPositions<Value>: HeapPositions {
    @inlinable init() {}
    @inlinable @inline(__always) func moved(_ value: Value, to index: Int) {}
    @inlinable func index(of value: Value) -> Int { preconditionFailure("an untracked heap cannot find a value") }
}

extension Heap: @unchecked Sendable where Value: Sendable {}
