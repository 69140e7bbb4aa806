extension Heap {
    /// Traps unless every parent's key precedes its children's, the keys after the end are
    /// sentinels, and `positions` (when it tracks) knows where every value is. O(n): tests
    /// call it directly, and debug builds (`KEYSIM_INTERNAL_CHECKS`) call it after every
    /// mutation of a small heap.
    @usableFromInline
    func checkInvariants<Positions: HeapPositions>(positions: Positions, tracked: Bool = true)
    where Positions.Value == Value {
        let storage = self.storage
        precondition(storage.count >= 0 && heapEnd <= storage.capacity,
                     "\(heapEnd) heap indices in use in a capacity of \(storage.capacity)")
        precondition(!storage.rootIsHole || storage.count > 0, "an empty heap with an empty root")
        // Under an empty root the entries start at index 1, and the root's children are
        // ordered only below themselves.
        let start = storage.rootIsHole ? 1 : 0
        for index in start..<heapEnd {
            let parent = (index - 1) / Self.arity
            if index > 0 && parent >= start {
                precondition(storage.keys[parent] < storage.keys[index], "heap order broken at \(index)")
            }
            if tracked {
                let reported = positions.index(of: storage.values[index])
                precondition(reported == index, "the value at heap index \(index) is said to be at \(reported)")
            }
        }
        for index in heapEnd..<(heapEnd + HeapStorage<Value>.keysPadding) {
            precondition(storage.keys[index] == .max, "no sentinel key at \(index), after the last entry")
        }
    }

    /// Traps unless the heap order and the sentinels hold. O(n).
    func checkInvariants() {
        checkInvariants(positions: UntrackedPositions(), tracked: false)
    }

    /// Debug builds check the whole heap after every mutation while it is small; a large heap
    /// (a long replay) would make that quadratic, so there only the root is checked.
    @inlinable @inline(__always)
    func checkInvariantsIfEnabled<Positions: HeapPositions>(positions: Positions) where Positions.Value == Value {
        #if KEYSIM_INTERNAL_CHECKS
        if storage.count <= 256 {
            checkInvariants(positions: positions, tracked: !(positions is UntrackedPositions<Value>))
        } else if !storage.rootIsHole && !(positions is UntrackedPositions<Value>) {
            precondition(positions.index(of: storage.values[0]) == 0, "root value out of place")
        }
        #endif
    }
}
