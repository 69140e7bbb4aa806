/// The world the keyboard's components act on, owned by the router (`KeyboardSimulation`):
/// the clock and event queue, the extension's threads and the cost of their work, the
/// document, the network and the cloud's backend. Components reach each other only through
/// what they do here.
struct KeyboardIO {
    /// The clock and the event queue.
    var engine = Engine<KeyboardEvent>()
    /// The extension's threads, in configuration order.
    var threads: [Executor]
    /// The thread each kind of work runs on, by `KeyboardWork.code`.
    let threadOf: [Int]
    private let priorities: [Int]                 // by KeyboardWork.code
    private let costDistributions: [Distribution] // by KeyboardWork.code
    private var costs: [RandomStream]             // by KeyboardWork.code
    /// What each running or queued task is doing, by its context slot. A context (and any
    /// text it carries) leaves the table when its task finishes or is lost.
    var contexts = SlotTable<KeyboardTaskContext>()
    /// The document as the keyboard sees it.
    var text = TextBuffer()
    /// The network behind every transfer: check requests, downloads, token checks.
    var network: NetworkModel
    /// The cloud behind the network: limits, queues, service, billing. Changed only through
    /// the methods below, which keep `backendMayBeBusy`.
    private(set) var backend: any CloudBackend
    /// False only while `backend.isIdle` is known to hold: set whenever the keyboard hands the
    /// backend something, or something outside reaches it (`withBackend`);
    /// cleared by `backendIsIdle()` when it finds the backend idle. A fleet asks after every
    /// step of every session whether its port is idle: this spares most of them the question
    /// through the backend's existential.
    private(set) var backendMayBeBusy = true
    /// Edits touched so far (keys, backspaces, pastes, picked suggestions): the next key's index.
    var editsTouched = 0
    private var nextTaskID: UInt64 = 0

    /// Wires the threads and the per-kind cost streams; `stream` gives a named stream. The
    /// work tables come from `caches` when given (they depend on the configuration only).
    init(config: __shared KeyboardConfig, network: NetworkModel, backend: any CloudBackend, caches: SimulationCaches? = nil,
         stream: (String) -> RandomStream) {
        threads = config.threads.map { Executor($0) }
        let tables = caches?.workTables(for: config) ?? WorkTables(config: config)
        threadOf = tables.threadOf
        priorities = tables.priorities
        costDistributions = tables.costDistributions
        // Slot 0 is no kind's: its stream is never drawn from.
        var costs = Array(repeating: RandomStream(key: 0), count: tables.threadOf.count)
        for kind in KeyboardWork.allCases { costs[Int(kind.code)] = stream(Self.costStreamNames[Int(kind.code)]) }
        self.costs = costs
        self.network = network
        self.backend = backend
    }

    /// The name of each kind's cost stream, `work.<kind>.cost`, by `KeyboardWork.code`: written
    /// once, not for every replication.
    private static let costStreamNames: [String] = {
        var names = Array(repeating: "", count: KeyboardWork.allCases.count + 1)
        for kind in KeyboardWork.allCases { names[Int(kind.code)] = "work.\(kind.rawValue).cost" }
        return names
    }()

    /// The simulated time now.
    var now: SimTime { engine.now }

    /// Hands the backend an attempt arriving at `arrival`.
    mutating func submitToBackend(_ request: BackendRequest, arrivingAt arrival: SimTime) -> BackendReceipt {
        backendMayBeBusy = true
        return backend.submit(request, arrivingAt: arrival)
    }

    /// Tells the backend an attempt was given up at the time now.
    mutating func abandonAtBackend(_ attempt: BackendAttemptID) {
        backendMayBeBusy = true
        backend.abandon(attempt, at: now)
    }

    /// Runs `body` on the backend in place (something outside the keyboard reaching it).
    mutating func withBackend<Result>(_ body: (inout any CloudBackend) -> Result) -> Result {
        backendMayBeBusy = true
        return body(&backend)
    }

    /// The backend's replies due at the time now.
    mutating func wakeBackend() -> [BackendReply] { backend.wake(at: now) }

    /// Whether the backend is idle (`CloudBackend.isIdle`), asked of it only when it may be busy.
    mutating func backendIsIdle() -> Bool {
        guard backendMayBeBusy else { return true }
        guard backend.isIdle else { return false }
        backendMayBeBusy = false
        return true
    }

    /// Submits work of `kind` to its thread; its cost is drawn from the kind's stream. When
    /// it finishes, `context` comes back to the router through `KeyboardEvent.taskDone`.
    mutating func submit(_ kind: KeyboardWork, context: consuming KeyboardTaskContext, tag: Int64, deadline: SimTime? = nil) {
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

    /// Schedules a component's event `delay` from now.
    @discardableResult
    mutating func schedule(_ event: KeyboardEvent, after delay: SimDuration) -> TimerHandle {
        engine.schedule(event, after: delay)
    }

    /// Schedules a component's event at `time`.
    @discardableResult
    mutating func schedule(_ event: KeyboardEvent, at time: SimTime) -> TimerHandle {
        engine.schedule(event, at: time)
    }

    /// What thread `thread` is busy with right now.
    // `mutating` (it changes nothing) so that calls pass `self` by reference: a non-mutating
    // method called from a mutating one gets a copy.
    mutating func snapshot(_ thread: Int) -> QueueSnapshot {
        // Read in place: binding `threads[thread]` to a constant would copy the executor.
        let queued = threads[thread].readyCount
        return QueueSnapshot(running: threads[thread].firstRunningKind ?? 0, queuedAhead: queued,
                             queuedKinds: queued == 0 ? 0 : threads[thread].queuedKindsMask)
    }

    /// The thread that runs `kind`.
    func thread(of kind: KeyboardWork) -> Int { threadOf[Int(kind.code)] }

    /// Whether no thread has work and no task context is left.
    var isIdle: Bool { threads.allSatisfy(\.isIdle) && contexts.isEmpty }
}
