/// The keyboard's client of the cloud checker: the debounce decides when changed text is
/// sent; each request makes attempts over the network, timed out, retried with exponential
/// backoff, and carries the device token, which the server may refuse. An answered request
/// goes to the router, which hands its words to the underlines with the cloud's verdicts.
///
/// A request carries finished words only (never the word at the cursor) and goes out only
/// when that text differs from what the cloud last saw. The words of requests in flight
/// follow later edits, so a stale answer is reconciled word by word.
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

    /// A word as sent: its ordinal then, its text, and where it stands now (`nil` once an edit changed it).
    struct SentWord {
        var ordinal: Int
        var word: String
        var start: Int?
    }

    /// A request: the changed text from `fromUTF8` on (followed through later edits), and the words in it.
    struct Request {
        var id: Int
        var trigger: RequestTrigger
        var sent: SimTime
        var version: Int
        var field: Int
        var characters: Int
        var fromUTF8: Int
        var words: [SentWord]
        var attempts = 0
        var timeouts = 0
        var offlineFailures = 0
        /// The attempt that brought the answer.
        var answeringAttempt: Attempt?
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
    private let whenHidden: PendingWorkRule
    private let whenFieldChanges: PendingWorkRule
    /// The cloud's judgement of each word, for the underlines.
    let verdicts: CloudVerdicts
    private let debouncePolicy: DebouncePolicy
    private var debouncer: Debouncer
    private var debounceTimer = SimTimer()
    /// The trigger the armed debounce timer will send for.
    private var armedTrigger: RequestTrigger?
    /// The text as the cloud has seen it (or will, from the requests in flight).
    private var view = CloudView()
    /// The field being typed in, counted from 0.
    private var field = 0
    private var serviceTimes: RandomStream
    private var token: DeviceTokenModel?
    /// Requests not yet answered, failed or abandoned, by id.
    private(set) var requests: [Int: Request] = [:]
    private var attempts: [Int: Attempt] = [:]
    /// Requests sent so far (the next request's id).
    private(set) var requestsSent = 0
    private var nextAttemptID = 0

    init(config: KeyboardConfig, verdicts: CloudVerdicts, tokenPrefix: String, stream: (String) -> RandomStream) {
        network = config.network
        service = config.cloud.service
        whenHidden = config.cloud.whenHidden
        whenFieldChanges = config.cloud.whenFieldChanges
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
        if let (time, trigger) = decision.arm {
            debounceTimer.arm(.cloud(.debounceFired(trigger)), at: time, in: &io.engine)
            armedTrigger = trigger
        }
        if let trigger = decision.sendNow { sendIfChanged(trigger, io: &io) }
    }

    /// The text changed (`io.text.lastEdit`): the cloud's view marks it changed, and the
    /// words of requests in flight follow it.
    mutating func follow(_ edit: TextEdit, io: KeyboardIO) {
        view.follow(edit)
        guard !requests.isEmpty, edit.removedUTF8 > 0 || edit.insertedUTF8 > 0 else { return }
        let editEnd = edit.atUTF8 + edit.insertedUTF8
        for id in requests.keys {
            requests[id]!.fromUTF8 = edit.moved(start: requests[id]!.fromUTF8, length: 0) ?? edit.atUTF8
            for index in requests[id]!.words.indices {
                let sent = requests[id]!.words[index]
                guard let start = sent.start, start + sent.word.utf8.count >= edit.atUTF8 else { continue }
                var moved = edit.moved(start: start, length: sent.word.utf8.count)
                if let new = moved, new <= editEnd, !io.text.hasWord(sent.word, at: new) { moved = nil }
                requests[id]!.words[index].start = moved
            }
        }
    }

    /// The keyboard was hidden: pending work follows `cloud.whenHidden`.
    mutating func keyboardHidden<Sink: ObservationSink>(io: inout KeyboardIO, sink: inout Sink) {
        settlePendingWork(whenHidden, io: &io, sink: &sink)
    }

    /// The field is about to change: pending work follows `cloud.whenFieldChanges` (a `send`
    /// still carries the old field's text). Call `fieldChanged(io:)` once the new text is in.
    mutating func fieldChanging<Sink: ObservationSink>(io: inout KeyboardIO, sink: inout Sink) {
        settlePendingWork(whenFieldChanges, io: &io, sink: &sink)
    }

    /// The new field's text is in: the cloud has seen none of it, and needs to see none of
    /// what was there before the user typed. Answers about the old field find nothing.
    mutating func fieldChanged(io: inout KeyboardIO) {
        field += 1
        view.reset(to: io.text.utf8)
        debouncer = Debouncer(debouncePolicy)
    }

    private mutating func settlePendingWork<Sink: ObservationSink>(_ rule: PendingWorkRule, io: inout KeyboardIO, sink: inout Sink) {
        switch rule {
        case .keep:
            break
        case .send:
            if debounceTimer.isArmed(in: io.engine), let trigger = armedTrigger {
                debounceTimer.cancel(in: &io.engine)
                if let send = debouncer.timerFired(at: io.now, trigger: trigger) { sendIfChanged(send, io: &io) }
            }
        case .cancel:
            debounceTimer.cancel(in: &io.engine)
            debouncer = Debouncer(debouncePolicy)
            attempts.removeAll()
            for id in requests.keys.sorted() {
                let request = requests.removeValue(forKey: id)!
                giveUp(request, outcome: .cancelled, io: &io, sink: &sink)
            }
        }
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

    /// Sends the finished text that differs from what the cloud last saw, if any.
    private mutating func sendIfChanged(_ trigger: RequestTrigger, io: inout KeyboardIO) {
        armedTrigger = nil
        let text = io.text.utf8
        // The word at the cursor is being typed: neither it nor anything after it goes.
        let end = io.text.unfinishedWordRange?.lowerBound ?? text.count
        let same = view.firstDifference(in: text, before: end)
        var words: [SentWord] = []
        var from = same
        if same < end {
            var ordinal = io.text.tokenOrdinal(atOrAfterUTF8: same)
            // The request starts with the first token that changed.
            if let token = io.text.tokenRange(ordinal) { from = min(token.lowerBound, end) }
            while let word = io.text.wordRange(ofToken: ordinal), word.upperBound <= end {
                if !word.isEmpty { words.append(SentWord(ordinal: ordinal, word: io.text.string(utf8: word), start: word.lowerBound)) }
                ordinal += 1
            }
        }
        view.saw(text, from: same, to: end)
        // Only white space or punctuation changed, or words were deleted: nothing new to check.
        guard !words.isEmpty else { return }
        let id = requestsSent
        requestsSent += 1
        requests[id] = Request(id: id, trigger: trigger, sent: io.now, version: io.text.version, field: field,
                               characters: io.text.characterCount(utf8: from..<end), fromUTF8: from, words: words)
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
        guard let attempt = attempts.removeValue(forKey: attemptID), var request = requests[attempt.request] else { return nil }
        guard attempt.answers else {
            retryOrFail(request.id, io: &io, sink: &sink)
            return nil
        }
        request.answeringAttempt = attempt
        requests[request.id] = nil
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
        if request.field == field { view.forget(fromUTF8: request.fromUTF8) }
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
            giveUp(request, outcome: .killed, io: &io, sink: &sink)
        }
        debounceTimer.cancel(in: &io.engine)
        armedTrigger = nil
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
