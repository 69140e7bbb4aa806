/// The last `capacity` pauses of one typist, in arrival order and sorted, so that a quantile
/// of this person's recent rhythm is one look-up. The adaptive debounce learns from it.
///
/// Both arrays are allocated once, at their capacity: adding a pause moves at most
/// `capacity` values and allocates nothing, so a key costs the same from the first to the last.
struct PauseWindow: Sendable, Equatable {
    /// How many pauses are kept; the oldest goes when a new one comes.
    let capacity: Int
    /// The pauses in arrival order, a ring whose oldest entry is at `next` once full.
    private var ring: [SimDuration] = []
    private var next = 0
    /// The same pauses, ascending.
    private(set) var sorted: [SimDuration] = []

    /// An empty window of `capacity` pauses.
    /// - Precondition: `capacity >= 1`.
    init(capacity: Int) {
        precondition(capacity >= 1, "a pause window keeps at least one pause")
        self.capacity = capacity
        ring.reserveCapacity(capacity)
        sorted.reserveCapacity(capacity)
    }

    /// How many pauses are kept now.
    var count: Int { sorted.count }

    /// Adds a pause, forgetting the oldest when full.
    /// - Complexity: O(`capacity`).
    mutating func add(_ pause: SimDuration) {
        if ring.count < capacity {
            ring.append(pause)
        } else {
            let oldest = ring[next]
            ring[next] = pause
            next = next + 1 == capacity ? 0 : next + 1
            sorted.remove(at: Self.firstIndex(notBelow: oldest, in: sorted))
        }
        sorted.insert(pause, at: Self.firstIndex(notBelow: pause, in: sorted))
        #if KEYSIM_INTERNAL_CHECKS
        checkInvariants()
        #endif
    }

    /// The nearest-rank `quantile` of the pauses kept (rank ⌈q·n⌉ of n ascending), or `nil`
    /// when the window is empty.
    /// - Precondition: `0 < quantile <= 1`.
    func quantile(_ quantile: Double) -> SimDuration? {
        precondition(quantile > 0 && quantile <= 1, "a quantile is in (0, 1]")
        guard !sorted.isEmpty else { return nil }
        let rank = Int((quantile * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The index of the first value at least `value` (binary search).
    private static func firstIndex(notBelow value: SimDuration, in values: [SimDuration]) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The ring and the sorted copy hold the same pauses, the copy ascending.
    func checkInvariants() {
        precondition(ring.count == sorted.count && ring.count <= capacity, "the ring and its sorted copy hold as many pauses")
        precondition(zip(sorted, sorted.dropFirst()).allSatisfy { $0 <= $1 }, "the sorted copy ascends")
        precondition(ring.sorted() == sorted, "the sorted copy holds the ring's pauses")
    }
}
