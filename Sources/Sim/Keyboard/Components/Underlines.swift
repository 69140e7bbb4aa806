/// The underline protocol: the local checker looks at every finished word and underlines
/// the suspicious ones at once (a chip in the strip above the keys); the cloud's verdict
/// confirms or retracts each, and adds its own findings; a confirmed chip may be accepted,
/// and its fix is applied by moving to the word's end, deleting and inserting.
/// `docs/models.md` ("Underlines") states every rule.
struct Underlines: KeyboardComponent {
    /// The component's own events.
    enum Event {
        /// The user accepts chip `chip` (drawn from `underlines.acceptanceRate`).
        case accept(chip: Int)
    }

    /// What handling an event tells the router.
    enum Output {
        /// The text is unchanged.
        case none
        /// A fix changed the text: the debounce must hear of it.
        case textChanged
    }

    /// A finished word on its way through the local checker.
    struct WordCheck {
        var ordinal: Int
        /// The word's text.
        var word: String
        var start: Int
        var finished: SimTime
    }

    /// An underline, open until the cloud retracts it, the user accepts it or its word goes.
    struct Chip {
        var id: Int
        var ordinal: Int
        var word: String
        var start: Int
        var fix: String?
        var origin: UnderlineOrigin
        var trueError: Bool
        var finished: SimTime
        var shown: SimTime?
        var confirmed: SimTime?
        var open = true
    }

    /// Events worth counting that have no record of their own.
    struct Counters {
        var checksOfVanishedWords = 0
        var reflaggedWords = 0
        var acceptancesWithoutChip = 0
        var acceptancesWithoutFix = 0
    }

    private let checker: CheckerConfig
    private let config: UnderlineConfig
    private var truth: GroundTruth
    private var checkerVerdicts: RandomStream
    private var acceptance: RandomStream
    /// Open chips by id.
    private(set) var chips: [Int: Chip] = [:]
    /// The latest chip of each word ordinal.
    private var chipByOrdinal: [Int: Int] = [:]
    private var nextChipID = 0
    /// Checks and chip drawings submitted and not yet finished or lost.
    private(set) var checksInFlight = 0
    private(set) var drawsInFlight = 0
    private(set) var counters = Counters()

    init(config: KeyboardConfig, intendedText: String?, stream: (String) -> RandomStream) {
        checker = config.checker
        self.config = config.underlines
        truth = GroundTruth(intendedText: intendedText, lexicon: config.checker.lexicon)
        checkerVerdicts = stream("checker.verdicts")
        acceptance = stream("user.acceptance")
    }

    /// The ground truth, for the cloud's verdicts.
    var groundTruth: GroundTruth { truth }

    // MARK: - Events

    mutating func handle<Sink: ObservationSink>(_ event: Event, at now: SimTime, io: inout KeyboardIO, sink: inout Sink) -> Output {
        switch event {
        case .accept(let chip): accept(chip, io: &io, sink: &sink)
        }
    }

    /// A trace's `chip.accept`: the chip of word `wordIndex`, or the latest open one.
    mutating func acceptFromTrace<Sink: ObservationSink>(wordIndex: Int?, io: inout KeyboardIO, sink: inout Sink) -> Output {
        let target = wordIndex.flatMap { chipByOrdinal[$0] } ?? chips.values.filter(\.open).map(\.id).max()
        guard let target else { counters.acceptancesWithoutChip += 1; return .none }
        return accept(target, io: &io, sink: &sink)
    }

    // MARK: - The local checker

    /// An edit landed: when it finished a word, the word goes to the local checker.
    mutating func edited(touch: SimTime, io: inout KeyboardIO) {
        guard io.text.endsToken, let word = io.text.wordRange(ofToken: io.text.wordCount - 1), !word.isEmpty else { return }
        let check = WordCheck(ordinal: io.text.wordCount - 1, word: io.text.string(utf8: word),
                              start: word.lowerBound, finished: touch)
        checksInFlight += 1
        io.submit(.check, context: .check(check), tag: Int64(check.ordinal))
    }

    /// The checker finished a word. Returns whether the word was still there to judge.
    mutating func checkFinished(_ check: WordCheck, io: inout KeyboardIO) -> Bool {
        checksInFlight -= 1
        let word = check.word
        guard io.text.hasWord(word, at: check.start) else { counters.checksOfVanishedWords += 1; return false }
        let verdict = truth.verdict(ordinal: check.ordinal, word: word)
        let u = checkerVerdicts.nextDouble()
        let flagged = verdict.isError ? u < checker.recall : u < checker.falsePositiveRate
        guard flagged else { return true }
        let id = nextChipID
        nextChipID += 1
        if let previous = chipByOrdinal[check.ordinal], chips[previous]?.open == true { counters.reflaggedWords += 1 }
        chips[id] = Chip(id: id, ordinal: check.ordinal, word: word, start: check.start, fix: verdict.fix, origin: .local,
                         trueError: verdict.isError, finished: check.finished)
        chipByOrdinal[check.ordinal] = id
        if config.speculative { draw(id, io: &io) }
        return true
    }

    /// A check's task was lost with the process.
    mutating func lost(_ check: WordCheck, io: inout KeyboardIO) {
        checksInFlight -= 1
    }

    /// A chip drawing's task was lost with the process (its chip goes with the reset).
    mutating func lostDraw() { drawsInFlight -= 1 }

    /// A chip was drawn.
    mutating func drawFinished(_ id: Int, io: inout KeyboardIO) {
        drawsInFlight -= 1
        guard chips[id]?.open == true, chips[id]?.shown == nil else { return }
        chips[id]!.shown = io.now
        if chips[id]!.origin == .cloud || !config.speculative { chips[id]!.confirmed = io.now; scheduleAcceptance(id, io: &io) }
    }

    // MARK: - The cloud's verdicts

    /// The cloud's answer about `words` (sent at `sent`): confirm or retract each underline
    /// of the words it saw, add its own findings, and drop chips whose word moved. Stale
    /// answers are reconciled word by word: only a word still found where it was is touched.
    mutating func reconcile<Sink: ObservationSink>(_ words: [(ordinal: Int, word: String, start: Int)], sent: SimTime,
                                                   verdicts: CloudVerdicts, io: inout KeyboardIO, sink: inout Sink) {
        for (ordinal, word, start) in words {
            let chipID = chipByOrdinal[ordinal]
            guard io.text.hasWord(word, at: start) else {
                // The word this answer is about is gone: its chip goes too. A chip for a newer
                // word at the same place is not this answer's business.
                if let chipID, chips[chipID]?.start == start, chips[chipID]?.word == word {
                    close(chipID, outcome: .dropped, io: &io, sink: &sink)
                }
                continue
            }
            let truth = truth.verdict(ordinal: ordinal, word: word)
            let cloudFlags = verdicts.flags(ordinal: ordinal, word: word, isError: truth.isError)
            if let chipID, let chip = chips[chipID], chip.start == start, chip.word == word {
                if cloudFlags {
                    if chip.confirmed == nil {
                        chips[chipID]!.confirmed = io.now
                        if chip.shown == nil { draw(chipID, io: &io) } else { scheduleAcceptance(chipID, io: &io) }
                    }
                } else {
                    close(chipID, outcome: .retracted, io: &io, sink: &sink)
                }
            } else if cloudFlags {
                let id = nextChipID
                nextChipID += 1
                chips[id] = Chip(id: id, ordinal: ordinal, word: word, start: start, fix: truth.fix, origin: .cloud,
                                 trueError: truth.isError, finished: sent)
                chipByOrdinal[ordinal] = id
                draw(id, io: &io)
            }
        }
    }

    // MARK: - Fixes

    private mutating func scheduleAcceptance(_ id: Int, io: inout KeyboardIO) {
        guard config.acceptanceRate > 0, acceptance.bernoulli(config.acceptanceRate) else { return }
        io.schedule(.underlines(.accept(chip: id)), after: config.acceptanceDelay.sampleDuration(&acceptance))
    }

    private mutating func accept<Sink: ObservationSink>(_ id: Int, io: inout KeyboardIO, sink: inout Sink) -> Output {
        guard let chip = chips[id], chip.open else { return .none }
        guard let fix = chip.fix else {
            counters.acceptancesWithoutFix += 1
            close(id, outcome: .accepted, io: &io, sink: &sink)
            return .none
        }
        guard io.text.hasWord(chip.word, at: chip.start) else {
            sink.record(.fix(FixObservation(underlineID: id, wordOrdinal: chip.ordinal, accepted: io.now, applied: false,
                                            corrupted: false, strategy: config.offsets)))
            close(id, outcome: .dropped, io: &io, sink: &sink)
            return .none
        }
        let outcome = FixApplier.apply(fix, replacing: chip.word, at: chip.start, in: io.text.text, strategy: config.offsets)
        io.text.replaceAll(with: outcome.text)
        sink.record(.fix(FixObservation(underlineID: id, wordOrdinal: chip.ordinal, accepted: io.now, applied: true,
                                        corrupted: outcome.corrupted, strategy: config.offsets)))
        close(id, outcome: .accepted, io: &io, sink: &sink)
        if outcome.corrupted { truth.breakAlignment() }
        if !outcome.corrupted {
            // Later chips moved with the text: keep them where their words now are.
            let delta = fix.utf8.count - chip.word.utf8.count
            for other in chips.keys.sorted() where chips[other]!.start > chip.start { chips[other]!.start += delta }
        }
        return .textChanged
    }

    // MARK: - Closing chips

    private mutating func draw(_ id: Int, io: inout KeyboardIO) {
        drawsInFlight += 1
        io.submit(.draw, context: .drawChip(chip: id), tag: Int64(id))
    }

    private mutating func close<Sink: ObservationSink>(_ id: Int, outcome: UnderlineOutcome, io: inout KeyboardIO, sink: inout Sink) {
        guard let chip = chips.removeValue(forKey: id) else { return }
        if chipByOrdinal[chip.ordinal] == id { chipByOrdinal[chip.ordinal] = nil }
        let flicker = outcome == .retracted && chip.shown.map { io.now - $0 < config.flickerWindow } == true
        sink.record(.underline(UnderlineObservation(
            id: chip.id, wordOrdinal: chip.ordinal, wordLength: chip.word.count, origin: chip.origin, trueError: chip.trueError,
            wordFinished: chip.finished, shown: chip.shown, confirmed: chip.confirmed, end: io.now, outcome: outcome,
            flicker: flicker)))
    }

    /// Every open chip is lost with the process, in id order.
    mutating func reset<Sink: ObservationSink>(reason: ResetReason, io: inout KeyboardIO, sink: inout Sink) -> Int {
        let open = chips.keys.sorted()
        for id in open { close(id, outcome: .killed, io: &io, sink: &sink) }
        return open.count
    }

    /// The replication is over: chips still open are recorded as such, in id order.
    mutating func finish<Sink: ObservationSink>(io: inout KeyboardIO, sink: inout Sink) {
        for id in chips.keys.sorted() { close(id, outcome: .open, io: &io, sink: &sink) }
    }

    var isIdle: Bool { checksInFlight == 0 && drawsInFlight == 0 }

    func checkInvariants(io: KeyboardIO) {
        precondition(checksInFlight >= 0 && drawsInFlight >= 0, "underline work in flight never goes negative")
        for (id, chip) in chips {
            precondition(chip.id == id && chip.open, "an open chip is stored under its own id")
            precondition(chip.id < nextChipID, "chip ids are handed out in order")
            precondition(chip.shown.map { $0 >= chip.finished || chip.origin == .cloud } != false,
                         "a local chip is shown after its word was finished")
        }
        for (ordinal, id) in chipByOrdinal {
            precondition(chips[id]?.ordinal == ordinal, "a word's latest chip is open and about that word")
        }
    }
}
