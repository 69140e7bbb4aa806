import Synchronization

/// The 2 MiB blocks that hold full chunks of every `RecordList`, kept for reuse when a
/// list is dropped.
///
/// Fresh memory costs a page fault per 4 KiB the first time it is written, and a long
/// replay writes tens of megabytes of records: those faults are a fifth of its time. A
/// replication that follows another (the next repetition, a job's next batch, another
/// test) takes the blocks its predecessor's records left behind, already faulted in,
/// instead of fresh ones. At most `retainedLimit` blocks wait here; any beyond that go
/// back to the allocator. Blocks move between threads freely: a list dropped on the thread
/// that writes the report feeds the workers' next replications.
public enum RecordBlocks {
    /// The size of a block, in bytes.
    public static let byteCount = 2 << 20
    /// The alignment of a block: enough for any record type.
    static let alignment = 16
    /// The most blocks kept waiting for reuse: 128 MiB.
    public static let retainedLimit = 64

    /// A block's address. Only one owner ever holds it: the list that writes it, or the pool.
    private struct Block: @unchecked Sendable { let address: UnsafeMutableRawPointer }

    private static let spare = Mutex<[Block]>([])

    /// A block: a spare one if any waits, else a fresh one.
    static func take() -> UnsafeMutableRawPointer {
        if let block = spare.withLock({ $0.popLast() }) { return block.address }
        return UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: alignment)
    }

    /// Hands a block back: kept for reuse, or freed when `retainedLimit` blocks already wait.
    static func give(_ block: UnsafeMutableRawPointer) {
        let kept = spare.withLock { blocks in
            guard blocks.count < retainedLimit else { return false }
            blocks.append(Block(address: block))
            return true
        }
        if !kept { block.deallocate() }
    }

    /// How many blocks wait for reuse.
    public static var retainedCount: Int { spare.withLock { $0.count } }

    /// Frees every block waiting for reuse (a long-lived process that is done replaying can
    /// give the memory back).
    public static func releaseRetained() {
        let blocks = spare.withLock { blocks in
            defer { blocks.removeAll() }
            return blocks
        }
        for block in blocks { block.address.deallocate() }
    }
}
