extension EventQueue {
    /// Traps unless the heap order and the slot table agree. O(n): tests call it directly,
    /// and debug builds (`KEYSIM_INTERNAL_CHECKS`) call it after every mutation of a small queue.
    public func checkInvariants() {
        precondition(positions.count == generations.count && positions.count == payloads.count, "slot arrays differ in length")
        for (index, entry) in heap.enumerated() {
            if index > 0 {
                precondition(!Self.precedes(entry, heap[(index - 1) / Self.arity]), "heap order broken at \(index)")
            }
            precondition(payloads[Int(entry.slot)] != nil, "heap entry \(index) points at a free slot")
            precondition(Int(positions[Int(entry.slot)]) == index, "slot \(entry.slot) thinks it is at \(positions[Int(entry.slot)]), not \(index)")
        }
        var free = 0
        var next = freeSlotHead
        while next >= 0 {
            precondition(payloads[Int(next)] == nil, "free list reaches a live slot")
            free += 1
            precondition(free <= positions.count, "free list has a cycle")
            next = positions[Int(next)]
        }
        precondition(heap.count + free == positions.count, "slots leaked: \(heap.count) live + \(free) free != \(positions.count)")
    }

    /// Debug builds check the whole queue after every mutation while it is small; a large
    /// queue (a long replay) would make that quadratic, so there only the root is checked.
    @inlinable @inline(__always)
    func checkInvariantsIfEnabled() {
        #if KEYSIM_INTERNAL_CHECKS
        if heap.count <= 256 {
            checkInvariants()
        } else {
            precondition(Int(positions[Int(heap[0].slot)]) == 0, "root slot out of place")
        }
        #endif
    }
}
