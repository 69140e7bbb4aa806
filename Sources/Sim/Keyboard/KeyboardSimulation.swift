/// One replication of the keyboard model over one trace.
///
/// Keys are tasks on the extension's main thread; an edit lands when its task finishes; the
/// debounce policy then arms the timer that sends the changed text to the cloud checker,
/// whose answer comes back after a network round trip and the model's service time.
public struct KeyboardSimulation {
    /// The events of the keyboard model.
    enum Event {
        case trace(TraceEvent)
        case mainThread(CoreWake)
        case debounceFired(RequestTrigger)
        case answer(RequestObservation)
    }

    struct PendingEdit {
        var index: Int
        var kind: TraceEvent.Kind
        var touch: SimTime
    }

    /// The configuration.
    public let config: KeyboardConfig
    private var engine = Engine<Event>()
    private var mainThread: Executor
    private var keyCosts: RandomStream
    private var networkTimes: RandomStream
    private var cloudTimes: RandomStream
    private var text = TextBuffer()
    private var debounce = SimTimer()
    private var pending: [UInt64: PendingEdit] = [:]
    private var nextTaskID: UInt64 = 0
    private var editCount = 0
    private var requestCount = 0
    private var lastRequestedVersion = 0

    /// Creates a replication of one trace. Its random streams derive from (seed, replication,
    /// stream name), the name prefixed by the trace index, so every (replication, trace) pair
    /// draws its own numbers and two policies run on the same pair draw the same ones.
    public init(config: KeyboardConfig, seed: UInt64, replication: Int, trace: Int = 0) {
        self.config = config
        mainThread = Executor(config.mainThread)
        func stream(_ name: String) -> RandomStream {
            RandomStream(seed: seed, replication: replication, name: "trace\(trace)/\(name)")
        }
        keyCosts = stream(KeyboardStream.keyHandling)
        networkTimes = stream(KeyboardStream.network)
        cloudTimes = stream(KeyboardStream.cloud)
    }

    /// Replays the trace to the end and until nothing is left pending, sending every
    /// observation to `sink`. Throws only what the trace source throws.
    public mutating func run<Source: TraceEventSource, Sink: ObservationSink>(
        _ source: inout Source, into sink: inout Sink
    ) throws -> ReplicationSummary {
        if let first = try source.next() { engine.schedule(.trace(first), at: first.time) }
        while let event = engine.next() {
            switch event {
            case .trace(let traceEvent):
                // Only the next trace event is ever pending: memory stays flat for any trace length.
                if let following = try source.next() {
                    precondition(following.time >= traceEvent.time, "trace sources deliver events in time order")
                    engine.schedule(.trace(following), at: following.time)
                }
                handle(traceEvent)
            case .mainThread(let wake):
                finishTask(wake, into: &sink)
            case .debounceFired(let trigger):
                sendRequestIfChanged(trigger)
            case .answer(let request):
                sink.record(.request(request))
            }
        }
        precondition(mainThread.isIdle && pending.isEmpty, "work left behind at the end of the replication")
        return ReplicationSummary(endTime: engine.now, eventsProcessed: engine.eventsProcessed, edits: editCount,
                                  requests: requestCount, words: text.wordCount, characters: text.count,
                                  mainThreadBusy: mainThread.busyTime)
    }

    private mutating func handle(_ event: TraceEvent) {
        switch event.kind {
        case .key, .backspace, .paste, .suggestionPicked:
            let id = nextTaskID
            nextTaskID += 1
            pending[id] = PendingEdit(index: editCount, kind: event.kind, touch: event.time)
            editCount += 1
            let task = ExecutorTask(id: id, kind: KeyboardTaskKind.keyHandling.rawValue, tag: Int64(editCount - 1),
                                    deadline: event.time + config.keyLatencyBudget,
                                    cost: config.keyHandlingCost.sampleDuration(&keyCosts))
            if let wake = mainThread.submit(task, now: engine.now) {
                engine.schedule(.mainThread(wake), at: wake.time)
            }
        case .cursorMove, .keyboardShown, .keyboardHidden, .languageSwitch, .network,
             .dictationStart, .dictationStop, .chipAccepted:
            // Not part of the typing path modelled here.
            break
        }
    }

    private mutating func finishTask<Sink: ObservationSink>(_ wake: CoreWake, into sink: inout Sink) {
        guard let (record, next) = mainThread.complete(wake, now: engine.now) else { return }
        if let next { engine.schedule(.mainThread(next), at: next.time) }
        sink.record(.task(TaskObservation(executor: mainThread.config.name, record: record)))
        guard let edit = pending.removeValue(forKey: record.task.id) else { return }
        let editKind: EditKind
        switch edit.kind {
        case .key(let inserted, _, _): text.insert(inserted); editKind = .insert
        case .backspace: text.deleteBackward(); editKind = .delete
        case .paste(let pasted): text.insert(pasted); editKind = .paste
        case .suggestionPicked(let word): text.replaceCurrentWord(with: word); editKind = .suggestion
        default: preconditionFailure("only edits become key tasks")
        }
        sink.record(.key(KeyObservation(index: edit.index, edit: editKind, touch: edit.touch,
                                        start: record.start, inserted: engine.now)))
        let (delay, trigger) = config.debounce.delay(afterEditEndingSentence: text.endsSentence)
        debounce.arm(.debounceFired(trigger), at: engine.now + delay, in: &engine)
    }

    private mutating func sendRequestIfChanged(_ trigger: RequestTrigger) {
        guard text.version != lastRequestedVersion else { return }
        lastRequestedVersion = text.version
        let network = config.networkRoundTrip.sampleDuration(&networkTimes)
        let service = config.cloudService.sampleDuration(&cloudTimes)
        let request = RequestObservation(id: requestCount, trigger: trigger, sent: engine.now, textVersion: text.version,
                                         characters: text.dirtyCount, networkRoundTrip: network, service: service,
                                         answered: engine.now + network + service, outcome: .answered)
        requestCount += 1
        text.markClean()
        engine.schedule(.answer(request), at: request.answered)
    }
}

/// The kinds of keyboard work, as executor task kinds.
public enum KeyboardTaskKind: UInt16, Sendable, CaseIterable {
    /// Handling a key on the main thread.
    case keyHandling = 1

    /// The name used in reports.
    public var name: String {
        switch self {
        case .keyHandling: "key"
        }
    }
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
    /// Time the main thread spent busy.
    public var mainThreadBusy: SimDuration
}
