// The cloud client's retry policy and the ends of a request: tried again after a refusal's
// `Retry-After` or a backoff, dropped when a newer request carries its text, given up (its
// text then goes with the next request), answered; and the record each end leaves.

extension CloudClient {
    /// An attempt brought no answer (`rejection`: the backend refused it): the request is
    /// tried again, dropped as superseded, or given up.
    mutating func retryOrFail<Sink: ObservationSink>(_ id: Int, after rejection: BackendRejection?, io: inout KeyboardIO,
                                                     sink: inout Sink) {
        if dropIfSuperseded(id, io: &io, sink: &sink) { return }
        let request = requests[id]!
        if rejection?.isRetryable ?? true, request.attempts < retry.maxAttempts {
            let delay = (retry.honourRetryAfter ? rejection?.retryAfter : nil)
                ?? retry.backoff(afterAttempts: request.attempts, draws: &jitterDraws)
            io.schedule(.cloud(.retry(request: id)), after: delay)
            return
        }
        requests[id] = nil
        giveUp(request, outcome: rejection == nil ? .failed : .rejected, io: &io, sink: &sink)
    }

    /// Drops request `id` when the policy says so and a newer request carries all its text;
    /// returns whether it did. The newer request asks about the same words, so the cloud's
    /// view keeps them: nothing is sent again for this one.
    mutating func dropIfSuperseded<Sink: ObservationSink>(_ id: Int, io: inout KeyboardIO, sink: inout Sink) -> Bool {
        guard retry.dropSuperseded, let request = requests[id], request.superseded else { return false }
        requests[id] = nil
        sink.record(.request(observation(request, outcome: .superseded, attempt: nil, lostWords: 0, io: io)))
        return true
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
        var queueWait = SimDuration.zero
        var firstToken = SimDuration.zero
        if case .served(let service)? = attempt?.outcome { (queueWait, firstToken) = (service.queueWait, service.firstToken) }
        let limitWait = request.limitWait + (request.rejectedSince.map { io.now - $0 } ?? .zero)
        return RequestObservation(id: request.id, trigger: request.trigger, sent: request.sent, textVersion: request.version,
                                  characters: request.characters, words: request.words.count, attempts: request.attempts,
                                  timeouts: request.timeouts, offlineFailures: request.offlineFailures,
                                  networkRoundTrip: attempt?.network ?? .zero, service: attempt?.service ?? .zero, end: io.now,
                                  outcome: outcome, stale: outcome == .answered && request.version != io.text.version,
                                  lostWords: lostWords, inputTokens: request.billed.inputTokens,
                                  cachedTokens: request.billed.cachedTokens, outputTokens: request.billed.outputTokens,
                                  costPicoUSD: request.billed.costPicoUSD, rejections: request.rejections,
                                  rejection: request.rejection, limitWait: limitWait, queueWait: queueWait,
                                  firstToken: firstToken)
    }
}
