/// The first-come-first-served queue of a `SharedBackend`: an array read from a moving head,
/// compacted when the head passes half of it, so that taking the head is O(1) amortised. An
/// attempt the client gives up is found by its id in an index of the waiting attempts and
/// left in place as a hole (lazy deletion) that taking the head skips, so that removing one
/// is O(1) too, however long the queue.
struct SharedBackendQueue: Sendable {
    /// The attempts from the head on, `nil` where one was removed.
    private var jobs: [SharedBackendJob?] = []
    private var head = 0
    /// The place of `jobs[0]` among every attempt ever appended: positions in `index` are
    /// counted from the first, so that compacting `jobs` moves none of them.
    private var base = 0
    /// Where each waiting attempt is, counted from the first attempt ever appended.
    private var index: [BackendAttemptID: Int] = [:]

    /// Attempts waiting.
    private(set) var count = 0
    /// Whether none is waiting.
    var isEmpty: Bool { count == 0 }

    /// Adds an attempt at the tail.
    mutating func append(_ job: SharedBackendJob) {
        index[job.request.id] = base + jobs.count
        jobs.append(job)
        count += 1
    }

    /// Takes the head.
    mutating func removeFirst() -> SharedBackendJob {
        precondition(!isEmpty, "removeFirst on an empty queue")
        while jobs[head] == nil { head += 1 }
        let job = jobs[head]!
        head += 1
        count -= 1
        index[job.request.id] = nil
        if count == 0 {
            base += jobs.count
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= jobs.count {
            base += head
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }

    /// Removes a waiting attempt (the client gave up); whether it was waiting.
    /// - Complexity: O(1).
    mutating func remove(_ id: BackendAttemptID) -> Bool {
        guard let position = index.removeValue(forKey: id) else { return false }
        jobs[position - base] = nil
        count -= 1
        if count == 0 {
            base += jobs.count
            jobs.removeAll(keepingCapacity: true)
            head = 0
        }
        return true
    }

    /// Checks the count and the index against the attempts held.
    func checkInvariants() {
        precondition(jobs[head...].lazy.filter { $0 != nil }.count == count && index.count == count, "the count is the attempts waiting")
        for (id, position) in index { precondition(jobs[position - base]?.request.id == id, "the index finds every waiting attempt") }
    }
}
