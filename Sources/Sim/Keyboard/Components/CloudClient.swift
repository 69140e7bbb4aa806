/// The keyboard's client of the cloud checker — the client policy of the three seams the
/// cloud has (network, backend, client): the debounce decides when changed text is sent;
/// each request carries its text's tokens and makes attempts, each over the network
/// (`NetworkModel`) to the backend (`CloudBackend`), timed out, refused or answered, tried
/// again by the retry policy (`RetryPolicy`), with the device token, which the server may
/// refuse. An answered request goes to the router, which hands its words to the underlines
/// with the cloud's verdicts.
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
        /// The number that decides the cloud's verdict on it (`CloudVerdicts.draw`), taken
        /// once as it is sent: dispatch and the answer read the same one.
        var verdictDraw: Double
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
        /// Tokens of the text sent (the system prompt's come on top).
        var textTokens = 0
        /// Output tokens of its answer, set when it is dispatched.
        var outputTokens = 0
        /// What its served attempts were billed.
        var billed = Bill()
        /// Attempts the backend refused, and the last one's reason.
        var rejections = 0
        var rejection: RejectionReason?
        /// When the attempt a rejection answered had started, until the next attempt starts.
        var rejectedSince: SimTime?
        /// Time rejections added: from each refused attempt's start to the next attempt's.
        var limitWait = SimDuration.zero
        /// A newer request carries all of its text (`cloud.retry.dropSuperseded`).
        var superseded = false
    }

    /// What a request's served attempts were billed.
    struct Bill {
        var inputTokens = 0
        var cachedTokens = 0
        var outputTokens = 0
        var costPicoUSD: Int64 = 0
    }

    /// One attempt of a request on the network.
    struct Attempt {
        var request: Int
        /// When it left the keyboard.
        var started: SimTime
        /// The network's part: the radio, the hand-shake and the round trip.
        var network: SimDuration
        /// The return half of the round trip.
        var downlink: SimDuration
        /// What the backend made of it; `nil` while it has not said (or for no network).
        var outcome: BackendOutcome?
        /// Whether its reply reaches the keyboard (not lost on the way).
        var answers: Bool
        /// The timeout of an attempt the backend decides later.
        var timeout: TimerHandle?
        /// Whether the backend said its service began (and so billed it).
        var billed = false

        /// The backend's service time of a served attempt.
        var service: SimDuration {
            if case .served(let s)? = outcome { return s.service }
            return .zero
        }
    }

    let network: NetworkConfig
    /// When requests are tried again.
    let retry: RetryPolicy
    /// What requests carry in tokens.
    let tokenConfig: TokenConfig
    /// Counts the tokens of the text sent.
    let tokenCounter: any TokenCounter
    /// The user and session the requests come from (0 and 0 for a keyboard alone).
    let user: Int
    let session: Int
    private let whenHidden: PendingWorkRule
    private let whenFieldChanges: PendingWorkRule
    /// The cloud's judgement of each word, for the underlines.
    let verdicts: CloudVerdicts
    private let debouncePolicy: DebouncePolicy
    private var debouncer: Debouncer
    private(set) var debounceTimer = SimTimer()
    /// Whether the debounce timer is armed and has not fired: `debounceTimer.isArmed`, kept
    /// here so that an edit need not ask the engine on every key.
    private var timerArmed = false
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
    /// Full jitter's draws (stream `cloud.retry-jitter`).
    var jitterDraws: RandomStream
    var token: DeviceTokenModel?
    /// Requests not yet answered, failed or abandoned, by id.
    var requests: [Int: Request] = [:]
    var attempts: [Int: Attempt] = [:]
    /// Requests sent so far (the next request's id).
    var requestsSent = 0
    var nextAttemptID = 0
    /// Requests made but not yet handed to the network: their answers' output tokens wait
    /// for the cloud's verdicts on their words, which the router asks the underlines for
    /// (`dispatch(_:flaggedWords:io:)`) before the event that made them ends.
    var undispatched: [Int] = []

    init(config: __shared KeyboardConfig, verdicts: CloudVerdicts, tokenPrefix: String, language: String = "en", user: Int = 0,
         session: Int = 0, stream: (String) -> RandomStream) {
        network = config.network
        retry = config.cloud.retry ?? .legacy(config.network)
        tokenConfig = config.cloud.tokens
        tokenCounter = config.cloud.tokens.counter(language: language)
        self.user = user
        self.session = session
        whenHidden = config.cloud.whenHidden
        whenFieldChanges = config.cloud.whenFieldChanges
        self.verdicts = verdicts
        debouncePolicy = config.debounce
        debouncer = Debouncer(config.debounce)
        jitterDraws = stream("cloud.retry-jitter")
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
            let rearmed = timerArmed
            debounceTimer.arm(.cloud(.debounceFired(trigger)), at: time, in: &io.engine)
            timerArmed = true
            armedTrigger = trigger
            recordArming(rearmed: rearmed, due: time, trigger: trigger, keyIndex: keyIndex, now: io.now, sink: &sink)
        }
        if let trigger = decision.sendNow { sendIfChanged(trigger, io: &io) }
        if hidden && whenHidden == .send { fireArmedTimer(io: &io, sink: &sink) }
    }

    /// The text changed (`io.text.lastEdit`): the cloud's view marks it changed, and the
    /// words of requests in flight follow it.
    @inline(__always) mutating func follow(_ edit: TextEdit, io: KeyboardIO) {
        view.follow(edit)
        // Most edits land with no request in flight: only the view's mark, then.
        if !requests.isEmpty { followRequests(edit, io: io) }
    }

    /// The words of requests in flight follow `edit`.
    private mutating func followRequests(_ edit: TextEdit, io: KeyboardIO) {
        guard edit.removedUTF8 > 0 || edit.insertedUTF8 > 0 else { return }
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
            timerArmed = false
            debouncer = debouncer.startingOver()
            abandonAttempts(io: &io)
            for id in requests.keys.sorted() {
                let request = requests.removeValue(forKey: id)!
                giveUp(request, outcome: .cancelled, io: &io, sink: &sink)
            }
        }
    }

    /// The armed debounce timer, if any, fires now.
    private mutating func fireArmedTimer<Sink: ObservationSink>(io: inout KeyboardIO, sink: inout Sink) {
        guard timerArmed, let trigger = armedTrigger, let due = debounceTimer.fireTime(in: io.engine) else { return }
        debounceTimer.cancel(in: &io.engine)
        timerArmed = false
        let sent = requestsSent
        if let send = debouncer.timerFired(at: io.now, trigger: trigger) { sendIfChanged(send, io: &io) }
        recordFire(due: due, trigger: trigger, sentFrom: sent, now: io.now, sink: &sink)
    }

    // MARK: - Events

    /// Handles one of the client's events; returns the request it answered, if any.
    mutating func handle<Sink: ObservationSink>(_ event: Event, at now: SimTime, io: inout KeyboardIO, sink: inout Sink) -> Request? {
        switch event {
        case .debounceFired(let trigger):
            timerArmed = false
            let sent = requestsSent
            if let send = debouncer.timerFired(at: now, trigger: trigger) { sendIfChanged(send, io: &io) }
            recordFire(due: now, trigger: trigger, sentFrom: sent, now: now, sink: &sink)
        case .attemptEnded(let attempt):
            return endAttempt(attempt, io: &io, sink: &sink)
        case .attemptTimedOut(let attempt):
            timeOutAttempt(attempt, io: &io, sink: &sink)
        case .retry(let request), .tokenRetry(let request):
            if dropIfSuperseded(request, io: &io, sink: &sink) { break }
            startAttempt(for: request, io: &io)
        case .tokenAnswer(let request, let attempt, let verdict):
            tokenAnswer(request: request, attempt: attempt, verdict: verdict, io: &io, sink: &sink)
        }
        return nil
    }

    // MARK: - Requests

    /// Sends the finished text from the first token that differs by content from what the
    /// cloud last saw, if any differs and holds a word. The request waits in `undispatched`
    /// for the router to hand it to the network (`dispatch`), within the same event.
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
        // At most a word a token: room for all of them at once.
        var words: [SentWord] = []
        words.reserveCapacity(finished - first)
        // Each token's range is found once, for its word here and for the view below.
        var tokens: [Range<Int>?] = []
        tokens.reserveCapacity(finished - first)
        for ordinal in first..<finished {
            let token = io.text.tokenRange(ordinal)
            tokens.append(token)
            guard let token, case let word = io.text.wordRange(inToken: token), !word.isEmpty else { continue }
            let text = io.text.string(utf8: word)
            words.append(SentWord(ordinal: ordinal, word: text, start: word.lowerBound,
                                  verdictDraw: verdicts.draw(ordinal: ordinal, word: text)))
        }
        // Nothing differs, or only tokens without a word (punctuation) do: nothing to judge,
        // and what the cloud saw stays as it was.
        guard !words.isEmpty, let from = io.text.tokenRange(first)?.lowerBound else {
            view.compared(agreeing: first, text: io.text)
            return
        }
        view.saw(io.text, tokens: first..<finished, ranges: tokens)
        let id = requestsSent
        requestsSent += 1
        let characters = io.text.characterCount(utf8: from..<end)
        var request = Request(id: id, trigger: trigger, sent: io.now, version: io.text.version, field: field,
                              characters: characters, firstToken: first, fromUTF8: from, words: words)
        request.textTokens = tokenCounter.tokens(utf8: io.text.utf8[from..<end], characters: characters)
        if retry.dropSuperseded {
            // Older requests of this field whose text starts here or later: this one carries all of it.
            let older = requests.keys.filter { requests[$0]!.field == field && requests[$0]!.fromUTF8 >= from }
            for other in older { requests[other]!.superseded = true }
        }
        requests[id] = request
        undispatched.append(id)
    }

    // MARK: - Reset

    /// Requests in flight are abandoned, in id order, and their text marked to be sent again;
    /// the debounce starts afresh. The device token survives: it lives in the shared keychain.
    mutating func reset<Sink: ObservationSink>(reason: ResetReason, io: inout KeyboardIO, sink: inout Sink) -> Int {
        abandonAttempts(io: &io)
        let abandoned = requests.keys.sorted()
        for id in abandoned {
            let request = requests.removeValue(forKey: id)!
            giveUp(request, outcome: .killed, io: &io, sink: &sink)
        }
        recordCancel(io: io, sink: &sink)
        debounceTimer.cancel(in: &io.engine)
        timerArmed = false
        armedTrigger = nil
        pickedWord = nil
        debouncer = Debouncer(debouncePolicy)
        return abandoned.count
    }

    var isIdle: Bool { requests.isEmpty }

    func checkInvariants(io: KeyboardIO) {
        for (id, request) in requests {
            precondition(request.id == id && id < requestsSent, "a request is stored under its own id")
            precondition(request.attempts <= retry.maxAttempts, "no request makes more than maxAttempts attempts")
        }
        for attempt in attempts.values {
            precondition(requests[attempt.request] != nil || attempt.request < requestsSent, "an attempt belongs to a sent request")
        }
        precondition(undispatched.isEmpty, "the router dispatches every request within the event that made it")
        precondition(timerArmed == debounceTimer.isArmed(in: io.engine), "the client knows whether its debounce timer is armed")
        precondition(pickedWord.map { $0.upperBound <= io.text.utf8.count } != false, "a picked word lies inside the text")
        precondition(!(hidden && whenHidden == .cancel) || (requests.isEmpty && !debounceTimer.isArmed(in: io.engine)),
                     "a keyboard hidden under `cancel` has no timer armed and no request in flight")
    }
}
