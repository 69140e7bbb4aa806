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
    var dictationTimers = DictationTimers()
    /// The suggestion bar's quality model (the no-op variant without a dictionary).
    var quality: SuggestionQuality
    /// The touch model (the no-op variant unless the scenario turns it on).
    var touch: TouchModel
    /// The key budget's limit, if any: every key's deadline.
    let keyBudget: SimDuration?
    /// The backend's wake-up (`CloudBackend.nextWake`), for a backend that queues.
    var backendWake = SimTimer()
    /// Words and characters in the final text of every field before the current one.
    private var earlierFieldsWords = 0
    private var earlierFieldsCharacters = 0

    /// Creates a replication of one trace. Its random streams derive from (seed, replication,
    /// stream name), the name prefixed by `traceKey` (the trace's content hash; the trace
    /// index when nil), so every (replication, trace) pair draws its own numbers, the same
    /// whatever the trace's place in the scenario, and two policies run on the same pair draw
    /// the same ones. `caches` are the memos of the job running the replication, shared by
    /// all its runs (fresh ones when not given: tests, a single run). Requests go to
    /// `backend`, one user's private backend (`PrivateBackend`) when not given, as user
    /// `user`'s session `session`.
    public init(config: KeyboardConfig, seed: UInt64, replication: Int, trace: Int = 0, traceKey: String? = nil,
                header: TraceHeader? = nil, caches: SimulationCaches = SimulationCaches(), user: Int = 0, session: Int = 0,
                backend: (any CloudBackend)? = nil) {
        self.config = config
        keyBudget = config.budget(for: .key)?.limit
        // Every stream is named `trace<key>/<name>`: the prefix is hashed once, and each
        // name carries the hash on, without the whole name being built (the same keys).
        var names = RandomStream.Prefix(seed: seed, replication: replication).appending("trace")
        names = traceKey.map(names.appending) ?? names.appending(decimal: trace)
        let prefix = names.appending("/")
        let stream = prefix.stream
        // The components' initialisers take the configuration `__shared`: an initialiser
        // takes its arguments owned by default, and each owned copy of a whole keyboard
        // configuration is some hundred retains, then releases.
        io = KeyboardIO(config: config, network: NetworkModel(config: config.network, stream: stream),
                        backend: backend ?? PrivateBackend(config: config.cloud, stream: stream), caches: caches, stream: stream)
        io.engine.limits = config.limits
        suggestions = SuggestionPipeline(config: config)
        underlines = Underlines(config: config, intendedText: header?.intendedText, caches: caches, stream: stream)
        // The device token's prefix is text only when there is a token to name.
        let tokenPrefix = config.token.enabled ? "seed\(seed)/replication\(replication)/trace\(traceKey ?? String(trace))/" : ""
        cloud = CloudClient(config: config, verdicts: CloudVerdicts(config: config.cloud, prefix: prefix),
                            tokenPrefix: tokenPrefix, language: header?.language ?? "en",
                            user: user, session: session, stream: stream)
        process = ExtensionProcess(keyboard: config, header: header, caches: caches, stream: stream)
        dictation = DictationModel(config: config.dictation, stream: stream)
        touch = TouchModel(config.touch)
        quality = SuggestionQuality(dictionary: config.typing.dictionary, rerankLift: config.typing.rerankLift,
                                    lifts: stream("suggestions.rerank-lift"), intendedText: header?.intendedText, caches: caches)
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
                try handleReserved(&source, upcoming: &upcoming, reservation: &reservation, into: &sink)
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

    // MARK: - Steps (the run loop, `SessionRunner` and `KeyboardHarness` drive these)

    /// The trace's reserved event is due: reads the one after it (reserving its place),
    /// then handles it; at the trace's end, closes what the end closes.
    @inline(__always)
    mutating func handleReserved<Source: TraceEventSource, Sink: ObservationSink>(
        _ source: inout Source, upcoming: inout TraceEvent, reservation: inout Engine<KeyboardEvent>.Reservation?,
        into sink: inout Sink
    ) throws {
        let traceEvent = upcoming
        // Switched on rather than bound: an optional trace event costs a run-time type
        // look-up to destroy.
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
    }

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
                                  typingQuality: quality.finish(finalText: io.text, keystrokes: io.editsTouched))
    }

    /// Whether every component and the world are idle.
    var isIdle: Bool {
        io.isIdle && suggestions.isIdle && underlines.isIdle && cloud.isIdle && process.isIdle && dictation.isIdle
            && touch.isIdle && quality.isIdle && io.backend.isIdle
    }

    /// Checks every component's invariants (debug builds; the harness calls it after every event).
    func checkInvariants() {
        suggestions.checkInvariants(io: io)
        underlines.checkInvariants(io: io)
        cloud.checkInvariants(io: io)
        process.checkInvariants(io: io)
        touch.checkInvariants(io: io)
        quality.checkInvariants(io: io)
    }

    // MARK: - Engine events

    /// Hands an engine event to its component.
    mutating func handle<Sink: ObservationSink>(_ event: KeyboardEvent, into sink: inout Sink) {
        switch event {
        case .taskDone(let thread, let wake):
            finishTask(on: thread, wake, into: &sink)
        case .cloud(let cloudEvent):
            let answered = cloud.handle(cloudEvent, at: io.now, io: &io, sink: &sink)
            dispatchCloudRequests()
            if let answered {
                // An answer about a field that is gone finds none of its words.
                let lost = cloud.isCurrent(answered)
                    ? underlines.reconcile(answered.words, sent: answered.sent, verdicts: cloud.verdicts, io: &io, sink: &sink)
                    : answered.words.count
                cloud.recordAnswer(answered, lostWords: lost, io: io, sink: &sink)
            }
        case .backendWake:
            backendWoke()
        case .underlines(let underlineEvent):
            if underlines.handle(underlineEvent, at: io.now, io: &io, sink: &sink) == .textChanged { textEdited(by: .fix, into: &sink) }
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
            touch.touched(keyIndex: index, kind: event.kind, at: event.time, into: &sink)
            submitKey(KeyTask(index: index, edit: edit, touch: event.time, ahead: io.snapshot(io.thread(of: .key))))
        case .network(let condition):
            io.network.force(condition)
            process.networkChanged(condition, io: &io, sink: &sink)
        case .chipAccepted(let wordIndex):
            if underlines.acceptFromTrace(wordIndex: wordIndex, io: &io, sink: &sink) == .textChanged { textEdited(by: .fix, into: &sink) }
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
            dispatchCloudRequests()
        case .keyboardShown:
            cloud.keyboardShown()
        case .field(let change):
            // The old field's pending work is settled while its text is still there; then
            // its chips close, and the new field's text replaces it.
            cloud.fieldChanging(io: &io, sink: &sink)
            dispatchCloudRequests()
            underlines.fieldChanged(intendedText: change.intendedText, io: &io, sink: &sink)
            quality.fieldChanged(finalText: io.text, intendedText: change.intendedText)
            earlierFieldsWords += io.text.wordCount
            earlierFieldsCharacters += io.text.count
            io.text.replaceAll(with: change.text)
            cloud.fieldChanged(io: &io)
        }
    }
}
