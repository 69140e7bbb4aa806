/// The dictation pipeline of an iOS keyboard that cannot use the microphone itself: the
/// keyboard signals its container app (a file in the shared App Group folder, then a Darwin
/// notification as the doorbell), the app records and runs the speech model, and the text
/// comes back the same way to be inserted at the cursor. `docs/dictation.md` describes the
/// model and every parameter.
///
/// The model owns no engine. Its host drives it like an executor: it calls `tapStart`,
/// `tapStop` for the trace's dictation taps and `handle` for the events the model asked it
/// to schedule, and carries out the returned actions in order (see `perform(_:in:timers:wrap:)`).
/// At the end of the trace the host calls `finish(at:)`, so that a session's idle timer
/// does not keep the replication running for minutes of silence.
public struct DictationModel: Sendable {
    /// The configuration.
    public let config: DictationConfig

    /// The names of the model's random streams (before the host's prefix).
    public static let streamNames = [
        "dictation.shared-file", "dictation.doorbell", "dictation.app-launch", "dictation.model-load",
        "dictation.swipe-back", "dictation.transcription", "dictation.insert", "dictation.suspend",
    ]

    struct Session: Sendable {
        var id: Int
        var start: SimTime
        var engine: DictationConfig.SpeechEngine
        /// When the user is back in their own app after the cold start.
        var userBack: SimTime
        var launched: SimTime?
        var modelLoad: SimDuration = .zero
        var modelReady: SimTime?
        var micOnSince: SimTime?
        var micOnTotal: SimDuration = .zero
        var dictations = 0
        var dictated: SimDuration = .zero
    }

    struct Dictation: Sendable {
        var id: Int
        var session: Int
        var tap: SimTime
        var coldStartCost: SimDuration?
        var speechStart: SimTime
        var speechEnd: SimTime
        var transcript: String?
        var engine: DictationConfig.SpeechEngine
        var startArrived = false
        var recordingStart: SimTime?
        var captureStart: SimTime = .zero
        var stopTap: SimTime?
        var stopArrived: SimTime?
        var recordingEnd: SimTime?
        var clipLength: SimDuration = .zero
        var lostToCap: SimDuration = .zero
        var awaitingModel = false
        var modelLoadWait: SimDuration = .zero
        var release: SimTime = .zero
        var transcriptionStart: SimTime = .zero
        var transcriptionEnd: SimTime = .zero
    }

    var sharedFileTimes: RandomStream
    var doorbellTimes: RandomStream
    var launchTimes: RandomStream
    var loadTimes: RandomStream
    var swipeTimes: RandomStream
    var transcriptionDraws: RandomStream
    var insertTimes: RandomStream
    var suspendTimes: RandomStream
    /// The speech engines, by `SpeechEngine` (Neural Engine first).
    var devices: [Executor]
    var session: Session?
    /// Dictations from tap to text inserted, in tap order (a handful at most).
    var active: [Dictation] = []
    var nextSessionID = 0
    var nextDictationID = 0
    /// Set by `finish(at:)`: no new timers, and the session closes when the work is done.
    var closingAt: SimTime?

    /// Creates a model with no session. `stream` gives the stream for each of
    /// `streamNames`; hosts usually derive them from (seed, replication, prefix + name).
    /// - Precondition: `config.problems()` is empty.
    public init(config: DictationConfig, stream: (String) -> RandomStream) {
        precondition(config.problems().isEmpty, "invalid dictation config: \(config.problems())")
        self.config = config
        sharedFileTimes = stream("dictation.shared-file")
        doorbellTimes = stream("dictation.doorbell")
        launchTimes = stream("dictation.app-launch")
        loadTimes = stream("dictation.model-load")
        swipeTimes = stream("dictation.swipe-back")
        transcriptionDraws = stream("dictation.transcription")
        insertTimes = stream("dictation.insert")
        suspendTimes = stream("dictation.suspend")
        devices = [ExecutorConfig(name: "neural-engine"), ExecutorConfig(name: "cpu")].map { Executor($0) }
    }

    /// Creates a model whose stream `name` is `RandomStream(seed:replication:name: prefix + name)`
    /// (the keyboard model uses the prefix `trace<i>/`).
    public init(config: DictationConfig, seed: UInt64, replication: Int, streamPrefix: String = "") {
        self.init(config: config) { RandomStream(seed: seed, replication: replication, name: streamPrefix + $0) }
    }

    /// Whether nothing is in flight and no session is open.
    public var isIdle: Bool { active.isEmpty && session == nil && devices.allSatisfy(\.isIdle) }
    /// Whether a session is open (the app runs; under `.keepOn` the mic is on).
    public var hasSession: Bool { session != nil }
    /// Whether a dictation has been started and not yet stopped.
    public var isRecording: Bool { active.contains { $0.stopTap == nil } }
    /// Total time each engine spent transcribing, Neural Engine first.
    public var engineBusy: [SimDuration] { devices.map(\.busyTime) }

    // MARK: - Driving

    /// The mic button tapped to start dictating at `time`; the user's speech starts
    /// `speech.onset` after the tap and lasts `speech.length`. A start while another
    /// dictation records stops that one first, as a stop tap at the same time would.
    /// - Precondition: `finish(at:)` has not been called; `onset` and `length` ≥ 0.
    public mutating func tapStart(
        at time: SimTime, speech: (onset: SimDuration, length: SimDuration, transcript: String?)
    ) -> [DictationAction] {
        precondition(closingAt == nil, "tapStart after finish(at:)")
        precondition(speech.onset.nanoseconds >= 0 && speech.length.nanoseconds >= 0, "speech timing must not be negative")
        var actions: [DictationAction] = []
        if isRecording { actions += try! tapStop(at: time) }
        let id = nextDictationID
        nextDictationID += 1
        var dictation = Dictation(
            id: id, session: 0, tap: time, speechStart: time + speech.onset,
            speechEnd: time + speech.onset + speech.length, transcript: speech.transcript, engine: config.sessionEngine)
        if let current = session {
            // Warm: the tap reserves the session at once (the keyboard writes its message
            // first), so no idle or suspension timer can end it under the dictation.
            actions += [.cancel(.idle), .cancel(.suspension)]
            dictation.session = current.id
            dictation.engine = current.engine
            actions.append(.schedule(.startReachedApp(dictation: id), at: time + signalLatency()))
        } else {
            actions += openApp(for: &dictation, at: time)
        }
        active.append(dictation)
        return actions
    }

    /// The mic button tapped to stop dictating at `time`.
    /// - Throws: `DictationError.stopWithoutStart` when no dictation is recording.
    public mutating func tapStop(at time: SimTime) throws(DictationError) -> [DictationAction] {
        guard let index = active.firstIndex(where: { $0.stopTap == nil }) else {
            throw .stopWithoutStart(at: time)
        }
        active[index].stopTap = time
        return [.schedule(.stopReachedApp(dictation: active[index].id), at: time + signalLatency())]
    }

    /// Handles an event the model scheduled, at its time.
    public mutating func handle(_ event: DictationEvent, at now: SimTime) -> [DictationAction] {
        switch event {
        case .startReachedApp(let id):
            guard let i = index(of: id) else { return [] }
            active[i].startArrived = true
            // An app still launching starts the recording when it runs.
            guard session?.launched != nil else { return [] }
            return beginRecording(at: i, now: now)
        case .stopReachedApp(let id):
            guard let i = index(of: id) else { return [] }
            active[i].stopArrived = now
            guard active[i].recordingStart != nil else { return [] }
            return endRecording(at: i, now: now)
        case .appLaunched(let sessionID):
            return appLaunched(sessionID, now: now)
        case .modelLoaded(let sessionID):
            var actions: [DictationAction] = []
            for i in active.indices where active[i].session == sessionID && active[i].awaitingModel {
                actions += submitTranscription(at: i, now: now)
            }
            return actions
        case .deviceDone(let engine, let wake):
            return deviceDone(engine, wake, now: now)
        case .textReachedKeyboard(let id):
            return [.schedule(.textInserted(dictation: id), at: now + config.insert.sampleDuration(&insertTimes))]
        case .textInserted(let id):
            return textInserted(id, now: now)
        case .idleTimeout(let sessionID):
            guard session?.id == sessionID else { return [] }
            return closeSession(at: now, reason: .idleTimeout)
        case .suspended(let sessionID):
            guard session?.id == sessionID else { return [] }
            return closeSession(at: now, reason: .suspended)
        }
    }

    /// Ends the replication's dictation at the end of the trace (`time`: the last trace
    /// event). Timers are disarmed; the open session closes at `time`, or, when dictations
    /// are still in flight, when the last one's text is inserted. The session's mic-on time
    /// thus runs to the last event or the idle timeout, whichever comes first (the timeout,
    /// had it come first, would already have closed the session).
    /// A dictation still recording (a trace cut off mid-dictation, as a keyboard killed while
    /// dictating leaves it) is stopped at `time`, as a stop tap then would: its text is
    /// transcribed and inserted, and the session closes after it.
    public mutating func finish(at time: SimTime) -> [DictationAction] {
        guard closingAt == nil else { return [] }
        var actions: [DictationAction] = [.cancel(.idle), .cancel(.suspension)]
        if isRecording { actions += try! tapStop(at: time) }
        closingAt = time
        if active.isEmpty, session != nil { actions += closeSession(at: time, reason: .endOfTrace) }
        return actions
    }

    func index(of id: Int) -> Int? { active.firstIndex { $0.id == id } }

    /// One message between keyboard and app: the shared file, then the doorbell.
    mutating func signalLatency() -> SimDuration {
        config.sharedFile.sampleDuration(&sharedFileTimes) + config.doorbell.sampleDuration(&doorbellTimes)
    }
}
