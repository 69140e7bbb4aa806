/// One replication of the keyboard model over one trace.
///
/// Keys are tasks on the extension's main thread; an edit lands when its task finishes.
/// Each landed edit asks for suggestions (dictionary lookup, re-ranking, drawing the bar),
/// a finished word goes to the local checker (its underline drawn at once), and the debounce
/// policy decides when the changed text goes to the cloud checker, whose answer confirms or
/// retracts the underlines and adds its own findings. Everything measured goes to the sink.
/// `docs/models.md` describes the model and every parameter.
public struct KeyboardSimulation {
    /// What the engine schedules. Every payload is plain data (no strings, no references),
    /// so the queue moves events by copying bytes: the text of an edit is held aside in
    /// `texts`. Trace events are not queued (see `run`).
    enum Event {
        case taskDone(thread: Int, CoreWake)
        case debounceFired(RequestTrigger)
        case attemptEnded(attempt: Int)
        case attemptTimedOut(attempt: Int)
        case retry(request: Int)
        case acceptChip(chip: Int)
        case dictation(DictationEvent)
        case lifecycle(ExtensionState.Event)
    }

    /// What a task is doing, so its completion can be handled. Plain data, like `Event`.
    enum TaskContext {
        case key(index: Int, edit: PendingEdit, touch: SimTime, ahead: QueueSnapshot)
        case suggestion(stage: KeyboardWork, SuggestionJob)
        case check(WordCheck)
        case drawChip(chip: Int)
        case predict(edit: Int, NextLetterPredictor.Prediction?)
    }

    /// The edit a key task lands when it finishes. Text other than one ASCII character is
    /// held in `texts` under `slot`.
    enum PendingEdit {
        case insertASCII(UInt8)
        case insert(slot: Int32)
        case delete
        case paste(slot: Int32)
        case suggestion(slot: Int32)

        var kind: EditKind {
            switch self {
            case .insertASCII, .insert: .insert
            case .delete: .delete
            case .paste: .paste
            case .suggestion: .suggestion
            }
        }
    }

    struct SuggestionJob {
        var keyIndex: Int
        var version: Int
        var touch: SimTime
        var waited: SimDuration
        var ran: SimDuration
    }

    struct WordCheck {
        var ordinal: Int
        /// The word's text, in `texts`.
        var word: Int32
        var start: Int
        var finished: SimTime
    }

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

    struct Attempt {
        var request: Int
        var network: SimDuration
        var service: SimDuration
        var answers: Bool
        var done = false
    }

    /// The configuration.
    public let config: KeyboardConfig
    var engine = Engine<Event>()
    var threads: [Executor]
    var threadOf: [Int]                   // by KeyboardWork.code
    private let priorities: [Int]                 // by KeyboardWork.code
    private let costDistributions: [Distribution] // by KeyboardWork.code
    private var costs: [RandomStream]             // by KeyboardWork.code
    private var checkerVerdicts: RandomStream
    private var networkTimes: RandomStream
    private var cloudTimes: RandomStream
    private var acceptance: RandomStream
    var channel: NetworkChannel
    private let streamPrefix: String
    /// The name-independent part of every stream key, and the hash of "<prefix>cloud.verdict/".
    private let verdictKeyBase: UInt64
    private let verdictPrefixHash: UInt64
    private let seed: UInt64
    private let replication: Int
    var text = TextBuffer()
    /// The intended words, as strings of their own: comparing two short strings is a
    /// comparison of their inline bytes, where comparing substrings of one long text is not.
    private var intendedWords: [String]?
    /// Set once a fix damaged the text: words no longer line up with the intended text, so
    /// it stops deciding which words are errors (a corrupted text would otherwise look like
    /// nothing but errors from there on).
    private var alignmentBroken = false
    var debouncer: Debouncer
    var debounceTimer = SimTimer()
    var contexts = ContextTable<TaskContext>()
    /// Text carried by pending edits and checks, found again by slot.
    var texts = ContextTable<String>()
    /// The key budget's limit, if any: every key's deadline.
    private let keyBudget: SimDuration?
    private var nextTaskID: UInt64 = 0
    private var editCount = 0
    var chips: [Int: Chip] = [:]
    private var chipByOrdinal: [Int: Int] = [:]
    private var nextChipID = 0
    var requests: [Int: Request] = [:]
    var attempts: [Int: Attempt] = [:]
    private var nextRequestID = 0
    private var nextAttemptID = 0
    var lastRequestedVersion = 0
    private var counters = ReplicationSummary.Counters()
    private var dictation: DictationModel
    private var dictationTimers = DictationTimers()
    /// The suggestion bar's quality model, when a dictionary is configured.
    private var quality: SuggestionQuality?
    /// Whether `quality` is set, tested per key for the reason `hasTouchModel` is.
    private let hasQuality: Bool
    /// The touch model, when the scenario turns it on.
    var touchModel: TouchModel?
    /// Whether `touchModel` is set. Tested per key instead of the optional itself, which
    /// the compiler copies whole (hundreds of bytes) to look at.
    private let hasTouchModel: Bool
    /// Memory, kills and restarts, language files, the device token.
    var ext: ExtensionState

    /// Creates a replication of one trace. Its random streams derive from (seed, replication,
    /// stream name), the name prefixed by the trace index, so every (replication, trace) pair
    /// draws its own numbers and two policies run on the same pair draw the same ones.
    public init(config: KeyboardConfig, seed: UInt64, replication: Int, trace: Int = 0, header: TraceHeader? = nil) {
        self.config = config
        keyBudget = config.budget(for: .key)?.limit
        self.seed = seed
        self.replication = replication
        streamPrefix = "trace\(trace)/"
        verdictKeyBase = RandomStream.streamKeyBase(seed: seed, replication: replication)
        verdictPrefixHash = RandomStream.fnv1a64("trace\(trace)/cloud.verdict/")
        func stream(_ name: String) -> RandomStream {
            RandomStream(seed: seed, replication: replication, name: "trace\(trace)/\(name)")
        }
        threads = config.threads.map { Executor($0) }
        var threadOf = Array(repeating: 0, count: KeyboardWork.allCases.count + 1)
        var workConfigs = Array(repeating: KeyboardWork.defaults[.key]!, count: KeyboardWork.allCases.count + 1)
        var costs = Array(repeating: stream("unused"), count: KeyboardWork.allCases.count + 1)
        for kind in KeyboardWork.allCases {
            let work = config.config(for: kind)
            guard let index = config.threads.firstIndex(where: { $0.name == work.thread }) else {
                preconditionFailure("work '\(kind.rawValue)' runs on unknown thread '\(work.thread)'")
            }
            threadOf[Int(kind.code)] = index
            workConfigs[Int(kind.code)] = work
            costs[Int(kind.code)] = stream("work.\(kind.rawValue).cost")
        }
        self.threadOf = threadOf
        priorities = workConfigs.map(\.priority)
        costDistributions = workConfigs.map(\.cost)
        self.costs = costs
        checkerVerdicts = stream("checker.verdicts")
        networkTimes = stream("network.round-trip")
        cloudTimes = stream("cloud.service")
        acceptance = stream("user.acceptance")
        channel = NetworkChannel(config: config.network, switches: stream("network.state"))
        debouncer = Debouncer(config.debounce)
        engine.limits = config.limits
        touchModel = TouchModel(config.touch)
        hasTouchModel = touchModel != nil
        dictation = DictationModel(config: config.dictation, seed: seed, replication: replication, streamPrefix: "trace\(trace)/")
        hasQuality = config.typing.dictionary != nil
        quality = config.typing.dictionary.map {
            SuggestionQuality(dictionary: $0, rerankLift: config.typing.rerankLift, lifts: stream("suggestions.rerank-lift"),
                              intendedText: header?.intendedText)
        }
        precondition(config.memory.problems.isEmpty, config.memory.problems.joined(separator: "; "))
        ext = ExtensionState(keyboard: config, header: header, tokenPrefix: "seed\(seed)/replication\(replication)/trace\(trace)/",
                             stream: stream)
        if let intended = header?.intendedText {
            intendedWords = intended.split(whereSeparator: \.isWhitespace).map { String(TextBuffer.word(in: $0, tokenStart: 0).text) }
        }
    }

    /// Replays the trace to the end and until nothing is left pending, sending every
    /// observation to `sink`. Throws only what the trace source throws.
    @_specialize(exported: false, kind: full, where Source == ArrayTraceSource, Sink == ObservationBuffer)
    public mutating func run<Source: TraceEventSource, Sink: ObservationSink>(
        _ source: inout Source, into sink: inout Sink
    ) throws -> ReplicationSummary {
        // The trace is not queued: its next event holds a reservation, the place in the
        // event order it would have had if scheduled when the event before it was handled.
        // Only that one event is ever held, so memory stays flat for any trace length.
        var upcoming = TraceEvent(time: .zero, kind: .keyboardShown)
        var reservation: Engine<Event>.Reservation?
        switch try source.next() {
        case .some(let first): upcoming = first; reservation = engine.reserve(at: first.time)
        case .none: break
        }
        startExtension(into: &sink)
        while let step = engine.next(or: reservation) {
            guard case .event(let event) = step else {
                let traceEvent = upcoming
                // Switched on rather than bound: an optional trace event costs a run-time
                // type look-up to destroy.
                switch try source.next() {
                case .some(let following):
                    precondition(following.time >= traceEvent.time, "trace sources deliver events in time order")
                    upcoming = following
                    reservation = engine.reserve(at: following.time)
                case .none:
                    reservation = nil
                }
                try handle(traceEvent, into: &sink)
                try checkQueues()
                if reservation == nil {
                    // The trace is over: a dictation session closes now rather than at its idle timeout.
                    apply(dictation.finish(at: engine.now), into: &sink)
                }
                continue
            }
            switch event {
            case .taskDone(let thread, let wake):
                finishTask(on: thread, wake, into: &sink)
            case .debounceFired(let trigger):
                if let send = debouncer.timerFired(at: engine.now, trigger: trigger) { sendRequestIfChanged(send) }
            case .attemptEnded(let attempt):
                endAttempt(attempt, into: &sink)
            case .attemptTimedOut(let attempt):
                timeOutAttempt(attempt, into: &sink)
            case .retry(let request):
                startAttempt(for: request)
            case .acceptChip(let chip):
                acceptChip(chip, into: &sink)
            case .dictation(let dictationEvent):
                apply(dictation.handle(dictationEvent, at: engine.now), into: &sink)
            case .lifecycle(let lifecycleEvent):
                handleLifecycle(lifecycleEvent, into: &sink)
            }
        }
        if let limit = engine.limitReached { throw limit }
        sink.record(.extensionLifecycle(.totals(ext.totals)))
        for id in chips.keys.sorted() { closeChip(id, outcome: .open, into: &sink) }
        precondition(threads.allSatisfy(\.isIdle) && contexts.isEmpty && texts.isEmpty && requests.isEmpty && dictation.isIdle
                     && touchModel?.isIdle != false && ext.isIdle,
                     "work left behind at the end of the replication")
        return ReplicationSummary(endTime: engine.now, eventsProcessed: engine.eventsProcessed, edits: editCount,
                                  requests: nextRequestID, words: text.wordCount, characters: text.count,
                                  threadBusy: threads.map { ($0.config.name, $0.busyTime) }.map { ThreadBusy(name: $0.0, busy: $0.1) },
                                  counters: counters, typingQuality: quality?.finish(finalText: text, keystrokes: editCount))
    }

    // MARK: - Trace events

    private mutating func handle<Sink: ObservationSink>(_ event: TraceEvent, into sink: inout Sink) throws {
        switch event.kind {
        case .key, .backspace, .paste, .suggestionPicked:
            let edit = pendingEdit(event.kind)
            if holdIfRestarting(index: editCount, edit: edit, touch: event.time) { editCount += 1; return }
            let thread = threadOf[Int(KeyboardWork.key.code)]
            let ahead = snapshot(thread)
            if hasTouchModel { touchModel!.touched(keyIndex: editCount, kind: event.kind, at: event.time, into: &sink) }
            submit(.key, context: .key(index: editCount, edit: edit, touch: event.time, ahead: ahead),
                   tag: Int64(editCount), deadline: keyBudget.map { event.time + $0 })
            editCount += 1
        case .network(let condition):
            channel.force(condition)
            networkChanged(condition, into: &sink)
        case .chipAccepted(let wordIndex):
            let target = wordIndex.flatMap { chipByOrdinal[$0] } ?? chips.values.filter(\.open).map(\.id).max()
            if let target { acceptChip(target, into: &sink) } else { counters.acceptancesWithoutChip += 1 }
        case .dictationStart(.inline(let onset, let length, let transcript)):
            apply(dictation.tapStart(at: engine.now, speech: (onset, length, transcript)), into: &sink)
        case .dictationStart(.wavFile(let path, _)):
            preconditionFailure("WAV audio (\(path)) must be resolved to speech timing before replay")
        case .dictationStop:
            apply(try dictation.tapStop(at: engine.now), into: &sink)
        case .languageSwitch(let language):
            switchLanguage(language, into: &sink)
        case .cursorMove, .keyboardShown, .keyboardHidden:
            // The typing model edits at the end of the text; these do not change its timing.
            break
        }
    }

    // `mutating` (it changes nothing) so that calls pass `self` by reference: a non-mutating
    // method called from a mutating one gets a copy of the whole simulation.
    mutating func snapshot(_ thread: Int) -> QueueSnapshot {
        // Read in place: binding `threads[thread]` to a constant would copy the executor.
        let queued = threads[thread].readyCount
        return QueueSnapshot(running: threads[thread].firstRunningKind ?? 0, queuedAhead: queued,
                             queuedKinds: queued == 0 ? 0 : threads[thread].queuedKindsMask)
    }

    // MARK: - Dictation

    /// Carries out the dictation model's actions: timers and events on this engine, text
    /// into the document (an edit like any other), records to the sink.
    private mutating func apply<Sink: ObservationSink>(_ actions: [DictationAction], into sink: inout Sink) {
        let outputs = DictationModel.perform(actions, in: &engine, timers: &dictationTimers, wrap: Event.dictation)
        for output in outputs {
            switch output {
            case .insertText(let text, _):
                guard let text, !text.isEmpty else { continue }
                self.text.insert(text)
                debounceEdit()
            case .record(let observation):
                sink.record(.dictation(observation))
            default:
                break
            }
        }
    }

    // MARK: - Tasks

    mutating func submit(_ kind: KeyboardWork, context: consuming TaskContext, tag: Int64, deadline: SimTime? = nil) {
        let code = Int(kind.code)
        let id = nextTaskID
        nextTaskID += 1
        let slot = contexts.insert(context)
        let task = ExecutorTask(id: id, kind: kind.code, tag: tag, priority: priorities[code], deadline: deadline,
                                cost: costDistributions[code].sampleDuration(&costs[code]), context: slot)
        let thread = threadOf[code]
        if let wake = threads[thread].submit(task, now: engine.now) {
            engine.post(.taskDone(thread: thread, wake), at: wake.time)
        }
    }

    private mutating func finishTask<Sink: ObservationSink>(on thread: Int, _ wake: CoreWake, into sink: inout Sink) {
        guard let (record, next) = threads[thread].complete(wake, now: engine.now) else { return }
        if let next { engine.post(.taskDone(thread: thread, next), at: next.time) }
        sink.recordTask(TaskObservation(thread: thread, record: record))
        let context = contexts.remove(record.task.context)
        switch context {
        case .key(let index, let edit, let touch, let ahead):
            let inserted = landEdit(edit)
            if hasQuality {
                let typed: UInt8? = if case .insertASCII(let byte) = edit { byte } else { nil }
                quality!.editLanded(keyIndex: index, text: text, insertedASCII: typed)
            }
            sink.recordKey(KeyObservation(index: index, edit: edit.kind, touch: touch, start: record.start,
                                            inserted: engine.now, ahead: ahead))
            afterEdit(keyIndex: index, touch: touch, into: &sink)
            if hasTouchModel {
                let prediction = touchModel!.edited(edit.kind, inserting: inserted)
                submit(.predict, context: .predict(edit: index, prediction), tag: Int64(index))
            }
        case .suggestion(let stage, var job):
            job.waited = job.waited + record.waitTime
            job.ran = job.ran + (record.finish - record.start)
            advanceSuggestion(job, after: stage, into: &sink)
        case .check(let check):
            finishCheck(check)
        case .predict(let edit, let prediction):
            touchModel!.predictionFinished(editIndex: edit, prediction: prediction, at: engine.now, into: &sink)
        case .drawChip(let id):
            if chips[id]?.open == true, chips[id]?.shown == nil {
                chips[id]!.shown = engine.now
                if chips[id]!.origin == .cloud || !config.underlines.speculative { chips[id]!.confirmed = engine.now; scheduleAcceptance(id) }
            }
        }
    }

    /// The edit of a key, paste or picked suggestion, its text put aside until it lands.
    private mutating func pendingEdit(_ kind: TraceEvent.Kind) -> PendingEdit {
        switch kind {
        case .key(let inserted, _, _):
            if inserted.utf8.count == 1, let byte = inserted.utf8.first, byte < 0x80 { return .insertASCII(byte) }
            return .insert(slot: texts.insert(inserted))
        case .backspace: return .delete
        case .paste(let pasted): return .paste(slot: texts.insert(pasted))
        case .suggestionPicked(let word): return .suggestion(slot: texts.insert(word))
        default: preconditionFailure("only edits become key tasks")
        }
    }

    /// Lands an edit in the text; returns the text it inserted (none for a delete, nor for a
    /// typed ASCII character when no touch model will read it).
    @discardableResult
    private mutating func landEdit(_ edit: PendingEdit) -> String? {
        switch edit {
        case .insertASCII(let byte):
            if !text.insertASCII(byte) { text.insert(TextBuffer.asciiStrings[Int(byte)]) }
            // Only the touch model reads it: spare every other key the string's retain and release.
            return hasTouchModel ? TextBuffer.asciiStrings[Int(byte)] : nil
        case .insert(let slot), .paste(let slot):
            let inserted = texts.remove(slot)
            text.insert(inserted)
            return inserted
        case .delete:
            text.deleteBackward()
            return nil
        case .suggestion(let slot):
            let word = texts.remove(slot)
            text.replaceCurrentWord(with: word)
            return word
        }
    }

    /// Everything an edit sets off: suggestions, the local check of a finished word, the debounce.
    private mutating func afterEdit<Sink: ObservationSink>(keyIndex: Int, touch: SimTime, into sink: inout Sink) {
        if config.coalesceStaleSuggestions {
            cancelStaleSuggestions(.lookup, into: &sink)
            cancelStaleSuggestions(.rerank, into: &sink)
        }
        let job = SuggestionJob(keyIndex: keyIndex, version: text.version, touch: touch, waited: .zero, ran: .zero)
        submit(.lookup, context: .suggestion(stage: .lookup, job), tag: Int64(text.version))
        if text.endsToken, let word = text.wordRange(ofToken: text.wordCount - 1), !word.isEmpty {
            submit(.check, context: .check(WordCheck(ordinal: text.wordCount - 1, word: texts.insert(text.string(utf8: word)),
                                                     start: word.lowerBound, finished: touch)), tag: Int64(text.wordCount - 1))
        }
        debounceEdit()
        if text.endsToken { wordTyped(into: &sink) }
    }

    /// Cancels the queued suggestion work of `kind` (lookup or re-rank) for text older than now.
    private mutating func cancelStaleSuggestions<Sink: ObservationSink>(_ kind: KeyboardWork, into sink: inout Sink) {
        let thread = threadOf[Int(kind.code)]
        // Usually nothing waits: skip the search (and the array it returns).
        if threads[thread].readyCount == 0 { return }
        let cancelled = threads[thread].cancelQueued(now: engine.now) { $0.kind == kind.code && $0.tag < Int64(text.version) }
        for record in cancelled {
            sink.recordTask(TaskObservation(thread: thread, record: record))
            if case .suggestion(_, let job) = contexts.remove(record.task.context) {
                recordSuggestion(job, outcome: .superseded, into: &sink)
            }
        }
    }

    private mutating func debounceEdit() {
        // Only what the policy reads is computed: each is a look at the end of the text.
        let boundaries = debouncer.readsBoundaries
        let decision = debouncer.edit(at: engine.now, endsSentence: debouncer.readsSentenceEnd && text.endsSentence,
                                      endedSentence: boundaries && text.justEndedSentence, endedWord: boundaries && text.endsWord)
        if let (time, trigger) = decision.arm { debounceTimer.arm(.debounceFired(trigger), at: time, in: &engine) }
        if let trigger = decision.sendNow { sendRequestIfChanged(trigger) }
    }

    // MARK: - Suggestions

    private mutating func advanceSuggestion<Sink: ObservationSink>(_ job: SuggestionJob, after stage: KeyboardWork, into sink: inout Sink) {
        if config.coalesceStaleSuggestions && job.version != text.version {
            recordSuggestion(job, outcome: .superseded, into: &sink)
            return
        }
        switch stage {
        case .lookup: submit(.rerank, context: .suggestion(stage: .rerank, job), tag: Int64(job.version))
        case .rerank: submit(.draw, context: .suggestion(stage: .draw, job), tag: Int64(job.version))
        default: recordSuggestion(job, outcome: .shown, into: &sink)
        }
    }

    mutating func recordSuggestion<Sink: ObservationSink>(_ job: SuggestionJob, outcome: SuggestionOutcome, into sink: inout Sink) {
        if outcome == .shown && ext.currentIsCorrupt { ext.totals.silentlyWrongSuggestions += 1 }
        // A bar shown after a later key was touched served no one: too late to use.
        let tooLate = outcome == .shown && editCount - 1 > job.keyIndex
        if outcome == .shown && hasQuality { quality!.barShown(keyIndex: job.keyIndex, inTime: !tooLate) }
        sink.recordSuggestion(SuggestionObservation(keyIndex: job.keyIndex, textVersion: job.version, touch: job.touch,
                                                      end: engine.now, outcome: outcome, tooLate: tooLate,
                                                      waited: job.waited, ran: job.ran))
    }

    // MARK: - Local checker and underlines

    private mutating func finishCheck(_ check: WordCheck) {
        let word = texts.remove(check.word)
        guard text.hasWord(word, at: check.start) else { counters.checksOfVanishedWords += 1; return }
        if ext.currentIsCorrupt { ext.totals.silentlyWrongChecks += 1 }
        let truth = groundTruth(ordinal: check.ordinal, word: word)
        let u = checkerVerdicts.nextDouble()
        let flagged = truth.isError ? u < config.checker.recall : u < config.checker.falsePositiveRate
        guard flagged else { return }
        let id = nextChipID
        nextChipID += 1
        if let previous = chipByOrdinal[check.ordinal], chips[previous]?.open == true { counters.reflaggedWords += 1 }
        chips[id] = Chip(id: id, ordinal: check.ordinal, word: word, start: check.start, fix: truth.fix, origin: .local,
                         trueError: truth.isError, finished: check.finished)
        chipByOrdinal[check.ordinal] = id
        if config.underlines.speculative { submit(.draw, context: .drawChip(chip: id), tag: Int64(id)) }
    }

    private mutating func groundTruth(ordinal: Int, word: String) -> (isError: Bool, fix: String?) {  // mutating: see snapshot(_:)
        if let intendedWords, !alignmentBroken {
            guard ordinal < intendedWords.count else { return (false, nil) }
            let intended = intendedWords[ordinal]
            return intended == word ? (false, nil) : (true, intended)
        }
        if !config.checker.lexicon.isEmpty { return (!config.checker.lexicon.contains(word.lowercased()), nil) }
        return (false, nil)
    }

    mutating func closeChip<Sink: ObservationSink>(_ id: Int, outcome: UnderlineOutcome, into sink: inout Sink) {
        guard let chip = chips.removeValue(forKey: id) else { return }
        if chipByOrdinal[chip.ordinal] == id { chipByOrdinal[chip.ordinal] = nil }
        let flicker = outcome == .retracted && chip.shown.map { engine.now - $0 < config.underlines.flickerWindow } == true
        sink.record(.underline(UnderlineObservation(
            id: chip.id, wordOrdinal: chip.ordinal, wordLength: chip.word.count, origin: chip.origin, trueError: chip.trueError,
            wordFinished: chip.finished, shown: chip.shown, confirmed: chip.confirmed, end: engine.now, outcome: outcome,
            flicker: flicker)))
    }

    // MARK: - Requests

    private mutating func sendRequestIfChanged(_ trigger: RequestTrigger) {
        guard text.version != lastRequestedVersion else { return }
        lastRequestedVersion = text.version
        let from = text.dirtyFromUTF8
        var words: [(ordinal: Int, word: String, start: Int)] = []
        var ordinal = text.tokenOrdinal(atOrAfterUTF8: from)
        while ordinal < text.wordCount, let word = text.wordRange(ofToken: ordinal) {
            if !word.isEmpty { words.append((ordinal, text.string(utf8: word), word.lowerBound)) }
            ordinal += 1
        }
        let id = nextRequestID
        nextRequestID += 1
        requests[id] = Request(id: id, trigger: trigger, sent: engine.now, version: text.version, characters: text.dirtyCount,
                               fromUTF8: from, words: words)
        text.markClean()
        startAttempt(for: id)
    }

    mutating func startAttempt(for id: Int) {
        guard requests[id] != nil else { return }
        if tokenRefused(request: id) { return }
        requests[id]!.attempts += 1
        let attemptID = nextAttemptID
        nextAttemptID += 1
        let state = channel.state(at: engine.now)
        switch state {
        case .offline:
            attempts[attemptID] = Attempt(request: id, network: .zero, service: .zero, answers: false)
            requests[id]!.offlineFailures += 1
            engine.schedule(.attemptEnded(attempt: attemptID), after: config.network.offlineFailure)
        case .good, .bad:
            let network = (state == .good ? config.network.goodRoundTrip : config.network.badRoundTrip).sampleDuration(&networkTimes)
            let service = config.cloud.service.sampleDuration(&cloudTimes)
            let lost = networkTimes.bernoulli(state == .good ? config.network.goodLoss : config.network.badLoss)
            attempts[attemptID] = Attempt(request: id, network: network, service: service, answers: !lost)
            if !lost && network + service <= config.network.timeout {
                engine.schedule(.attemptEnded(attempt: attemptID), after: network + service)
            } else {
                engine.schedule(.attemptTimedOut(attempt: attemptID), after: config.network.timeout)
            }
        }
    }

    private mutating func endAttempt<Sink: ObservationSink>(_ attemptID: Int, into sink: inout Sink) {
        guard let attempt = attempts.removeValue(forKey: attemptID), let request = requests[attempt.request] else { return }
        if attempt.answers {
            answer(request, attempt: attempt, into: &sink)
        } else {
            retryOrFail(request.id, into: &sink)
        }
    }

    private mutating func timeOutAttempt<Sink: ObservationSink>(_ attemptID: Int, into sink: inout Sink) {
        guard let attempt = attempts.removeValue(forKey: attemptID), requests[attempt.request] != nil else { return }
        requests[attempt.request]!.timeouts += 1
        retryOrFail(attempt.request, into: &sink)
    }

    private mutating func retryOrFail<Sink: ObservationSink>(_ id: Int, into sink: inout Sink) {
        let request = requests[id]!
        if request.attempts < config.network.maxAttempts {
            var backoff = config.network.retryBackoff
            for _ in 1..<request.attempts { backoff = min(backoff * 2, config.network.retryBackoffMax) }
            engine.schedule(.retry(request: id), after: backoff)
            return
        }
        requests[id] = nil
        // The text never got through: the next request must carry it again.
        text.markDirty(fromUTF8: request.fromUTF8)
        if lastRequestedVersion == request.version { lastRequestedVersion = -1 }
        sink.record(.request(observation(request, outcome: .failed, attempt: nil)))
    }

    func observation(_ request: Request, outcome: RequestOutcome, attempt: Attempt?) -> RequestObservation {
        RequestObservation(id: request.id, trigger: request.trigger, sent: request.sent, textVersion: request.version,
                           characters: request.characters, words: request.words.count, attempts: request.attempts,
                           timeouts: request.timeouts, offlineFailures: request.offlineFailures,
                           networkRoundTrip: attempt?.network ?? .zero, service: attempt?.service ?? .zero, end: engine.now,
                           outcome: outcome, stale: outcome == .answered && request.version != text.version)
    }

    /// The cloud's answer: confirm or retract each underline of the words it saw, add its
    /// own findings, and drop chips whose word moved. Stale answers are reconciled word by
    /// word: only a word still found where it was is touched.
    private mutating func answer<Sink: ObservationSink>(_ request: Request, attempt: Attempt, into sink: inout Sink) {
        requests[request.id] = nil
        sink.record(.request(observation(request, outcome: .answered, attempt: attempt)))
        for (ordinal, word, start) in request.words {
            let chipID = chipByOrdinal[ordinal]
            guard text.hasWord(word, at: start) else {
                // The word this answer is about is gone: its chip goes too. A chip for a newer
                // word at the same place is not this answer's business.
                if let chipID, chips[chipID]?.start == start, chips[chipID]?.word == word {
                    closeChip(chipID, outcome: .dropped, into: &sink)
                }
                continue
            }
            let truth = groundTruth(ordinal: ordinal, word: word)
            // The stream "<prefix>cloud.verdict/<ordinal>/<word>", its key computed without building the name.
            var verdicts = RandomStream(key: RandomStream.streamKey(base: verdictKeyBase, prefixHash: verdictPrefixHash,
                                                                    number: ordinal, separator: 0x2F, suffix: word))
            #if KEYSIM_INTERNAL_CHECKS
            assert(verdicts.key == RandomStream.streamKey(seed: seed, replication: replication,
                                                          name: "\(streamPrefix)cloud.verdict/\(ordinal)/\(word)"))
            #endif
            let u = verdicts.nextDouble()
            let cloudFlags = truth.isError ? u < config.cloud.recall : u < config.cloud.falsePositiveRate
            if let chipID, let chip = chips[chipID], chip.start == start, chip.word == word {
                if cloudFlags {
                    if chip.confirmed == nil {
                        chips[chipID]!.confirmed = engine.now
                        if chip.shown == nil { submit(.draw, context: .drawChip(chip: chipID), tag: Int64(chipID)) }
                        else { scheduleAcceptance(chipID) }
                    }
                } else {
                    closeChip(chipID, outcome: .retracted, into: &sink)
                }
            } else if cloudFlags {
                let id = nextChipID
                nextChipID += 1
                chips[id] = Chip(id: id, ordinal: ordinal, word: word, start: start, fix: truth.fix, origin: .cloud,
                                 trueError: truth.isError, finished: request.sent)
                chipByOrdinal[ordinal] = id
                submit(.draw, context: .drawChip(chip: id), tag: Int64(id))
            }
        }
    }

    // MARK: - Fixes

    private mutating func scheduleAcceptance(_ id: Int) {
        guard config.underlines.acceptanceRate > 0, acceptance.bernoulli(config.underlines.acceptanceRate) else { return }
        engine.schedule(.acceptChip(chip: id), after: config.underlines.acceptanceDelay.sampleDuration(&acceptance))
    }

    private mutating func acceptChip<Sink: ObservationSink>(_ id: Int, into sink: inout Sink) {
        guard let chip = chips[id], chip.open else { return }
        guard let fix = chip.fix else {
            counters.acceptancesWithoutFix += 1
            closeChip(id, outcome: .accepted, into: &sink)
            return
        }
        guard text.hasWord(chip.word, at: chip.start) else {
            sink.record(.fix(FixObservation(underlineID: id, wordOrdinal: chip.ordinal, accepted: engine.now, applied: false,
                                            corrupted: false, strategy: config.underlines.offsets)))
            closeChip(id, outcome: .dropped, into: &sink)
            return
        }
        let outcome = FixApplier.apply(fix, replacing: chip.word, at: chip.start, in: text.text, strategy: config.underlines.offsets)
        text.replaceAll(with: outcome.text)
        sink.record(.fix(FixObservation(underlineID: id, wordOrdinal: chip.ordinal, accepted: engine.now, applied: true,
                                        corrupted: outcome.corrupted, strategy: config.underlines.offsets)))
        closeChip(id, outcome: .accepted, into: &sink)
        if outcome.corrupted { alignmentBroken = true }
        if !outcome.corrupted {
            // Later chips moved with the text: keep them where their words now are.
            let delta = fix.utf8.count - chip.word.utf8.count
            for other in chips.keys.sorted() where chips[other]!.start > chip.start { chips[other]!.start += delta }
        }
        debounceEdit()
    }
}

/// How busy one thread was.
public struct ThreadBusy: Sendable, Equatable {
    /// The thread's name.
    public var name: String
    /// Time it spent running tasks.
    public var busy: SimDuration
}

/// What one replication did, beyond its observations.
public struct ReplicationSummary: Sendable, Equatable {
    /// Simulated time of the last event.
    public var endTime: SimTime
    /// Events the engine processed.
    public var eventsProcessed: Int
    /// Edits replayed (keys, backspaces, pastes, picked suggestions).
    public var edits: Int
    /// Requests sent to the cloud.
    public var requests: Int
    /// Words in the final text.
    public var words: Int
    /// Grapheme clusters in the final text.
    public var characters: Int
    /// Busy time per thread, in configuration order.
    public var threadBusy: [ThreadBusy]
    /// Events worth counting that have no record of their own.
    public var counters: Counters

    /// Counts of events that have no record of their own.
    public struct Counters: Sendable, Equatable {
        /// Local checks that finished after their word was gone.
        public var checksOfVanishedWords = 0
        /// Words flagged again while an earlier chip of theirs was open.
        public var reflaggedWords = 0
        /// `chip.accept` events with no open chip.
        public var acceptancesWithoutChip = 0
        /// Accepted chips that had no fix to apply (no intended text known).
        public var acceptancesWithoutFix = 0
    }
    /// The suggestion bar's quality, when a dictionary was configured.
    public var typingQuality: TypingQuality? = nil
}
