import Synchronization

/// The 2 MiB blocks that hold the full chunks of record lists, kept for reuse when a list is
/// dropped — owned by whoever runs replications (a job runner, a benchmark) and handed to
/// each replication's `ObservationBuffer`, so that `Sim` keeps no state of its own.
///
/// Fresh memory costs a page fault per 4 KiB the first time it is written, and a long
/// replay writes tens of megabytes of records: those faults are a fifth of its time. A
/// replication that follows another takes the blocks its predecessor's records left behind,
/// already faulted in, instead of fresh ones. At most `retainedLimit` blocks wait; any
/// beyond that go back to the allocator, and the arena frees those still waiting when it
/// goes away (lists keep their arena alive while they hold its blocks). Blocks move between
/// threads freely: a list dropped on the thread that writes the report feeds the workers'
/// next replications.
public final class RecordArena: Sendable {
    /// The size of a block, in bytes.
    public static let blockByteCount = 2 << 20
    /// The alignment of a block: enough for any record type.
    static let alignment = 16

    /// The most blocks kept waiting for reuse.
    public let retainedLimit: Int

    /// A block's address. Only one owner ever holds it: the list that writes it, or the arena.
    private struct Block: @unchecked Sendable, Hashable { let address: UnsafeMutableRawPointer }

    private struct State {
        var spare: [Block] = []
        /// Blocks handed to lists and not given back yet.
        var outstanding = 0
    }

    private let state = Mutex(State())

    /// An arena that keeps up to `retainedLimit` blocks (by default 64: 128 MiB).
    public init(retainedLimit: Int = 64) {
        precondition(retainedLimit >= 0, "a limit is not negative")
        self.retainedLimit = retainedLimit
    }

    deinit {
        state.withLock { state in
            for block in state.spare { block.address.deallocate() }
            state.spare.removeAll()
        }
    }

    /// A block: a spare one if any waits, else a fresh one.
    func take() -> UnsafeMutableRawPointer {
        let spare = state.withLock { state -> Block? in
            state.outstanding += 1
            return state.spare.popLast()
        }
        return spare?.address ?? UnsafeMutableRawPointer.allocate(byteCount: Self.blockByteCount, alignment: Self.alignment)
    }

    /// Hands a block back: kept for reuse, or freed when `retainedLimit` blocks already wait.
    func give(_ block: UnsafeMutableRawPointer) {
        let kept = state.withLock { state in
            precondition(state.outstanding > 0, "a block given back that was never taken")
            state.outstanding -= 1
            guard state.spare.count < retainedLimit else { return false }
            state.spare.append(Block(address: block))
            return true
        }
        if !kept { block.deallocate() }
    }

    /// How many blocks wait for reuse.
    public var retainedCount: Int { state.withLock { $0.spare.count } }

    /// How many blocks lists hold.
    public var outstandingCount: Int { state.withLock { $0.outstanding } }

    /// Frees every block waiting for reuse.
    public func releaseRetained() {
        let blocks = state.withLock { state in
            defer { state.spare.removeAll() }
            return state.spare
        }
        for block in blocks { block.address.deallocate() }
    }

    /// Traps unless the arena is consistent: at most `retainedLimit` blocks wait, none twice,
    /// each aligned, and no list holds a negative number of blocks.
    public func checkInvariants() {
        state.withLock { state in
            precondition(state.spare.count <= retainedLimit, "\(state.spare.count) blocks wait, over the limit of \(retainedLimit)")
            precondition(Set(state.spare).count == state.spare.count, "a block waits twice")
            precondition(state.spare.allSatisfy { Int(bitPattern: $0.address) % Self.alignment == 0 }, "a misaligned block")
            precondition(state.outstanding >= 0, "more blocks given back than taken")
        }
    }
}
