/// The underline protocol: the local checker looks at every finished word and underlines
/// the suspicious ones at once (a chip in the strip above the keys); the cloud's verdict
/// confirms or retracts each, and adds its own findings; a confirmed chip may be accepted,
/// and its fix is applied by moving to the word's end, deleting and inserting.
///
/// Chips are anchored to their words: every edit moves the chips after it, and an edit that
/// changes an underlined word closes its chip (`edited`); the word is checked again once
/// finished. A word is finished when white space or punctuation is typed right after it, when
/// it is a picked suggestion, or when the cursor leaves it after editing it; a backspace
/// finishes nothing. `docs/models.md` ("Underlines") states every rule.
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
        /// The field it was typed in (a check outliving its field finds nothing).
        var field: Int
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
    }

    private let checker: CheckerConfig
    private let config: UnderlineConfig
    private var truth: GroundTruth
    private var checkerVerdicts: RandomStream
    private var acceptance: RandomStream
    /// Open chips by id.
    private(set) var chips: [Int: Chip] = [:]
    /// The open chips' (start, id), sorted: an edit looks only at the chips at or after it,
    /// so a key at the end of a long text costs O(log chips), not O(chips).
    private var byStart: [(start: Int, id: Int)] = []
    /// The longest word an open chip has had, in UTF-8 bytes: how far before an edit a chip
    /// can start and still be touched by it.
    private var longestChipWord = 0
    private var nextChipID = 0
    /// The field being typed in, counted from 0.
    private(set) var field = 0
    /// Whether the last edit left a word unfinished at the cursor: it is finished when the
    /// cursor leaves it.
    private var editedWordAtCursor = false
    /// The text that accepted fixes wrote, as UTF-8 (start, length), following later edits: a
    /// user accepts at most one fix at a place (a fix that damaged the text is not accepted
    /// again and again). A field's own: a field change clears them.
    private(set) var fixedSpans: [(start: Int, length: Int)] = []
    /// Checks and chip drawings submitted and not yet finished or lost.
    private(set) var checksInFlight = 0
    private(set) var drawsInFlight = 0
    /// Events worth counting that have no record of their own.
    private(set) var counters = ReplicationSummary.Counters()

    init(config: __shared KeyboardConfig, intendedText: String?, caches: SimulationCaches, stream: (String) -> RandomStream) {
        checker = config.checker
        self.config = config.underlines
        truth = GroundTruth(intendedText: intendedText, lexicon: config.checker.lexicon, caches: caches)
        checkerVerdicts = stream("checker.verdicts")
        acceptance = stream("user.acceptance")
    }

    // MARK: - Events

    mutating func handle<Sink: ObservationSink>(_ event: Event, at now: SimTime, io: inout KeyboardIO, sink: inout Sink) -> Output {
        switch event {
        case .accept(let chip): accept(chip, io: &io, sink: &sink)
        }
    }

    /// A trace's `chip.accept`: the chip on word `wordIndex` of the text, or the latest open one.
    mutating func acceptFromTrace<Sink: ObservationSink>(wordIndex: Int?, io: inout KeyboardIO, sink: inout Sink) -> Output {
        let target = wordIndex.flatMap { chip(onWord: $0, io: io) } ?? chips.keys.max()
        guard let target else { counters.acceptancesWithoutChip += 1; return .none }
        return accept(target, io: &io, sink: &sink)
    }

    // MARK: - The local checker

    /// The text changed (`io.text.lastEdit`): chips follow their words, an edited word's chip
    /// closes, and a word the edit finished goes to the local checker. `kind` is `nil` for an
    /// edit that is not a key (a dictated text); `finishing` says whether it may finish a word.
    mutating func edited<Sink: ObservationSink>(_ kind: EditKind?, touch: SimTime, io: inout KeyboardIO, sink: inout Sink) {
        let edit = io.text.lastEdit
        follow(edit, io: &io, sink: &sink)
        truth.edited(edit, text: io.text)
        let finished = kind == .suggestion || (kind != .delete && edit.insertedUTF8 > 0 && io.text.finishesWord)
        editedWordAtCursor = !finished
        if finished, let ordinal = io.text.lastTokenOrdinal(startingBeforeUTF8: io.text.cursorUTF8 - (kind == .suggestion ? 0 : 1)) {
            check(ordinal: ordinal, touch: touch, io: &io)
        }
    }

    /// The cursor moved from `oldCursor`: a word edited and left unfinished there is finished
    /// when the cursor leaves it.
    mutating func cursorMoved(from oldCursor: Int, touch: SimTime, io: inout KeyboardIO) {
        guard editedWordAtCursor, let word = io.text.unfinishedWordRange(cursorUTF8: oldCursor) else { return }
        let cursor = io.text.cursorUTF8
        guard cursor < word.lowerBound || cursor > word.upperBound else { return }
        editedWordAtCursor = false
        check(ordinal: io.text.tokenOrdinal(atOrAfterUTF8: word.lowerBound), touch: touch, io: &io)
    }

    /// The text field changed: the old field's chips close, and the new field's intended
    /// text, if any, decides which words are errors.
    mutating func fieldChanged<Sink: ObservationSink>(intendedText: String?, io: inout KeyboardIO, sink: inout Sink) {
        for id in chips.keys.sorted() { close(id, outcome: .fieldChanged, io: &io, sink: &sink) }
        field += 1
        editedWordAtCursor = false
        // The new field's text replaces the old one's without an edit that `follow` sees: the
        // old field's fixed spans would stand over the new text (and be moved by every edit).
        fixedSpans.removeAll(keepingCapacity: true)
        truth.fieldChanged(intendedText: intendedText)
    }

    /// Sends word `ordinal` to the local checker, if it is a word.
    private mutating func check(ordinal: Int, touch: SimTime, io: inout KeyboardIO) {
        guard let word = io.text.wordRange(ofToken: ordinal), !word.isEmpty else { return }
        let check = WordCheck(field: field, ordinal: ordinal, word: io.text.string(utf8: word),
                              start: word.lowerBound, finished: touch)
        checksInFlight += 1
        io.submit(.check, context: .check(check), tag: Int64(check.ordinal))
    }

    /// Moves every chip with the edit; closes the chips of words it changed.
    private mutating func follow<Sink: ObservationSink>(_ edit: TextEdit, io: inout KeyboardIO, sink: inout Sink) {
        // A span ending at or before the edit stays where it is (`TextEdit.moved`): most edits
        // land at the end of the text, after every span, and move none. The others move (or
        // go) in place, without a new array.
        if fixedSpans.contains(where: { $0.start + $0.length > edit.atUTF8 }) {
            var kept = 0
            for index in fixedSpans.indices {
                let span = fixedSpans[index]
                guard let start = edit.moved(start: span.start, length: span.length) else { continue }
                fixedSpans[kept] = (start, span.length)
                kept += 1
            }
            fixedSpans.removeLast(fixedSpans.count - kept)
        }
        guard !chips.isEmpty, edit.removedUTF8 > 0 || edit.insertedUTF8 > 0 else { return }
        let editEnd = edit.atUTF8 + edit.insertedUTF8
        var edited: [Int] = []
        // Chips starting further before the edit than the longest chip word cannot reach it.
        for index in firstIndex(startingAtOrAfter: edit.atUTF8 - longestChipWord)..<byStart.count {
            let id = byStart[index].id
            let chip = chips[id]!
            let length = chip.word.utf8.count
            guard chip.start + length >= edit.atUTF8 else { continue }   // wholly before the edit, untouched
            guard let start = edit.moved(start: chip.start, length: length) else { edited.append(id); continue }
            // Every chip after the edit moves by the same amount: the order stays.
            chips[id]!.start = start
            byStart[index].start = start
            // Text typed right against the word may have joined it: is it still a whole word?
            if start <= editEnd && start + length >= edit.atUTF8 && !io.text.hasWord(chip.word, at: start) { edited.append(id) }
        }
        if !edited.isEmpty { for id in edited.sorted() { close(id, outcome: .edited, io: &io, sink: &sink) } }
    }

    /// The first place in `byStart` whose chip starts at or after `start`.
    private func firstIndex(startingAtOrAfter start: Int) -> Int {
        var low = 0, high = byStart.count
        while low < high {
            let mid = (low + high) / 2
            if byStart[mid].start < start { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The latest open chip starting at `start`, if any.
    private func chip(startingAt start: Int) -> Int? {
        var index = firstIndex(startingAtOrAfter: start), latest: Int?
        while index < byStart.count && byStart[index].start == start { latest = max(latest ?? -1, byStart[index].id); index += 1 }
        return latest
    }

    /// Opens a chip.
    private mutating func open(_ chip: Chip) {
        chips[chip.id] = chip
        var index = firstIndex(startingAtOrAfter: chip.start)
        while index < byStart.count && byStart[index].start == chip.start && byStart[index].id < chip.id { index += 1 }
        byStart.insert((chip.start, chip.id), at: index)
        longestChipWord = max(longestChipWord, chip.word.utf8.count)
    }

    /// The open chip on word `ordinal` of the text, if any.
    private func chip(onWord ordinal: Int, io: KeyboardIO) -> Int? {
        guard let word = io.text.wordRange(ofToken: ordinal) else { return nil }
        return chip(startingAt: word.lowerBound)
    }

    /// The checker finished a word. Returns whether the word was still there to judge.
    mutating func checkFinished(_ check: WordCheck, io: inout KeyboardIO) -> Bool {
        checksInFlight -= 1
        let word = check.word
        guard check.field == field, io.text.hasWord(word, at: check.start) else { counters.checksOfVanishedWords += 1; return false }
        let ordinal = io.text.tokenOrdinal(atOrAfterUTF8: check.start)
        let verdict = truth.verdict(ordinal: ordinal, word: word, text: io.text)
        if verdict.isError { counters.errorWordsFinished += 1 }
        let u = checkerVerdicts.nextDouble()
        let flagged = verdict.isError ? u < checker.recall : u < checker.falsePositiveRate
        guard flagged else { return true }
        let id = nextChipID
        nextChipID += 1
        if chip(startingAt: check.start) != nil { counters.reflaggedWords += 1 }
        open(Chip(id: id, ordinal: ordinal, word: word, start: check.start, fix: verdict.fix, origin: .local,
                  trueError: verdict.isError, finished: check.finished))
        if config.speculative { draw(id, io: &io) }
        return true
    }

    /// A check's task was lost with the process.
    mutating func lostCheck() {
        checksInFlight -= 1
    }

    /// A chip drawing's task was lost with the process (its chip goes with the reset).
    mutating func lostDraw() { drawsInFlight -= 1 }

    /// A chip was drawn.
    mutating func drawFinished(_ id: Int, io: inout KeyboardIO) {
        drawsInFlight -= 1
        guard chips[id] != nil, chips[id]!.shown == nil else { return }
        chips[id]!.shown = io.now
        if chips[id]!.origin == .cloud || !config.speculative { chips[id]!.confirmed = io.now; scheduleAcceptance(id, io: &io) }
    }

    // MARK: - The cloud's verdicts

    /// How many of `words` (a request's, as it leaves: each at its place in the text) the
    /// cloud flags: the words its answer lists, which make its output tokens. The same
    /// verdicts `reconcile` will draw.
    mutating func cloudFlagCount(_ words: [CloudClient.SentWord], verdicts: CloudVerdicts, io: KeyboardIO) -> Int {
        var flagged = 0
        // As the request leaves, each word stands where it was read: its ordinal is the text's.
        for sentWord in words where sentWord.start != nil {
            let isError = truth.verdict(ordinal: sentWord.ordinal, word: sentWord.word, text: io.text).isError
            if verdicts.flags(draw: sentWord.verdictDraw, isError: isError) { flagged += 1 }
        }
        return flagged
    }

    /// The cloud's answer about `words` (sent at `sent`, followed to where they are now;
    /// `start` is `nil` for a word an edit changed since): confirm or retract each underline of
    /// the words it saw, add its own findings. Stale answers are reconciled word by word: only
    /// a word still found where it was is touched. Returns how many words of the answer were
    /// lost (changed or gone since it was sent).
    mutating func reconcile<Sink: ObservationSink>(_ words: [CloudClient.SentWord], sent: SimTime,
                                                   verdicts: CloudVerdicts, io: inout KeyboardIO, sink: inout Sink) -> Int {
        var lost = 0
        for sentWord in words {
            let (ordinal, word) = (sentWord.ordinal, sentWord.word)
            guard let start = sentWord.start, io.text.hasWord(word, at: start) else { lost += 1; continue }
            let chipID = chip(startingAt: start)
            let truth = truth.verdict(ordinal: io.text.tokenOrdinal(atOrAfterUTF8: start), word: word, text: io.text)
            let cloudFlags = verdicts.flags(draw: sentWord.verdictDraw, isError: truth.isError)
            if let chipID, let chip = chips[chipID], chip.word == word {
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
                open(Chip(id: id, ordinal: ordinal, word: word, start: start, fix: truth.fix, origin: .cloud,
                          trueError: truth.isError, finished: sent))
                draw(id, io: &io)
            }
        }
        return lost
    }

    // MARK: - Fixes

    private mutating func scheduleAcceptance(_ id: Int, io: inout KeyboardIO) {
        guard config.acceptanceRate > 0, acceptance.bernoulli(config.acceptanceRate), let chip = chips[id] else { return }
        let end = chip.start + chip.word.utf8.count
        guard !fixedSpans.contains(where: { $0.start < end && chip.start < $0.start + $0.length }) else { return }
        io.schedule(.underlines(.accept(chip: id)), after: config.acceptanceDelay.sampleDuration(&acceptance))
    }

    private mutating func accept<Sink: ObservationSink>(_ id: Int, io: inout KeyboardIO, sink: inout Sink) -> Output {
        guard let chip = chips[id] else { return .none }
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
        // The extension moves the cursor to the word's end, deletes and inserts, and moves it
        // back: a cursor after the word moves with the text after it.
        let cursor = io.text.cursorUTF8
        let delta = outcome.text.utf8.count - io.text.utf8.count
        let newCursor = cursor >= chip.start + chip.word.utf8.count ? cursor + delta : min(cursor, chip.start)
        io.text.replaceAll(with: outcome.text, cursorUTF8: min(max(0, newCursor), outcome.text.utf8.count))
        sink.record(.fix(FixObservation(underlineID: id, wordOrdinal: chip.ordinal, accepted: io.now, applied: true,
                                        corrupted: outcome.corrupted, strategy: config.offsets)))
        close(id, outcome: .accepted, io: &io, sink: &sink)
        // Later chips follow their words; a corrupting fix may have damaged some of them.
        follow(io.text.lastEdit, io: &io, sink: &sink)
        let written = io.text.lastEdit
        fixedSpans.append((written.atUTF8, max(written.insertedUTF8, 1)))
        truth.edited(io.text.lastEdit, text: io.text)
        return .textChanged
    }

    // MARK: - Closing chips

    private mutating func draw(_ id: Int, io: inout KeyboardIO) {
        drawsInFlight += 1
        io.submit(.draw, context: .drawChip(chip: id), tag: Int64(id))
    }

    private mutating func close<Sink: ObservationSink>(_ id: Int, outcome: UnderlineOutcome, io: inout KeyboardIO, sink: inout Sink) {
        guard let chip = chips.removeValue(forKey: id) else { return }
        var index = firstIndex(startingAtOrAfter: chip.start)
        while byStart[index].id != id { index += 1 }
        byStart.remove(at: index)
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
        precondition(byStart.count == chips.count && byStart.allSatisfy { chips[$0.id]?.start == $0.start },
                     "the start index holds every open chip at its start")
        precondition(zip(byStart, byStart.dropFirst()).allSatisfy { ($0.start, $0.id) < ($1.start, $1.id) }, "the start index is sorted")
        for (id, chip) in chips {
            precondition(chip.id == id, "an open chip is stored under its own id")
            precondition(chip.id < nextChipID, "chip ids are handed out in order")
            precondition(chip.shown.map { $0 >= chip.finished || chip.origin == .cloud } != false,
                         "a local chip is shown after its word was finished")
            precondition(io.text.hasWord(chip.word, at: chip.start),
                         "chip \(id) on '\(chip.word)' at \(chip.start): no open chip sits on text that changed")
        }
    }
}
