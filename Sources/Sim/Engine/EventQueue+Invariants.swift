extension EventQueue {
    /// Traps unless the heap order and the slot table agree. O(n): tests call it directly,
    /// and debug builds (`KEYSIM_INTERNAL_CHECKS`) call it after every mutation.
    public func checkInvariants() {
        var live = 0
        for (index, entry) in heap.enumerated() {
            if index > 0 {
                let parent = heap[(index - 1) / 2]
                precondition(!Self.precedes(entry, parent), "heap order broken at \(index)")
            }
            let slot = slots[Int(entry.slot)]
            precondition(slot.payload != nil, "heap entry \(index) points at a free slot")
            precondition(Int(slot.heapIndex) == index, "slot \(entry.slot) thinks it is at \(slot.heapIndex), not \(index)")
            live += 1
        }
        precondition(live + freeSlots.count == slots.count, "slots leaked: \(live) live + \(freeSlots.count) free != \(slots.count)")
    }

    @inlinable @inline(__always)
    func checkInvariantsIfEnabled() {
        #if KEYSIM_INTERNAL_CHECKS
        checkInvariants()
        #endif
    }
}
