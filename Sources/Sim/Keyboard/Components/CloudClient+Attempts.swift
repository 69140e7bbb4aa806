// The cloud client's requests on the network: attempts, timeouts, retries with exponential
// backoff, failures, and the device token checked before each attempt.

extension CloudClient {
    /// Makes request `id`'s next attempt, if it is still pending: its token is checked, then
    /// it draws its round trip and service time and ends in an answer, a loss or a timeout.
    mutating func startAttempt(for id: Int, io: inout KeyboardIO) {
        guard requests[id] != nil else { return }
        if tokenRefused(request: id, io: &io) { return }
        requests[id]!.attempts += 1
        let attemptID = nextAttemptID
        nextAttemptID += 1
        let state = io.network.state(at: io.now)
        switch state {
        case .offline:
            attempts[attemptID] = Attempt(request: id, network: .zero, service: .zero, answers: false)
            requests[id]!.offlineFailures += 1
            io.schedule(.cloud(.attemptEnded(attempt: attemptID)), after: network.offlineFailure)
        case .good, .bad:
            let roundTrip = io.network.roundTrip(.checkRequest, in: state)
            let serviceTime = service.sampleDuration(&serviceTimes)
            let lost = io.network.answerLost(in: state)
            attempts[attemptID] = Attempt(request: id, network: roundTrip, service: serviceTime, answers: !lost)
            if !lost && roundTrip + serviceTime <= network.timeout {
                io.schedule(.cloud(.attemptEnded(attempt: attemptID)), after: roundTrip + serviceTime)
            } else {
                io.schedule(.cloud(.attemptTimedOut(attempt: attemptID)), after: network.timeout)
            }
        }
    }

    /// An attempt ended: the request it answered, or a retry or failure when it brought none.
    mutating func endAttempt<Sink: ObservationSink>(_ attemptID: Int, io: inout KeyboardIO, sink: inout Sink) -> Request? {
        guard let attempt = attempts.removeValue(forKey: attemptID), var request = requests[attempt.request] else { return nil }
        guard attempt.answers else {
            retryOrFail(request.id, io: &io, sink: &sink)
            return nil
        }
        request.answeringAttempt = attempt
        requests[request.id] = nil
        return request
    }

    /// An attempt brought no answer in time: retried, or the request fails.
    mutating func timeOutAttempt<Sink: ObservationSink>(_ attemptID: Int, io: inout KeyboardIO, sink: inout Sink) {
        guard let attempt = attempts.removeValue(forKey: attemptID), requests[attempt.request] != nil else { return }
        requests[attempt.request]!.timeouts += 1
        retryOrFail(attempt.request, io: &io, sink: &sink)
    }

    private mutating func retryOrFail<Sink: ObservationSink>(_ id: Int, io: inout KeyboardIO, sink: inout Sink) {
        let request = requests[id]!
        if request.attempts < network.maxAttempts {
            var backoff = network.retryBackoff
            for _ in 1..<request.attempts { backoff = min(backoff * 2, network.retryBackoffMax) }
            io.schedule(.cloud(.retry(request: id)), after: backoff)
            return
        }
        requests[id] = nil
        giveUp(request, outcome: .failed, io: &io, sink: &sink)
    }

    /// The request's text never got through: the next request must carry it again.
    mutating func giveUp<Sink: ObservationSink>(_ request: Request, outcome: RequestOutcome, io: inout KeyboardIO,
                                                        sink: inout Sink) {
        if request.field == field { view.forget(fromToken: request.firstToken) }
        sink.record(.request(observation(request, outcome: outcome, attempt: nil, lostWords: 0, io: io)))
    }

    /// Records an answered request once the underlines have reconciled it; `lostWords`
    /// of its words had changed or gone.
    func recordAnswer<Sink: ObservationSink>(_ request: Request, lostWords: Int, io: KeyboardIO, sink: inout Sink) {
        sink.record(.request(observation(request, outcome: .answered, attempt: request.answeringAttempt, lostWords: lostWords, io: io)))
    }

    /// Whether an answered request is about the field being typed in now.
    func isCurrent(_ request: Request) -> Bool { request.field == field }

    private func observation(_ request: Request, outcome: RequestOutcome, attempt: Attempt?, lostWords: Int,
                             io: KeyboardIO) -> RequestObservation {
        RequestObservation(id: request.id, trigger: request.trigger, sent: request.sent, textVersion: request.version,
                           characters: request.characters, words: request.words.count, attempts: request.attempts,
                           timeouts: request.timeouts, offlineFailures: request.offlineFailures,
                           networkRoundTrip: attempt?.network ?? .zero, service: attempt?.service ?? .zero, end: io.now,
                           outcome: outcome, stale: outcome == .answered && request.version != io.text.version,
                           lostWords: lostWords)
    }

    // MARK: - The device token

    /// Checks the request's token before an attempt goes out. Returns true when the server
    /// refuses it: the refusal arrives after a round trip, and the attempt does not count
    /// against `maxAttempts`.
    private mutating func tokenRefused(request id: Int, io: inout KeyboardIO) -> Bool {
        guard var token else { return false }
        let state = io.network.state(at: io.now)
        guard state != .offline else { return false }
        let verdict = token.check(at: io.now)
        self.token = token
        guard verdict != .accepted else { return false }
        let roundTrip = io.network.roundTrip(.tokenCheck, in: state)
        io.schedule(.cloud(.tokenAnswer(request: id, attempt: io.now, verdict: verdict)), after: roundTrip)
        return true
    }

    /// The server refused an attempt's token: the request waits for the current token, or fails.
    mutating func tokenAnswer<Sink: ObservationSink>(request id: Int, attempt: SimTime, verdict: DeviceTokenModel.Verdict,
                                                             io: inout KeyboardIO, sink: inout Sink) {
        guard var request = requests[id] else { return }   // abandoned by a kill meanwhile
        switch verdict {
        case .accepted:
            preconditionFailure("an accepted token is not answered here")
        case .revoked(let keyboard, let server):
            sink.record(.extensionLifecycle(.tokenRejection(TokenRejectionRecord(
                requestID: id, attempt: attempt, rejected: io.now, retry: nil, reason: .revoked,
                keyboardGeneration: keyboard, serverGeneration: server))))
            requests[id] = nil
            // The refused attempt is the request's last one.
            request.attempts += 1
            giveUp(request, outcome: .revoked, io: &io, sink: &sink)
        case .expired(let keyboard, let server):
            // The keyboard waits until the container app has stored the current token.
            let retry = token!.refreshed(at: io.now)
            sink.record(.extensionLifecycle(.tokenRejection(TokenRejectionRecord(
                requestID: id, attempt: attempt, rejected: io.now, retry: retry, reason: .expired,
                keyboardGeneration: keyboard, serverGeneration: server))))
            io.schedule(.cloud(.tokenRetry(request: id)), at: retry)
        }
    }
}
