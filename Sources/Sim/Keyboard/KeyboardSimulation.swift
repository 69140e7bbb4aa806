/// One replication of the keyboard model over one trace: a router over the keyboard's
/// components.
///
/// Keys are tasks on the extension's main thread; an edit lands in the document when its
/// task finishes, and the router tells every component that cares: the suggestion
/// pipeline (lookup, re-rank, draw), the underlines (a finished word goes to the local
/// checker), the cloud client (the debounce before the cloud check), the extension process
/// (caches grow with words), the typing-quality and touch models. The cloud's answers go
/// back to the underlines; a kill resets every component in a fixed order. The router owns
/// the engine, the threads and the text (`KeyboardIO`); each component owns its state.
/// `docs/architecture.md` draws the map; `docs/models.md` describes every parameter.
public struct KeyboardSimulation {
    /// The configuration.
    public let config: KeyboardConfig
    var io: KeyboardIO
    var suggestions: SuggestionPipeline
    var underlines: Underlines
    var cloud: CloudClient
    var process: ExtensionProcess
    var dictation: DictationModel
    private var dictationTimers = DictationTimers()
    /// The suggestion bar's quality model, when a dictionary is configured.
    var quality: SuggestionQuality?
    /// Whether `quality` is set, tested per key for the reason `hasTouchModel` is.
    private let hasQuality: Bool
    /// The touch model, when the scenario turns it on.
    var touch: TouchModel?
    /// Whether `touch` is set. Tested per key instead of the optional itself, which the
    /// compiler copies whole (hundreds of bytes) to look at.
    private let hasTouchModel: Bool
    /// The key budget's limit, if any: every key's deadline.
    private let keyBudget: SimDuration?
    /// Words and characters in the final text of every field before the current one.
    private var earlierFieldsWords = 0
    private var earlierFieldsCharacters = 0

    /// Creates a replication of one trace. Its random streams derive from (seed, replication,
    /// stream name), the name prefixed by `traceKey` (the trace's content hash; the trace
    /// index when nil), so every (replication, trace) pair draws its own numbers, the same
    /// whatever the trace's place in the scenario, and two policies run on the same pair draw
    /// the same ones.
    public init(config: KeyboardConfig, seed: UInt64, replication: Int, trace: Int = 0, traceKey: String? = nil,
                header: TraceHeader? = nil) {
        let trace = traceKey ?? String(trace)
        self.config = config
        keyBudget = config.budget(for: .key)?.limit
        let prefix = "trace\(trace)/"
        func stream(_ name: String) -> RandomStream { RandomStream(seed: seed, replication: replication, name: prefix + name) }
        io = KeyboardIO(config: config, network: NetworkModel(config: config.network, stream: stream), stream: stream)
        io.engine.limits = config.limits
        suggestions = SuggestionPipeline(config: config)
        underlines = Underlines(config: config, intendedText: header?.intendedText, stream: stream)
        cloud = CloudClient(config: config, verdicts: CloudVerdicts(config: config.cloud, seed: seed, replication: replication,
                                                                    streamPrefix: prefix),
                            tokenPrefix: "seed\(seed)/replication\(replication)/\(prefix)", stream: stream)
        process = ExtensionProcess(keyboard: config, header: header, stream: stream)
        dictation = DictationModel(config: config.dictation, seed: seed, replication: replication, streamPrefix: prefix)
        touch = TouchModel(config.touch)
        hasTouchModel = touch != nil
        hasQuality = config.typing.dictionary != nil
        quality = config.typing.dictionary.map {
            SuggestionQuality(dictionary: $0, rerankLift: config.typing.rerankLift, lifts: stream("suggestions.rerank-lift"),
                              intendedText: header?.intendedText)
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
        var reservation: Engine<KeyboardEvent>.Reservation?
        switch try source.next() {
        case .some(let first): upcoming = first; reservation = io.engine.reserve(at: first.time)
        case .none: break
        }
        start(into: &sink)
        while let step = io.engine.next(or: reservation) {
            guard case .event(let event) = step else {
                let traceEvent = upcoming
                // Switched on rather than bound: an optional trace event costs a run-time
                // type look-up to destroy.
                switch try source.next() {
                case .some(let following):
                    precondition(following.time >= traceEvent.time, "trace sources deliver events in time order")
                    upcoming = following
                    reservation = io.engine.reserve(at: following.time)
                case .none:
                    reservation = nil
                }
                try handle(traceEvent, into: &sink)
                try checkQueues()
                if reservation == nil { traceEnded(into: &sink) }
                #if KEYSIM_INTERNAL_CHECKS
                checkInvariants()
                #endif
                continue
            }
            handle(event, into: &sink)
            #if KEYSIM_INTERNAL_CHECKS
            checkInvariants()
            #endif
        }
        if let limit = io.engine.limitReached { throw limit }
        return finish(into: &sink)
    }

    // MARK: - Steps (the run loop and `KeyboardHarness` drive these)

    /// The extension starts.
    mutating func start<Sink: ObservationSink>(into sink: inout Sink) {
        apply(process.start(io: &io, sink: &sink), into: &sink)
    }

    /// The trace is over: a dictation session closes now rather than at its idle timeout.
    mutating func traceEnded<Sink: ObservationSink>(into sink: inout Sink) {
        apply(dictation.finish(at: io.now), into: &sink)
    }

    /// Nothing is left pending: open chips are recorded as such, and the totals.
    mutating func finish<Sink: ObservationSink>(into sink: inout Sink) -> ReplicationSummary {
        sink.record(.extensionLifecycle(.totals(process.totals)))
        underlines.finish(io: &io, sink: &sink)
        precondition(isIdle, "work left behind at the end of the replication")
        return ReplicationSummary(endTime: io.now, eventsProcessed: io.engine.eventsProcessed, edits: io.editsTouched,
                                  requests: cloud.requestsSent, words: earlierFieldsWords + io.text.wordCount,
                                  characters: earlierFieldsCharacters + io.text.count,
                                  threadBusy: io.threads.map { ThreadBusy(name: $0.config.name, busy: $0.busyTime) },
                                  counters: underlines.counters,
                                  typingQuality: quality?.finish(finalText: io.text, keystrokes: io.editsTouched))
    }

    /// Whether every component and the world are idle.
    var isIdle: Bool {
        io.isIdle && suggestions.isIdle && underlines.isIdle && cloud.isIdle && process.isIdle && dictation.isIdle
            && touch?.isIdle != false
    }

    /// Checks every component's invariants (debug builds; the harness calls it after every event).
    func checkInvariants() {
        suggestions.checkInvariants(io: io)
        underlines.checkInvariants(io: io)
        cloud.checkInvariants(io: io)
        process.checkInvariants(io: io)
    }

    // MARK: - Engine events

    /// Hands an engine event to its component.
    mutating func handle<Sink: ObservationSink>(_ event: KeyboardEvent, into sink: inout Sink) {
        switch event {
        case .taskDone(let thread, let wake):
            finishTask(on: thread, wake, into: &sink)
        case .cloud(let cloudEvent):
            if let answered = cloud.handle(cloudEvent, at: io.now, io: &io, sink: &sink) {
                // An answer about a field that is gone finds none of its words.
                let lost = cloud.isCurrent(answered)
                    ? underlines.reconcile(answered.words, sent: answered.sent, verdicts: cloud.verdicts, io: &io, sink: &sink)
                    : answered.words.count
                cloud.recordAnswer(answered, lostWords: lost, io: io, sink: &sink)
            }
        case .underlines(let underlineEvent):
            if underlines.handle(underlineEvent, at: io.now, io: &io, sink: &sink) == .textChanged { fixApplied() }
        case .process(let processEvent):
            apply(process.handle(processEvent, at: io.now, io: &io, sink: &sink), into: &sink)
        case .dictation(let dictationEvent):
            apply(dictation.handle(dictationEvent, at: io.now), into: &sink)
        }
    }

    // MARK: - Trace events

    /// Hands a trace event to the component it concerns.
    mutating func handle<Sink: ObservationSink>(_ event: TraceEvent, into sink: inout Sink) throws {
        switch event.kind {
        case .key, .backspace, .paste, .suggestionPicked:
            let index = io.editsTouched
            io.editsTouched += 1
            let edit = pendingEdit(event.kind)
            if process.holdIfRestarting(index: index, edit: edit, touch: event.time) { return }
            if hasTouchModel { touch!.touched(keyIndex: index, kind: event.kind, at: event.time, into: &sink) }
            submitKey(KeyTask(index: index, edit: edit, touch: event.time, ahead: io.snapshot(io.thread(of: .key))))
        case .network(let condition):
            io.network.force(condition)
            process.networkChanged(condition, io: &io, sink: &sink)
        case .chipAccepted(let wordIndex):
            if underlines.acceptFromTrace(wordIndex: wordIndex, io: &io, sink: &sink) == .textChanged { fixApplied() }
        case .dictationStart(.inline(let onset, let length, let transcript)):
            apply(dictation.tapStart(at: io.now, speech: (onset, length, transcript)), into: &sink)
        case .dictationStart(.wavFile(let path, _)):
            preconditionFailure("WAV audio (\(path)) must be resolved to speech timing before replay")
        case .dictationStop:
            apply(try dictation.tapStop(at: io.now), into: &sink)
        case .languageSwitch(let language):
            apply(process.switchLanguage(language, io: &io, sink: &sink), into: &sink)
        case .cursorMove(let offset):
            let oldCursor = io.text.cursorUTF8
            io.text.moveCursor(byCharacters: offset)
            underlines.cursorMoved(from: oldCursor, touch: event.time, io: &io)
        case .keyboardHidden:
            cloud.keyboardHidden(io: &io, sink: &sink)
        case .keyboardShown:
            break
        case .field(let change):
            // The old field's pending work is settled while its text is still there; then
            // its chips close, and the new field's text replaces it.
            cloud.fieldChanging(io: &io, sink: &sink)
            underlines.fieldChanged(intendedText: change.intendedText, io: &io, sink: &sink)
            if hasQuality { quality!.fieldChanged(finalText: io.text, intendedText: change.intendedText) }
            earlierFieldsWords += io.text.wordCount
            earlierFieldsCharacters += io.text.count
            io.text.replaceAll(with: change.text)
            cloud.fieldChanged(io: &io)
        }
    }

    /// An accepted fix rewrote the text: the words of requests in flight follow, and the debounce hears of it.
    private mutating func fixApplied() {
        cloud.follow(io.text.lastEdit, io: io)
        cloud.edited(io: &io)
    }

    // MARK: - Keys: the router's own work

    private mutating func submitKey(_ key: KeyTask) {
        io.submit(.key, context: .key(key), tag: Int64(key.index), deadline: keyBudget.map { key.touch + $0 })
    }

    /// The edit of a key, paste or picked suggestion, its text put aside until it lands.
    private mutating func pendingEdit(_ kind: TraceEvent.Kind) -> PendingEdit {
        switch kind {
        case .key(let inserted, _, _):
            if inserted.utf8.count == 1, let byte = inserted.utf8.first, byte < 0x80 { return .insertASCII(byte) }
            return .insert(inserted)
        case .backspace: return .delete
        case .paste(let pasted): return .paste(pasted)
        case .suggestionPicked(let word): return .suggestion(word)
        default: preconditionFailure("only edits become key tasks")
        }
    }

    /// Lands an edit in the text; returns the text it inserted (none for a delete, nor for a
    /// typed ASCII character when no touch model will read it).
    private mutating func landEdit(_ edit: PendingEdit) -> String? {
        switch edit {
        case .insertASCII(let byte):
            if !io.text.insertASCII(byte) { io.text.insert(TextBuffer.asciiStrings[Int(byte)]) }
            // Only the touch model reads it: spare every other key the string's retain and release.
            return hasTouchModel ? TextBuffer.asciiStrings[Int(byte)] : nil
        case .insert(let inserted), .paste(let inserted):
            io.text.insert(inserted)
            return inserted
        case .delete:
            io.text.deleteBackward()
            return nil
        case .suggestion(let word):
            io.text.replaceCurrentWord(with: word)
            return word
        }
    }

    /// A task finished: its context goes to the component that submitted it.
    private mutating func finishTask<Sink: ObservationSink>(on thread: Int, _ wake: CoreWake, into sink: inout Sink) {
        guard let (record, next) = io.threads[thread].complete(wake, now: io.now) else { return }
        if let next { io.engine.post(.taskDone(thread: thread, next), at: next.time) }
        sink.recordTask(TaskObservation(thread: thread, record: record))
        switch io.contexts.remove(record.task.context) {
        case .key(let key):
            keyLanded(key, start: record.start, into: &sink)
        case .suggestion(let stage, let job):
            if case .shown(let keyIndex, let inTime) = suggestions.stageFinished(stage, job: job, record: record, io: &io, sink: &sink) {
                process.suggestionShown()
                if hasQuality { quality!.barShown(keyIndex: keyIndex, inTime: inTime) }
            }
        case .check(let check):
            if underlines.checkFinished(check, io: &io) { process.wordChecked() }
        case .predict(let edit, let prediction):
            touch!.predictionFinished(editIndex: edit, prediction: prediction, at: io.now, into: &sink)
        case .drawChip(let id):
            underlines.drawFinished(id, io: &io)
        }
    }

    /// An edit landed: everything it sets off, in a fixed order — the typing-quality model,
    /// the key's record, suggestions, the local check of a finished word, the debounce, the
    /// caches (which may kill the extension), the touch model's next prediction.
    private mutating func keyLanded<Sink: ObservationSink>(_ key: KeyTask, start: SimTime, into sink: inout Sink) {
        let inserted = landEdit(key.edit)
        cloud.follow(io.text.lastEdit, io: io)
        if hasQuality {
            let typed: UInt8? = if case .insertASCII(let byte) = key.edit { byte } else { nil }
            quality!.editLanded(keyIndex: key.index, text: io.text, insertedASCII: typed)
        }
        sink.recordKey(KeyObservation(index: key.index, edit: key.edit.kind, touch: key.touch, start: start,
                                        inserted: io.now, ahead: key.ahead))
        suggestions.edited(keyIndex: key.index, touch: key.touch, io: &io, sink: &sink)
        underlines.edited(key.edit.kind, touch: key.touch, io: &io, sink: &sink)
        cloud.edited(io: &io)
        if io.text.endsToken { apply(process.wordFinished(io: &io, sink: &sink), into: &sink) }
        if hasTouchModel {
            let prediction = touch!.edited(key.edit.kind, inserting: inserted)
            io.submit(.predict, context: .predict(edit: key.index, prediction), tag: Int64(key.index))
        }
    }

    // MARK: - The extension's life

    /// Carries out what the process asks of the others: a kill, or the held keys after a restart.
    private mutating func apply<Sink: ObservationSink>(_ output: ExtensionProcess.Output, into sink: inout Sink) {
        switch output {
        case .none:
            break
        case .overLimit(let footprint):
            kill(footprintMegabytes: footprint, into: &sink)
        case .restarted(let keys):
            for key in keys {
                submitKey(KeyTask(index: key.index, edit: key.edit, touch: key.touch, ahead: io.snapshot(io.thread(of: .key))))
            }
        }
    }

    /// The system kills the extension. Components are reset in a fixed order: every thread
    /// loses its running and queued tasks, each handed to the component that submitted it
    /// (keys are held for the restart, suggestion jobs and checks are lost, touches waiting
    /// for a prediction go to the drawn keys); then the underlines (open chips lost), the
    /// cloud client (requests in flight abandoned, the debounce reset), and the process
    /// (downloads cut short, memory freed), whose cold restart begins.
    private mutating func kill<Sink: ObservationSink>(footprintMegabytes footprint: Double, into sink: inout Sink) {
        var record = process.beginKill(footprintMegabytes: footprint, at: io.now)
        for thread in io.threads.indices {
            for taskRecord in io.threads[thread].reset(now: io.now) {
                record.tasksLost += 1
                sink.recordTask(TaskObservation(thread: thread, record: taskRecord))
                switch io.contexts.remove(taskRecord.task.context) {
                case .key(let key):
                    process.hold(ExtensionProcess.HeldKey(index: key.index, edit: key.edit, touch: key.touch))
                case .suggestion(_, let job):
                    record.suggestionsLost += 1
                    suggestions.lost(job, io: &io, sink: &sink)
                case .check:
                    record.checksLost += 1
                    underlines.lostCheck()
                case .predict(let edit, _):
                    touch?.predictionFinished(editIndex: edit, prediction: nil, at: io.now, into: &sink)
                case .drawChip:
                    underlines.lostDraw()
                }
            }
        }
        record.chipsLost = underlines.reset(reason: .kill, io: &io, sink: &sink)
        record.requestsAbandoned = cloud.reset(reason: .kill, io: &io, sink: &sink)
        process.killed(record, io: &io, sink: &sink)
    }

    // MARK: - Dictation

    /// Carries out the dictation model's actions: timers and events on this engine, text
    /// into the document (an edit like any other), records to the sink.
    private mutating func apply<Sink: ObservationSink>(_ actions: [DictationAction], into sink: inout Sink) {
        let outputs = DictationModel.perform(actions, in: &io.engine, timers: &dictationTimers, wrap: KeyboardEvent.dictation)
        for output in outputs {
            switch output {
            case .insertText(let text, _):
                guard let text, !text.isEmpty else { continue }
                io.text.insert(text)
                cloud.follow(io.text.lastEdit, io: io)
                underlines.edited(.insert, touch: io.now, io: &io, sink: &sink)
                cloud.edited(io: &io)
            case .record(let observation):
                sink.record(.dictation(observation))
            default:
                break
            }
        }
    }
}
