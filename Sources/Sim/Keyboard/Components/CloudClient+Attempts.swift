// The cloud client's requests on the network and at the backend: a request dispatched with
// its tokens, each attempt's trip (the radio, the hand-shake, the round trip), the backend's
// receipt or later reply, the bill, the answer, a loss or a timeout.

extension CloudClient {
    /// The router hands over request `id`, made by the event being handled, with the number
    /// of its words the cloud flags: its answer's output tokens follow, and its first attempt
    /// leaves.
    mutating func dispatch(_ id: Int, flaggedWords: Int, io: inout KeyboardIO) {
        requests[id]!.outputTokens = tokenConfig.outputTokens(flaggedWords: flaggedWords)
        startAttempt(for: id, io: &io)
    }

    /// The requests made since the router last dispatched, in the order they were made.
    mutating func takeUndispatched() -> [Int] {
        defer { undispatched.removeAll(keepingCapacity: true) }
        return undispatched
    }

    /// Makes request `id`'s next attempt, if it is still pending: its token is checked, then
    /// it crosses the network to the backend, and ends in an answer, a refusal, a loss or a
    /// timeout. The draws keep keysim's first order — the round trip, the service (at the
    /// backend), the loss — so that a scenario that sets none of the new models times every
    /// attempt as before.
    mutating func startAttempt(for id: Int, io: inout KeyboardIO) {
        guard requests[id] != nil else { return }
        if tokenRefused(request: id, io: &io) { return }
        requests[id]!.attempts += 1
        if let since = requests[id]!.rejectedSince {
            requests[id]!.limitWait = requests[id]!.limitWait + (io.now - since)
            requests[id]!.rejectedSince = nil
        }
        let attemptID = nextAttemptID
        nextAttemptID += 1
        let state = io.network.state(at: io.now)
        guard state != .offline else {
            io.network.checkRequestFoundNoNetwork()
            attempts[attemptID] = Attempt(request: id, started: io.now, network: .zero, downlink: .zero, outcome: nil,
                                          answers: false)
            requests[id]!.offlineFailures += 1
            io.schedule(.cloud(.attemptEnded(attempt: attemptID)), after: network.offlineFailure)
            return
        }
        let roundTrip = io.network.roundTrip(.checkRequest, in: state)
        let setUp = io.network.checkRequestSetUp(at: io.now, in: state)
        let uplink = SimDuration(nanoseconds: roundTrip.nanoseconds / 2)
        let downlink = roundTrip - uplink
        let receipt = io.submitToBackend(backendRequest(id, attempt: attemptID), arrivingAt: io.now + setUp + uplink)
        let lost = io.network.answerLost(in: state)
        var attempt = Attempt(request: id, started: io.now, network: setUp + roundTrip, downlink: downlink, outcome: nil,
                              answers: !lost)
        switch receipt {
        case .decided(let outcome, let repliesAt):
            attempt.outcome = outcome
            if case .served(let service) = outcome { add(service.bill, request: id) }
            let end = repliesAt + downlink
            if !lost && end - io.now <= network.timeout {
                io.schedule(.cloud(.attemptEnded(attempt: attemptID)), at: end)
                io.network.checkRequestUsed(until: end)
            } else {
                io.schedule(.cloud(.attemptTimedOut(attempt: attemptID)), after: network.timeout)
                io.network.checkRequestUsed(until: min(end, io.now + network.timeout))
            }
        case .later:
            attempt.timeout = io.schedule(.cloud(.attemptTimedOut(attempt: attemptID)), after: network.timeout)
            io.network.checkRequestUsed(until: io.now + setUp + uplink)
        }
        attempts[attemptID] = attempt
    }

    /// The attempt as the backend sees it.
    private func backendRequest(_ id: Int, attempt: Int) -> BackendRequest {
        let request = requests[id]!
        return BackendRequest(id: BackendAttemptID(user: user, session: session, attempt: attempt), request: id,
                              inputTokens: tokenConfig.systemPromptTokens + request.textTokens,
                              cacheableTokens: tokenConfig.systemPromptTokens, outputTokens: request.outputTokens)
    }

    /// A backend that decides later sent a message about an attempt: its service began (the
    /// request is billed), or it is over (the reply crosses the network back, unless it is
    /// lost or comes after the attempt's timeout).
    mutating func received(_ reply: BackendReply, io: inout KeyboardIO) {
        precondition(reply.id.user == user && reply.id.session == session, "a reply reaches the session that sent it")
        guard var attempt = attempts[reply.id.attempt], attempt.outcome == nil, requests[attempt.request] != nil else { return }
        let outcome: BackendOutcome
        switch reply.message {
        case .started(let bill):
            if !attempt.billed { add(bill, request: attempt.request) }
            attempt.billed = true
            attempts[reply.id.attempt] = attempt
            return
        case .finished(let finished):
            outcome = finished
        }
        attempt.outcome = outcome
        if !attempt.billed, case .served(let service) = outcome { add(service.bill, request: attempt.request) }
        let end = io.now + attempt.downlink
        if attempt.answers && end - attempt.started <= network.timeout {
            if let timeout = attempt.timeout { io.engine.cancel(timeout) }
            attempt.timeout = nil
            io.schedule(.cloud(.attemptEnded(attempt: reply.id.attempt)), at: end)
        }
        io.network.checkRequestUsed(until: min(end, attempt.started + network.timeout))
        attempts[reply.id.attempt] = attempt
    }

    /// A served attempt's bill goes on its request.
    private mutating func add(_ bill: BackendBill, request id: Int) {
        requests[id]!.billed.inputTokens += bill.inputTokens
        requests[id]!.billed.cachedTokens += bill.cachedTokens
        requests[id]!.billed.outputTokens += bill.outputTokens
        requests[id]!.billed.costPicoUSD += bill.costPicoUSD
    }

    /// An attempt ended: the request it answered, or a retry or failure when it brought none.
    mutating func endAttempt<Sink: ObservationSink>(_ attemptID: Int, io: inout KeyboardIO, sink: inout Sink) -> Request? {
        guard let attempt = attempts.removeValue(forKey: attemptID), var request = requests[attempt.request] else { return nil }
        switch attempt.outcome {
        case .served?:
            request.answeringAttempt = attempt
            requests[request.id] = nil
            return request
        case .rejected(let rejection)?:
            requests[request.id]!.rejections += 1
            requests[request.id]!.rejection = rejection.reason
            requests[request.id]!.rejectedSince = attempt.started
            retryOrFail(request.id, after: rejection, io: &io, sink: &sink)
        case nil:
            retryOrFail(request.id, after: nil, io: &io, sink: &sink)
        }
        return nil
    }

    /// An attempt brought no answer in time: retried, or the request fails.
    mutating func timeOutAttempt<Sink: ObservationSink>(_ attemptID: Int, io: inout KeyboardIO, sink: inout Sink) {
        guard let attempt = attempts.removeValue(forKey: attemptID), requests[attempt.request] != nil else { return }
        if attempt.timeout != nil && attempt.outcome == nil {
            io.abandonAtBackend(BackendAttemptID(user: user, session: session, attempt: attemptID))
        }
        requests[attempt.request]!.timeouts += 1
        retryOrFail(attempt.request, after: nil, io: &io, sink: &sink)
    }

    /// Every attempt in flight is dropped: the backend is told of those it has not decided.
    mutating func abandonAttempts(io: inout KeyboardIO) {
        let undecided = attempts.filter { $0.value.timeout != nil && $0.value.outcome == nil }.keys.sorted()
        for attemptID in undecided {
            io.abandonAtBackend(BackendAttemptID(user: user, session: session, attempt: attemptID))
        }
        attempts.removeAll()
    }
}
