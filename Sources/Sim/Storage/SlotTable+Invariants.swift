extension SlotTable {
    /// Traps unless the free list reaches every free slot exactly once and no live one, and
    /// the live count is right. O(capacity): tests call it directly, and debug builds
    /// (`KEYSIM_INTERNAL_CHECKS`) call it after every mutation of a small table.
    @usableFromInline
    func checkInvariants() {
        let storage = self.storage
        let capacity = storage.capacity
        var live = 0
        for slot in 0..<capacity where storage.tags[slot] >= 0 { live += 1 }
        precondition(live == storage.liveCount, "\(live) live slots, but the count says \(storage.liveCount)")
        var free = 0
        var next = storage.freeHead
        while next >= 0 {
            precondition(Int(next) < capacity, "the free list reaches slot \(next), out of range")
            let tag = storage.tags[Int(next)]
            precondition(tag < 0, "the free list reaches live slot \(next)")
            free += 1
            precondition(free <= capacity, "the free list has a cycle")
            next = Self.decodeFree(tag)
        }
        precondition(next == -1, "the free list ends in \(next), not −1")
        precondition(live + free == capacity, "slots leaked: \(live) live + \(free) free != \(capacity)")
    }

    /// Debug builds check the whole table after every mutation while it is small; a large
    /// table would make that quadratic.
    @inlinable @inline(__always)
    func checkInvariantsIfEnabled() {
        #if KEYSIM_INTERNAL_CHECKS
        if storage.capacity <= 256 { checkInvariants() }
        #endif
    }
}
