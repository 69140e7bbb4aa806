/// The first-come-first-served queue of a `SharedBackend`: an array read from a moving head,
/// compacted when the head passes half of it, so that taking the head is O(1) amortised.
struct SharedBackendQueue: Sendable {
    private var jobs: [SharedBackendJob] = []
    private var head = 0

    /// Attempts waiting.
    var count: Int { jobs.count - head }
    /// Whether none is waiting.
    var isEmpty: Bool { head == jobs.count }

    /// Adds an attempt at the tail.
    mutating func append(_ job: SharedBackendJob) { jobs.append(job) }

    /// Takes the head.
    mutating func removeFirst() -> SharedBackendJob {
        precondition(!isEmpty, "removeFirst on an empty queue")
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }

    /// Removes a waiting attempt (the client gave up); whether it was waiting.
    /// - Complexity: O(n), n waiting: abandonments are rare next to arrivals.
    mutating func remove(_ id: BackendAttemptID) -> Bool {
        guard let index = jobs[head...].firstIndex(where: { $0.request.id == id }) else { return false }
        jobs.remove(at: index)
        return true
    }

    /// The waiting attempts, head first.
    var waiting: ArraySlice<SharedBackendJob> { jobs[head...] }
}
