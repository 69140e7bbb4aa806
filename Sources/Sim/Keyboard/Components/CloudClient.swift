/// The keyboard's client of the cloud checker: the debounce decides when changed text is
/// sent; each request makes attempts over the network, timed out, retried with exponential
/// backoff, and carries the device token, which the server may refuse. An answered request
/// goes to the router, which hands its words to the underlines with the cloud's verdicts.
struct CloudClient: KeyboardComponent {
    /// The client's own events.
    enum Event {
        case debounceFired(RequestTrigger)
        case attemptEnded(attempt: Int)
        case attemptTimedOut(attempt: Int)
        case retry(request: Int)
        case tokenAnswer(request: Int, attempt: SimTime, verdict: DeviceTokenModel.Verdict)
        case tokenRetry(request: Int)
    }

    /// A request: the changed text from `fromUTF8` on, and the words in it.
    struct Request {
        var id: Int
        var trigger: RequestTrigger
        var sent: SimTime
        var version: Int
        var characters: Int
        var fromUTF8: Int
        var words: [(ordinal: Int, word: String, start: Int)]
        var attempts = 0
        var timeouts = 0
        var offlineFailures = 0
    }

    /// One attempt of a request on the network.
    struct Attempt {
        var request: Int
        var network: SimDuration
        var service: SimDuration
        var answers: Bool
    }

    private let network: NetworkConfig
    private let service: Distribution
    /// The cloud's judgement of each word, for the underlines.
    let verdicts: CloudVerdicts
    private let debouncePolicy: DebouncePolicy
    private var debouncer: Debouncer
    private var debounceTimer = SimTimer()
    private var serviceTimes: RandomStream
    private var token: DeviceTokenModel?
    /// Requests not yet answered, failed or abandoned, by id.
    private(set) var requests: [Int: Request] = [:]
    private var attempts: [Int: Attempt] = [:]
    /// Requests sent so far (the next request's id).
    private(set) var requestsSent = 0
    private var nextAttemptID = 0
    /// The text version the last request carried (−1: the next change must be sent whatever it is).
    private var lastRequestedVersion = 0

    init(config: KeyboardConfig, verdicts: CloudVerdicts, tokenPrefix: String, stream: (String) -> RandomStream) {
        network = config.network
        service = config.cloud.service
        self.verdicts = verdicts
        debouncePolicy = config.debounce
        debouncer = Debouncer(config.debounce)
        serviceTimes = stream("cloud.service")
        if config.token.enabled {
            token = DeviceTokenModel(config: config.token, refreshDelays: stream("token.refresh"), tokenPrefix: tokenPrefix)
        }
    }

    // MARK: - The debounce

    /// The text changed: the debounce policy arms its timer or sends at once.
    mutating func edited(io: inout KeyboardIO) {
        // Only what the policy reads is computed: each is a look at the end of the text.
        let boundaries = debouncer.readsBoundaries
        let decision = debouncer.edit(at: io.now, endsSentence: debouncer.readsSentenceEnd && io.text.endsSentence,
                                      endedSentence: boundaries && io.text.justEndedSentence,
                                      endedWord: boundaries && io.text.endsWord)
        if let (time, trigger) = decision.arm { debounceTimer.arm(.cloud(.debounceFired(trigger)), at: time, in: &io.engine) }
        if let trigger = decision.sendNow { sendIfChanged(trigger, io: &io) }
    }

    // MARK: - Events

    /// Handles one of the client's events; returns the request it answered, if any.
    mutating func handle<Sink: ObservationSink>(_ event: Event, at now: SimTime, io: inout KeyboardIO, sink: inout Sink) -> Request? {
        switch event {
        case .debounceFired(let trigger):
            if let send = debouncer.timerFired(at: now, trigger: trigger) { sendIfChanged(send, io: &io) }
        case .attemptEnded(let attempt):
            return endAttempt(attempt, io: &io, sink: &sink)
        case .attemptTimedOut(let attempt):
            timeOutAttempt(attempt, io: &io, sink: &sink)
        case .retry(let request), .tokenRetry(let request):
            startAttempt(for: request, io: &io)
        case .tokenAnswer(let request, let attempt, let verdict):
            tokenAnswer(request: request, attempt: attempt, verdict: verdict, io: &io, sink: &sink)
        }
        return nil
    }

    // MARK: - Requests

    private mutating func sendIfChanged(_ trigger: RequestTrigger, io: inout KeyboardIO) {
        guard io.text.version != lastRequestedVersion else { return }
        lastRequestedVersion = io.text.version
        let from = io.text.dirtyFromUTF8
        var words: [(ordinal: Int, word: String, start: Int)] = []
        var ordinal = io.text.tokenOrdinal(atOrAfterUTF8: from)
        while ordinal < io.text.wordCount, let word = io.text.wordRange(ofToken: ordinal) {
            if !word.isEmpty { words.append((ordinal, io.text.string(utf8: word), word.lowerBound)) }
            ordinal += 1
        }
        let id = requestsSent
        requestsSent += 1
        requests[id] = Request(id: id, trigger: trigger, sent: io.now, version: io.text.version, characters: io.text.dirtyCount,
                               fromUTF8: from, words: words)
        io.text.markClean()
        startAttempt(for: id, io: &io)
    }

    private mutating func startAttempt(for id: Int, io: inout KeyboardIO) {
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

    private mutating func endAttempt<Sink: ObservationSink>(_ attemptID: Int, io: inout KeyboardIO, sink: inout Sink) -> Request? {
        guard let attempt = attempts.removeValue(forKey: attemptID), let request = requests[attempt.request] else { return nil }
        guard attempt.answers else {
            retryOrFail(request.id, io: &io, sink: &sink)
            return nil
        }
        requests[request.id] = nil
        sink.record(.request(observation(request, outcome: .answered, attempt: attempt, io: io)))
        return request
    }

    private mutating func timeOutAttempt<Sink: ObservationSink>(_ attemptID: Int, io: inout KeyboardIO, sink: inout Sink) {
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
    private mutating func giveUp<Sink: ObservationSink>(_ request: Request, outcome: RequestOutcome, io: inout KeyboardIO,
                                                        sink: inout Sink) {
        io.text.markDirty(fromUTF8: request.fromUTF8)
        if lastRequestedVersion == request.version { lastRequestedVersion = -1 }
        sink.record(.request(observation(request, outcome: outcome, attempt: nil, io: io)))
    }

    private func observation(_ request: Request, outcome: RequestOutcome, attempt: Attempt?, io: KeyboardIO) -> RequestObservation {
        RequestObservation(id: request.id, trigger: request.trigger, sent: request.sent, textVersion: request.version,
                           characters: request.characters, words: request.words.count, attempts: request.attempts,
                           timeouts: request.timeouts, offlineFailures: request.offlineFailures,
                           networkRoundTrip: attempt?.network ?? .zero, service: attempt?.service ?? .zero, end: io.now,
                           outcome: outcome, stale: outcome == .answered && request.version != io.text.version)
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

    private mutating func tokenAnswer<Sink: ObservationSink>(request id: Int, attempt: SimTime, verdict: DeviceTokenModel.Verdict,
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

    // MARK: - Reset

    /// Requests in flight are abandoned, in id order, and their text marked to be sent again;
    /// the debounce starts afresh. The device token survives: it lives in the shared keychain.
    mutating func reset<Sink: ObservationSink>(reason: ResetReason, io: inout KeyboardIO, sink: inout Sink) -> Int {
        attempts.removeAll()
        let abandoned = requests.keys.sorted()
        for id in abandoned {
            let request = requests.removeValue(forKey: id)!
            io.text.markDirty(fromUTF8: request.fromUTF8)
            sink.record(.request(observation(request, outcome: .killed, attempt: nil, io: io)))
        }
        lastRequestedVersion = -1
        debounceTimer.cancel(in: &io.engine)
        debouncer = Debouncer(debouncePolicy)
        return abandoned.count
    }

    var isIdle: Bool { requests.isEmpty }

    func checkInvariants(io: KeyboardIO) {
        for (id, request) in requests {
            precondition(request.id == id && id < requestsSent, "a request is stored under its own id")
            precondition(request.attempts <= network.maxAttempts, "no request makes more than maxAttempts attempts")
        }
        for attempt in attempts.values {
            precondition(requests[attempt.request] != nil || attempt.request < requestsSent, "an attempt belongs to a sent request")
        }
    }
}
