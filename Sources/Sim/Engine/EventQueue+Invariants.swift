extension EventQueue {
    /// Traps unless the heap order, the slot table and the positions between them agree:
    /// every pending event's slot is live and knows its heap index, and no live slot is
    /// outside the heap. O(n): tests call it directly; debug builds
    /// (`KEYSIM_INTERNAL_CHECKS`) check each part after every mutation.
    public func checkInvariants() {
        precondition(heap.count <= capacityMax, "\(heap.count) pending events over the limit \(capacityMax)")
        slots.checkInvariants()
        precondition(heap.count == slots.count, "\(heap.count) events in the heap but \(slots.count) live slots")
        let tags = slots.storage.tags
        heap.checkInvariants(positions: SlotPositions(tags: tags))
        heap.forEachUnordered { _, slot in
            precondition(slots.contains(slot), "the heap names slot \(slot), which is free")
        }
    }
}
