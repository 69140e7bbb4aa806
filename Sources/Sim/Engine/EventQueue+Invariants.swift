extension EventQueue {
    /// Traps unless the heap order and the slot table agree. O(n): tests call it directly,
    /// and debug builds (`KEYSIM_INTERNAL_CHECKS`) call it after every mutation of a small queue.
    public func checkInvariants() {
        let capacity = storage.capacity
        precondition(heapCount >= 0 && heapCount <= capacity, "\(heapCount) entries in a capacity of \(capacity)")
        precondition(capacity <= capacityMax, "capacity \(capacity) is over the limit \(capacityMax)")
        precondition(!rootIsHole || heapCount > 0, "an empty queue with an empty root")
        precondition(heapEnd <= capacity, "\(heapEnd) heap indices in use in a capacity of \(capacity)")
        // Under an empty root the events start at index 1, and the root's children are
        // ordered only below themselves.
        let start = rootIsHole ? 1 : 0
        for index in start..<heapEnd {
            let slot = storage.heapSlots[index]
            let parent = (index - 1) / Self.arity
            if index > 0 && parent >= start {
                precondition(storage.keys[parent] < storage.keys[index], "heap order broken at \(index)")
            }
            precondition(slot >= 0 && Int(slot) < capacity, "heap entry \(index) names slot \(slot), out of range")
            precondition(Int(storage.positions[Int(slot)]) == index,
                         "slot \(slot) thinks it is at \(storage.positions[Int(slot)]), not \(index)")
        }
        for index in heapEnd..<(heapEnd + EventQueueStorage<Payload>.keysPadding) {
            precondition(storage.keys[index] == .max, "no sentinel key at \(index), after the last entry")
        }
        var free = 0
        var next = freeSlotHead
        while next >= 0 {
            precondition(Int(next) < capacity, "free list reaches slot \(next), out of range")
            let position = storage.positions[Int(next)]
            precondition(position < 0, "free list reaches a live slot")
            free += 1
            precondition(free <= capacity, "free list has a cycle")
            next = Self.decodeFree(position)
        }
        precondition(heapCount + free == capacity, "slots leaked: \(heapCount) live + \(free) free != \(capacity)")
    }

    /// Debug builds check the whole queue after every mutation while it is small; a large
    /// queue (a long replay) would make that quadratic, so there only the root is checked.
    @inlinable @inline(__always)
    func checkInvariantsIfEnabled() {
        #if KEYSIM_INTERNAL_CHECKS
        if heapCount <= 256 {
            checkInvariants()
        } else {
            let root = rootIsHole ? 1 : 0
            precondition(Int(storage.positions[Int(storage.heapSlots[root])]) == root, "root slot out of place")
        }
        #endif
    }
}
