/// One model replica of a `SharedBackend`, serving a batch with continuous batching
/// (iteration-level scheduling, as Orca and vLLM do): requests join the batch only at an
/// iteration's boundary, each iteration gives every request in the batch one token, and a
/// request leaves at the boundary where its last token is out.
///
/// Between two changes of the batch every iteration takes the same time, so the replica
/// keeps a segment instead of stepping each iteration: its start, its first iteration
/// (which prefills the requests that joined at the start) and the steady iteration after
/// it. Boundary k (k ≥ 1) of the segment lies at `start + first + (k − 1) × steady`; a
/// request that joined at the start has its first token at boundary 1. The backend rebases
/// the segment only at a boundary, when the batch changes.
struct BatchingReplica: Sendable {
    /// A request in the batch.
    struct Member: Sendable {
        var job: SharedBackendJob
        /// Tokens still to come at the segment's start (at least 1 while in the batch).
        var remainingTokens: Int
        /// When it joined a batch (service began).
        var started: SimTime
        /// Its first token, once out.
        var firstToken: SimTime?
    }

    private(set) var members: [Member] = []
    /// The members' `remainingTokens`, ascending: their finishes in order, kept as the batch
    /// changes so that admission control and the next finish need no sort.
    private(set) var sortedRemaining: [Int] = []
    private(set) var segmentStart = SimTime.zero
    private(set) var firstIterationNanos: Int64 = 0
    private(set) var steadyIterationNanos: Int64 = 0
    /// Prompt tokens of the requests that joined at the current boundary, not yet in a segment.
    private var joiningPrefillTokens = 0
    private var joining = false

    /// Whether the batch is empty.
    var isIdle: Bool { members.isEmpty }

    /// Boundary `k` (k ≥ 1) of the current segment.
    func boundary(_ k: Int) -> SimTime {
        precondition(k >= 1, "boundaries count from 1")
        return segmentStart + SimDuration(nanoseconds: firstIterationNanos + Int64(k - 1) * steadyIterationNanos)
    }

    /// Whether `now` is a boundary of the current segment (an idle replica is always at one).
    func isAtBoundary(_ now: SimTime) -> Bool {
        guard !isIdle else { return true }
        let first = boundary(1)
        return now >= first && (now - first).nanoseconds % steadyIterationNanos == 0
    }

    /// The first boundary at or after `now`.
    func nextBoundary(atOrAfter now: SimTime) -> SimTime {
        let first = boundary(1)
        guard now > first else { return first }
        let steps = ((now - first).nanoseconds + steadyIterationNanos - 1) / steadyIterationNanos
        return first + SimDuration(nanoseconds: steps * steadyIterationNanos)
    }

    /// When the next member leaves, if the batch does not change before: the boundary of the
    /// fewest remaining tokens.
    var nextFinish: SimTime? { sortedRemaining.first.map(boundary) }

    /// The `k`-th (from 0) member's finish in finishing order, if the batch does not change.
    func predictedFinish(_ k: Int) -> SimTime { boundary(sortedRemaining[k]) }

    /// Moves the segment to `now`, a boundary: every member has `k` tokens more (the
    /// boundaries passed), a member that joined the segment has its first token at boundary
    /// 1; the members whose last token is out leave and are returned (finished at `now`).
    mutating func advance(to now: SimTime) -> [Member] {
        guard !isIdle else { segmentStart = now; return [] }
        precondition(isAtBoundary(now), "a batch changes only at an iteration's boundary")
        let passed = Int(1 + (now - boundary(1)).nanoseconds / steadyIterationNanos)
        let firstTokenTime = boundary(1)
        precondition(sortedRemaining[0] >= passed, "a member leaves at the boundary of its last token, never later")
        // The members left in place, in their order; those whose last token is out leave.
        var finished: [Member] = []
        var kept = 0
        for index in members.indices {
            members[index].remainingTokens -= passed
            if members[index].firstToken == nil { members[index].firstToken = firstTokenTime }
            if members[index].remainingTokens == 0 {
                finished.append(members[index])
            } else {
                if kept != index { members.swapAt(kept, index) }
                kept += 1
            }
        }
        members.removeLast(members.count - kept)
        sortedRemaining.removeFirst(finished.count)
        for index in sortedRemaining.indices { sortedRemaining[index] -= passed }
        segmentStart = now
        firstIterationNanos = steadyIterationNanos
        return finished
    }

    /// A request joins the batch at `now`, the boundary the replica was advanced to.
    mutating func join(_ job: SharedBackendJob, at now: SimTime) {
        precondition(segmentStart == now, "a request joins at the boundary the replica is at")
        let remaining = max(1, job.request.outputTokens)
        members.append(Member(job: job, remainingTokens: remaining, started: now, firstToken: nil))
        var place = sortedRemaining.count
        while place > 0 && sortedRemaining[place - 1] > remaining { place -= 1 }
        sortedRemaining.insert(remaining, at: place)
        joiningPrefillTokens += job.prefillTokens
        joining = true
    }

    /// Starts the segment after the boundary the replica was advanced to: its first
    /// iteration prefills the requests that joined.
    mutating func beginSegment(cost: SharedBackendConfig.IterationCost) {
        steadyIterationNanos = cost.nanos(batch: members.count, prefillTokens: 0)
        firstIterationNanos = joining ? cost.nanos(batch: members.count, prefillTokens: joiningPrefillTokens) : steadyIterationNanos
        joiningPrefillTokens = 0
        joining = false
    }

    /// Checks the segment and the members.
    func checkInvariants(maxBatch: Int) {
        precondition(members.count <= maxBatch, "a batch holds at most maxBatch requests")
        precondition(!joining, "a segment begins right after its joins")
        if !isIdle {
            precondition(steadyIterationNanos >= 1 && firstIterationNanos >= steadyIterationNanos, "iterations take time")
            precondition(members.allSatisfy { $0.remainingTokens >= 1 }, "a member with no token left has left")
        }
        precondition(sortedRemaining == members.map(\.remainingTokens).sorted(), "the sorted finishes are the members'")
    }
}
