// What a shared backend does with an attempt that arrives: the limits (the user's, then the
// global ones, as `PrivateBackend` keeps them), the queue's limit, then admission control.

extension SharedBackend {
    /// Admits `job` arriving at `now`, or says why not.
    mutating func admit(_ job: SharedBackendJob, at now: SimTime) -> BackendRejection? {
        let tokens = job.request.inputTokens + job.request.outputTokens
        if let limit = config.limits.perUser {
            let user = job.request.id.user
            var limiter = userLimits[user] ?? RateLimiter(limit)
            let refusal = limiter.admit(tokenCount: tokens, at: now)
            userLimits[user] = limiter
            if let refusal { return PrivateBackend.rejection(refusal, requests: .userRequests, tokens: .userTokens) }
        }
        if let refusal = globalLimit?.admit(tokenCount: tokens, at: now) ?? nil {
            return PrivateBackend.rejection(refusal, requests: .providerRequests, tokens: .providerTokens)
        }
        if queue.count - freeSlotsNow(at: now) >= config.queueLimit {
            return BackendRejection(reason: .queueFull, status: 503, retryAfter: nil)
        }
        if let admission = config.admission, predictedFirstToken(job.request, at: now) > admission.firstTokenTarget {
            return BackendRejection(reason: .admission, status: admission.status, retryAfter: admission.retryAfter)
        }
        return nil
    }

    /// Slots of the replicas at a boundary now: the queue's head takes them at this instant,
    /// so only the requests beyond them count against the queue's limit.
    private func freeSlotsNow(at now: SimTime) -> Int {
        replicas.reduce(0) { $0 + ($1.isAtBoundary(now) ? config.maxBatch - $1.members.count : 0) }
    }

    /// The time from `now` to the first token of `request` were it queued now, as admission
    /// control predicts it, assuming no batch changes but those already known:
    ///
    /// - every slot of every replica frees at a known time: an empty slot now (a replica at a
    ///   boundary) or at the replica's next boundary, an occupied one when its request's last
    ///   token is out at the replica's current iteration time;
    /// - with q attempts queued ahead and S slots in order of that time (the lower replica
    ///   first on a tie), the request takes slot q mod S, after ⌊q / S⌋ rounds each as long
    ///   as a request like it in a full batch (first iteration plus one full iteration per
    ///   further output token);
    /// - its first token comes one prefill iteration later: the slot's replica with one
    ///   request more than now (a full batch after a round), prefilling its uncached tokens.
    ///
    /// - Complexity: O(R) for R replicas plus O(R) per occupied slot passed over; no sort
    ///   and no allocation (each replica keeps its members' finishes in order).
    func predictedFirstToken(_ request: BackendRequest, at now: SimTime) -> SimDuration {
        let prefill = request.inputTokens - cachedTokens(request, at: now)
        let ahead = queue.count
        let slotCount = replicas.count * config.maxBatch
        let slot = slotFreeing(ahead % slotCount, at: now)
        let batch = min(config.maxBatch, replicas[slot.replica].members.count + 1)
        let rounds = Int64(ahead / slotCount)
        let fullFirst = config.iteration.nanos(batch: config.maxBatch, prefillTokens: prefill)
        let fullSteady = config.iteration.nanos(batch: config.maxBatch, prefillTokens: 0)
        let round = fullFirst + Int64(max(1, request.outputTokens) - 1) * fullSteady
        let firstIteration = rounds > 0 ? fullFirst : config.iteration.nanos(batch: batch, prefillTokens: prefill)
        return (slot.time - now) + SimDuration(nanoseconds: rounds * round + firstIteration)
    }

    /// The `k`-th (from 0) slot of all replicas in order of (the time it frees, replica index):
    /// a k-way merge of the replicas' slots, each replica's empty slots (all freeing at one
    /// time) taken as one run and its occupied ones in finishing order.
    private func slotFreeing(_ k: Int, at now: SimTime) -> (time: SimTime, replica: Int) {
        let count = replicas.count
        return withUnsafeTemporaryAllocation(of: (free: SimTime, empty: Int, taken: Int).self, capacity: count) { cursors in
            for index in 0..<count {
                let replica = replicas[index]
                let free = replica.isAtBoundary(now) ? now : replica.nextBoundary(atOrAfter: now)
                cursors.initializeElement(at: index, to: (free, config.maxBatch - replica.members.count, 0))
            }
            defer { cursors.deinitialize() }
            var left = k
            while true {
                // The replica whose next slot comes first (the lowest index on a tie).
                var best = -1
                var bestTime = SimTime.zero
                var bestIsEmpty = false
                for index in 0..<count {
                    let cursor = cursors[index]
                    let replica = replicas[index]
                    let occupied = cursor.taken < replica.members.count ? replica.predictedFinish(cursor.taken) : nil
                    let isEmpty = cursor.empty > 0 && (occupied.map { cursor.free <= $0 } ?? true)
                    guard let time = isEmpty ? cursor.free : occupied else { continue }
                    if best < 0 || time < bestTime { (best, bestTime, bestIsEmpty) = (index, time, isEmpty) }
                }
                if bestIsEmpty {
                    // Every empty slot of the best replica comes before any other replica's next.
                    if left < cursors[best].empty { return (bestTime, best) }
                    left -= cursors[best].empty
                    cursors[best].empty = 0
                } else {
                    if left == 0 { return (bestTime, best) }
                    left -= 1
                    cursors[best].taken += 1
                }
            }
        }
    }

    /// Checks the replicas, the queue and the buckets.
    public func checkInvariants() {
        for replica in replicas { replica.checkInvariants(maxBatch: config.maxBatch) }
        queue.checkInvariants()
        precondition(nextWake == earliestWake(), "the kept wake-up is the earliest")
        precondition(queue.count <= config.queueLimit + config.replicas * config.maxBatch, "the queue keeps its limit")
        precondition(queue.isEmpty || replicas.allSatisfy { !$0.isIdle }, "no replica idles while a request waits")
        for user in userLimits.keys.sorted() { userLimits[user]!.checkInvariants() }
        globalLimit?.checkInvariants()
    }
}
