/// The keyboard's client of the cloud checker: the debounce decides when changed text is
/// sent; each request makes attempts over the network, timed out, retried with exponential
/// backoff, and carries the device token, which the server may refuse. An answered request
/// goes to the router, which hands its words to the underlines with the cloud's verdicts.
///
/// A request carries finished text only (never the word being typed at the cursor, nor
/// anything after it) and goes out only when that text differs by content from what the
/// cloud last saw (`CloudView`): it carries the text from the first token that differs. The
/// words of requests in flight follow later edits, so a stale answer is reconciled word by
/// word. `docs/models.md` ("Debounce policies") states every rule.
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

    /// A request: the text from the text's token `firstToken` on, which starts at `fromUTF8`
    /// (followed through later edits), and the words in it.
    struct Request {
        var id: Int
        var trigger: RequestTrigger
        var sent: SimTime
        var version: Int
        var field: Int
        var characters: Int
        var firstToken: Int
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

    let network: NetworkConfig
    let service: Distribution
    private let whenHidden: PendingWorkRule
    private let whenFieldChanges: PendingWorkRule
    /// The cloud's judgement of each word, for the underlines.
    let verdicts: CloudVerdicts
    private let debouncePolicy: DebouncePolicy
    private var debouncer: Debouncer
    private(set) var debounceTimer = SimTimer()
    /// The trigger the armed debounce timer will send for.
    private var armedTrigger: RequestTrigger?
    /// The edit that last armed the debounce timer (its key; nil for dictated text or a fix)
    /// and its trigger, which the timer's cancel or fire record names.
    var arming: (keyIndex: Int?, trigger: RequestTrigger)?
    /// The text as the cloud has seen it (or will, from the requests in flight).
    var view = CloudView()
    /// The field being typed in, counted from 0.
    private(set) var field = 0
    /// The word a picked suggestion just put at the cursor: finished, though the cursor is
    /// right after it, until the next edit.
    private var pickedWord: Range<Int>?
    /// Whether the keyboard is hidden (from `keyboard.hide` to `keyboard.show`).
    private var hidden = false
    var serviceTimes: RandomStream
    var token: DeviceTokenModel?
    /// Requests not yet answered, failed or abandoned, by id.
    var requests: [Int: Request] = [:]
    var attempts: [Int: Attempt] = [:]
    /// Requests sent so far (the next request's id).
    private(set) var requestsSent = 0
    var nextAttemptID = 0

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

    /// The text changed (`picked`: a picked suggestion replaced the word at the cursor): the
    /// debounce policy arms its timer or sends at once. An edit that lands while the keyboard
    /// is hidden (its key was touched before the hide) follows `cloud.whenHidden`, as if it
    /// had landed before the hide: `cancel` arms and sends nothing, `send` sends at once.
    /// `keyIndex`: the key whose edit landed (nil for dictated text or an applied fix).
    mutating func edited<Sink: ObservationSink>(picked: Bool, keyIndex: Int?, io: inout KeyboardIO, sink: inout Sink) {
        pickedWord = picked ? io.text.unfinishedWordRange : nil
        if hidden && whenHidden == .cancel { return }
        // Only what the policy reads is computed: each is a look at the end of the text.
        let boundaries = debouncer.readsBoundaries
        let decision = debouncer.edit(at: io.now, endsSentence: debouncer.readsSentenceEnd && io.text.endsSentence,
                                      endedSentence: boundaries && io.text.justEndedSentence,
                                      endedWord: boundaries && io.text.endsWord)
        if let (time, trigger) = decision.arm {
            let rearmed = debounceTimer.isArmed(in: io.engine)
            debounceTimer.arm(.cloud(.debounceFired(trigger)), at: time, in: &io.engine)
            armedTrigger = trigger
            recordArming(rearmed: rearmed, due: time, trigger: trigger, keyIndex: keyIndex, now: io.now, sink: &sink)
        }
        if let trigger = decision.sendNow { sendIfChanged(trigger, io: &io) }
        if hidden && whenHidden == .send { fireArmedTimer(io: &io, sink: &sink) }
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
        hidden = true
        settlePendingWork(whenHidden, io: &io, sink: &sink)
    }

    /// The keyboard was shown: edits arm the debounce again.
    mutating func keyboardShown() {
        hidden = false
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
        view.reset(to: io.text)
        pickedWord = nil
        // The typist is the same: what the adaptive policy learned of them stays.
        debouncer = debouncer.startingOver()
    }

    private mutating func settlePendingWork<Sink: ObservationSink>(_ rule: PendingWorkRule, io: inout KeyboardIO, sink: inout Sink) {
        switch rule {
        case .keep:
            break
        case .send:
            fireArmedTimer(io: &io, sink: &sink)
        case .cancel:
            recordCancel(io: io, sink: &sink)
            debounceTimer.cancel(in: &io.engine)
            debouncer = debouncer.startingOver()
            attempts.removeAll()
            for id in requests.keys.sorted() {
                let request = requests.removeValue(forKey: id)!
                giveUp(request, outcome: .cancelled, io: &io, sink: &sink)
            }
        }
    }

    /// The armed debounce timer, if any, fires now.
    private mutating func fireArmedTimer<Sink: ObservationSink>(io: inout KeyboardIO, sink: inout Sink) {
        guard debounceTimer.isArmed(in: io.engine), let trigger = armedTrigger, let due = debounceTimer.fireTime(in: io.engine) else { return }
        debounceTimer.cancel(in: &io.engine)
        let sent = requestsSent
        if let send = debouncer.timerFired(at: io.now, trigger: trigger) { sendIfChanged(send, io: &io) }
        recordFire(due: due, trigger: trigger, sentFrom: sent, now: io.now, sink: &sink)
    }

    // MARK: - Events

    /// Handles one of the client's events; returns the request it answered, if any.
    mutating func handle<Sink: ObservationSink>(_ event: Event, at now: SimTime, io: inout KeyboardIO, sink: inout Sink) -> Request? {
        switch event {
        case .debounceFired(let trigger):
            let sent = requestsSent
            if let send = debouncer.timerFired(at: now, trigger: trigger) { sendIfChanged(send, io: &io) }
            recordFire(due: now, trigger: trigger, sentFrom: sent, now: now, sink: &sink)
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

    /// Sends the finished text from the first token that differs by content from what the
    /// cloud last saw, if any differs and holds a word.
    private mutating func sendIfChanged(_ trigger: RequestTrigger, io: inout KeyboardIO) {
        armedTrigger = nil
        // The token of the word being typed at the cursor is not finished: neither it nor
        // anything after it goes. A word a picked suggestion just put there is finished.
        var finished = io.text.wordCount
        var end = io.text.utf8.count
        if let typing = io.text.unfinishedWordRange, typing != pickedWord {
            finished = io.text.tokenOrdinal(atOrAfterUTF8: typing.lowerBound)
            end = io.text.tokenRange(finished)?.lowerBound ?? typing.lowerBound
        }
        let first = view.firstDifference(in: io.text, finishedTokens: finished)
        var words: [SentWord] = []
        for ordinal in first..<finished {
            guard let word = io.text.wordRange(ofToken: ordinal), !word.isEmpty else { continue }
            words.append(SentWord(ordinal: ordinal, word: io.text.string(utf8: word), start: word.lowerBound))
        }
        // Nothing differs, or only tokens without a word (punctuation) do: nothing to judge,
        // and what the cloud saw stays as it was.
        guard !words.isEmpty, let from = io.text.tokenRange(first)?.lowerBound else {
            view.compared(agreeing: first, text: io.text)
            return
        }
        view.saw(io.text, tokens: first..<finished)
        let id = requestsSent
        requestsSent += 1
        requests[id] = Request(id: id, trigger: trigger, sent: io.now, version: io.text.version, field: field,
                               characters: io.text.characterCount(utf8: from..<end), firstToken: first, fromUTF8: from,
                               words: words)
        startAttempt(for: id, io: &io)
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
        recordCancel(io: io, sink: &sink)
        debounceTimer.cancel(in: &io.engine)
        armedTrigger = nil
        pickedWord = nil
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
        precondition(pickedWord.map { $0.upperBound <= io.text.utf8.count } != false, "a picked word lies inside the text")
        precondition(!(hidden && whenHidden == .cancel) || (requests.isEmpty && !debounceTimer.isArmed(in: io.engine)),
                     "a keyboard hidden under `cancel` has no timer armed and no request in flight")
    }
}
