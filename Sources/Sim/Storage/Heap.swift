/// A min-heap of values ordered by 128-bit keys: the one priority queue of `Sim`. The event
/// queue, the engine's posted events and every executor's ready tasks are built on it.
///
/// Every order the simulator needs folds into one unsigned key with a unique low half — an
/// event's (time, insertion sequence), a task's (urgency, submission sequence) — so one
/// integer comparison orders two entries and no two keys tie. Values with equal keys would
/// pop in an unspecified order; callers keep keys unique.
///
/// A heap that must find its values again (to cancel or re-key one, as the event queue
/// does) passes a `HeapPositions` that hears of every move and answers where a value is;
/// the other calls pass nothing and pay nothing for it.
///
/// Why it is shaped like this (measured with `make bench`, the hold model at 1,000 pending
/// events):
///
/// - A pop leaves the root empty, because what a caller most often does next is insert, and
///   that fills the hole in one pass. Filling the hole — then, or before any other mutation —
///   walks it down to a leaf along the earliest child and sifts the new entry (or else the
///   heap's last one) up from there (Floyd's trick: it nearly always belongs near the
///   bottom). A pop and an insert thus cost one walk down instead of a walk down and two
///   sifts up.
/// - Each level of the walk picks the earliest of four children without a branch (the
///   comparison is a coin flip a branch predictor cannot learn), as a two-round tournament,
///   so only two comparisons lie on the path to the next level; four children halve the
///   depth of a binary heap.
/// - Keys are stored apart from values, so the four children's keys fill exactly one cache
///   line, and sentinel keys after the last entry let every parent be read as full.
/// - The buffers live in one `HeapStorage`: each operation checks uniqueness once and then
///   uses raw pointers, instead of paying an array's uniqueness and bounds checks on every
///   access.
///
/// A value: a copy is independent of the original. Both share one storage until either is
/// mutated, which then copies it first (copy-on-write).
@usableFromInline
struct Heap<Value> {
    @usableFromInline var storage: HeapStorage<Value>

    /// Creates an empty heap with room for `capacity` entries before it first grows.
    /// - Complexity: O(capacity)
    @inlinable
    init(capacity: Int = 0) {
        storage = HeapStorage(capacity: capacity)
    }

    /// The number of entries.
    /// - Complexity: O(1)
    @inlinable var count: Int { storage.count }

    /// Whether the heap has no entry.
    /// - Complexity: O(1)
    @inlinable var isEmpty: Bool { storage.count == 0 }

    /// The smallest key, or `UInt128.max` when the heap is empty.
    /// - Complexity: O(1)
    @inlinable var minKeyOrMax: UInt128 {
        let storage = self.storage
        guard storage.count > 0 else { return .max }
        // Under an empty root the smallest key is the smallest of its children; the keys
        // after the last entry are sentinels, so reading all four is safe.
        let keys = storage.keys
        return storage.rootIsHole ? Swift.min(Swift.min(keys[1], keys[2]), Swift.min(keys[3], keys[4])) : keys[0]
    }

    /// The smallest key, if any.
    /// - Complexity: O(1)
    @inlinable var minKey: UInt128? { isEmpty ? nil : minKeyOrMax }

    /// Adds `value` under `key`, telling `positions` of every entry it moves.
    /// - Complexity: O(log n), amortised: the storage doubles when full. After a pop it also
    ///   fills the root the pop left empty, in the same walk.
    @inlinable @inline(__always)
    mutating func insert<Positions: HeapPositions>(_ value: consuming Value, key: UInt128, positions: Positions)
    where Positions.Value == Value {
        makeUnique()
        insertIntoUnique(value, key: key, positions: positions)
    }

    /// `insert(_:key:positions:)` for a caller that has just called `makeUnique()`.
    @inlinable @inline(__always)
    mutating func insertIntoUnique<Positions: HeapPositions>(_ value: consuming Value, key: UInt128, positions: Positions)
    where Positions.Value == Value {
        if storage.rootIsHole {
            let storage = self.storage
            Self.refill(storage, count: storage.count &+ 1, hole: 0, key: key, value: value, positions: positions)
            storage.rootIsHole = false
        } else {
            if _slowPath(storage.count == storage.capacity) { grow() }
            Self.siftUp(storage, from: storage.count, key: key, value: value, positions: positions)
        }
        storage.count &+= 1
        checkInvariantsIfEnabled(positions: positions)
    }

    /// Adds `value` under `key`.
    /// - Complexity: O(log n), amortised.
    @inlinable @inline(__always)
    mutating func insert(_ value: consuming Value, key: UInt128) {
        insert(value, key: key, positions: UntrackedPositions())
    }

    /// Removes and returns the entry with the smallest key.
    /// - Precondition: the heap is not empty.
    /// - Complexity: O(log n); O(1) when the last mutation was not a pop, and then the next
    ///   mutation pays the O(log n).
    @inlinable @inline(__always)
    mutating func removeMin<Positions: HeapPositions>(positions: Positions) -> (key: UInt128, value: Value)
    where Positions.Value == Value {
        precondition(storage.count > 0, "removeMin on an empty heap")
        makeUnique()
        return removeMinFromUnique(positions: positions)
    }

    /// `removeMin(positions:)` for a caller that has just called `makeUnique()` and knows
    /// the heap is not empty.
    @inlinable @inline(__always)
    mutating func removeMinFromUnique<Positions: HeapPositions>(positions: Positions) -> (key: UInt128, value: Value)
    where Positions.Value == Value {
        let storage = self.storage
        if storage.rootIsHole { Self.fillRootHole(storage, positions: positions) }
        let key = storage.keys[0]
        let value = storage.values.move()
        storage.count &-= 1
        if storage.count > 0 {
            storage.rootIsHole = true
        } else {
            storage.keys[0] = .max
        }
        checkInvariantsIfEnabled(positions: positions)
        return (key, value)
    }

    /// Removes and returns the entry with the smallest key.
    /// - Precondition: the heap is not empty.
    /// - Complexity: O(log n)
    @inlinable @inline(__always)
    mutating func removeMin() -> (key: UInt128, value: Value) {
        removeMin(positions: UntrackedPositions())
    }

    /// Removes `value`, found through `positions`, and returns its key.
    /// - Precondition: `value` is in the heap.
    /// - Complexity: O(log n)
    @inlinable
    mutating func remove<Positions: HeapPositions>(_ value: Value, positions: Positions) -> UInt128
    where Positions.Value == Value {
        let index = wholeIndex(of: value, positions: positions)
        let storage = self.storage
        let key = storage.keys[index]
        (storage.values + index).deinitialize(count: 1)
        storage.count &-= 1
        let count = storage.count
        if index < count {
            let (lastKey, lastValue) = Self.removeLast(storage, at: count)
            Self.refill(storage, count: count, hole: index, key: lastKey, value: lastValue, positions: positions)
        } else {
            storage.keys[index] = .max
        }
        checkInvariantsIfEnabled(positions: positions)
        return key
    }

    /// Gives `value`, found through `positions`, the key `key`.
    /// - Precondition: `value` is in the heap.
    /// - Complexity: O(log n)
    @inlinable
    mutating func update<Positions: HeapPositions>(_ value: Value, key: UInt128, positions: Positions)
    where Positions.Value == Value {
        let index = wholeIndex(of: value, positions: positions)
        let storage = self.storage
        let moved = (storage.values + index).move()
        Self.refill(storage, count: storage.count, hole: index, key: key, value: moved, positions: positions)
        checkInvariantsIfEnabled(positions: positions)
    }

    /// Makes the heap unique and whole (no empty root), then returns the index of `value`.
    @inlinable @inline(__always)
    mutating func wholeIndex<Positions: HeapPositions>(of value: Value, positions: Positions) -> Int
    where Positions.Value == Value {
        makeUnique()
        if storage.rootIsHole { Self.fillRootHole(storage, positions: positions) }
        let index = positions.index(of: value)
        precondition(index >= 0 && index < storage.count, "a value removed or re-keyed must be in the heap")
        return index
    }

    /// The key of the entry at heap index `index`, as `positions` last heard it.
    /// - Complexity: O(1)
    @inlinable
    func key(at index: Int) -> UInt128 {
        precondition(index >= (storage.rootIsHole ? 1 : 0) && index < heapEnd, "heap index \(index) out of range")
        return storage.keys[index]
    }

    /// Calls `body` with every entry, in no particular order.
    /// - Complexity: O(n)
    @inlinable
    func forEachUnordered(_ body: (UInt128, Value) throws -> Void) rethrows {
        let storage = self.storage
        for index in (storage.rootIsHole ? 1 : 0)..<heapEnd { try body(storage.keys[index], storage.values[index]) }
    }

    /// Removes every entry, keeping the storage.
    /// - Complexity: O(n)
    @inlinable
    mutating func removeAll() {
        makeUnique()
        let storage = self.storage
        let start = storage.rootIsHole ? 1 : 0
        (storage.values + start).deinitialize(count: heapEnd - start)
        storage.keys.update(repeating: .max, count: heapEnd)
        storage.count = 0
        storage.rootIsHole = false
        checkInvariantsIfEnabled(positions: UntrackedPositions())
    }
}

// MARK: - Storage

extension Heap {
    /// Heap indices in use: the entries, plus the empty root after a pop.
    @inlinable var heapEnd: Int { storage.rootIsHole ? storage.count &+ 1 : storage.count }

    /// Gives this heap its own storage if it shares it with a copy: the one uniqueness check
    /// of a mutating call.
    @inlinable @inline(__always)
    mutating func makeUnique() {
        if _slowPath(!isKnownUniquelyReferenced(&storage)) { storage = storage.copy(capacity: storage.capacity) }
    }

    /// Doubles the storage. Called only when every index is in use.
    /// - Complexity: O(n)
    @usableFromInline
    mutating func grow() {
        precondition(!storage.rootIsHole && storage.count == storage.capacity)
        precondition(storage.capacity < Int(Int32.max) / 2, "a heap is limited to 2³⁰ entries")
        storage = storage.move(capacity: Swift.max(16, 2 * storage.capacity))
    }
}

// MARK: - Mechanics

// The loops below work on raw pointers into storage that `makeUnique` has just made unique;
// every index they touch is below the heap's end, which never exceeds the capacity.
extension Heap {
    /// Children per node.
    @usableFromInline static var arity: Int { 4 }

    /// Fills the empty root that a pop left with the heap's last entry, so that the heap is
    /// whole again before a mutation other than an insert.
    @inlinable
    static func fillRootHole<Positions: HeapPositions>(_ storage: HeapStorage<Value>, positions: Positions)
    where Positions.Value == Value {
        let count = storage.count
        let (lastKey, lastValue) = removeLast(storage, at: count)
        refill(storage, count: count, hole: 0, key: lastKey, value: lastValue, positions: positions)
        storage.rootIsHole = false
    }

    /// Takes the entry at heap index `index` (the old last one) out of the heap and leaves a
    /// sentinel key in its place.
    @inlinable @inline(__always)
    static func removeLast(_ storage: HeapStorage<Value>, at index: Int) -> (key: UInt128, value: Value) {
        let key = storage.keys[index]
        storage.keys[index] = .max
        return (key, (storage.values + index).move())
    }

    /// Puts (`key`, `value`) at heap index `start` or above: moves later parents down until
    /// its parent precedes it.
    @inlinable @inline(__always)
    static func siftUp<Positions: HeapPositions>(_ storage: HeapStorage<Value>, from start: Int, key: UInt128,
                                                 value: consuming Value, positions: Positions)
    where Positions.Value == Value {
        let keys = storage.keys
        let values = storage.values
        var index = start
        while index > 0 {
            let parent = (index &- 1) >> 2
            let parentKey = keys[parent]
            guard key < parentKey else { break }
            keys[index] = parentKey
            (values + index).initialize(to: (values + parent).move())
            positions.moved(values[index], to: index)
            index = parent
        }
        keys[index] = key
        (values + index).initialize(to: value)
        positions.moved(values[index], to: index)
    }

    /// Puts (`key`, `value`) into the heap of `count` indices where `hole` is: walks the hole
    /// down to a leaf along the earliest child, then sifts the entry up from there. Correct
    /// for any entry, also one that belongs above the hole (a removed entry's replacement, a
    /// re-keyed one).
    ///
    /// Every node with a child is read as if it had four: the keys after the last entry are
    /// sentinels (`UInt128.max`) that never win, so there is no special case for the last
    /// parent. (A real key can equal the sentinel only if its low half is 2⁶⁴ − 1; even then
    /// it is earlier in the array and wins the tie.)
    @inlinable @inline(__always)
    static func refill<Positions: HeapPositions>(_ storage: HeapStorage<Value>, count: Int, hole start: Int,
                                                 key: UInt128, value: consuming Value, positions: Positions)
    where Positions.Value == Value {
        let keys = storage.keys
        let values = storage.values
        // The walk is a chain of dependent loads, so it tracks byte offsets rather than
        // indices: the next group's offset is then one multiply-add of the winner's.
        let keyBytes = MemoryLayout<UInt128>.stride
        let keyBase = UnsafeRawPointer(keys)
        let endBytes = count &* keyBytes
        var hole = start
        var firstBytes = (4 &* hole &+ 1) &* keyBytes
        while firstBytes < endBytes {
            // The earliest of four children, as a tournament without branches: keys are
            // unique, so `<` decides every match.
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
            keys[hole] = rightKey < leftKey ? rightKey : leftKey
            (values + hole).initialize(to: (values + best).move())
            positions.moved(values[hole], to: hole)
            hole = best
            firstBytes = 4 &* bestBytes &+ keyBytes
        }
        siftUp(storage, from: hole, key: key, value: value, positions: positions)
    }
}
