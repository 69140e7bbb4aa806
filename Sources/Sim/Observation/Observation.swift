/// Everything a model measures leaves the simulation as one of these typed records.
///
/// Records are plain values; the report layer decides how to store and summarise them.
/// Words are never carried as text, only as ordinals and lengths: typed text is the most
/// sensitive data a phone has, and reports must not hold it unless asked.
///
/// The records of every key (keys, suggestions, tasks, touches) are held inline; the rarer,
/// larger ones are boxed (`indirect`), so that the value passed per key stays small.
public enum Observation: Sendable, Equatable {
    /// A key (or backspace, paste, picked suggestion) from touch to text inserted.
    case key(KeyObservation)
    /// The suggestion bar's update for one key.
    case suggestion(SuggestionObservation)
    /// An underline (chip) from its verdict to its end.
    indirect case underline(UnderlineObservation)
    /// A request to the cloud checker and its answer.
    indirect case request(RequestObservation)
    /// A fix applied (or refused) on the user's acceptance of a chip.
    indirect case fix(FixObservation)
    /// A task run (or cancelled) by an executor.
    case task(TaskObservation)
    /// A dictation or a dictation session.
    indirect case dictation(DictationObservation)
    /// A touch decided by the touch model.
    case touch(TouchObservation)
    /// The extension's memory, kills, language files and device token.
    indirect case extensionLifecycle(ExtensionObservation)
    /// An arm, re-arm, cancel or fire of the debounce timer.
    case debounce(DebounceObservation)
}

/// Receives observations as they happen.
public protocol ObservationSink {
    /// Takes one record.
    mutating func record(_ observation: Observation)
    /// Takes a task record: `record(.task(task))` without building the enum, for the records
    /// a replay writes several times per key. The default implementation is that call.
    mutating func recordTask(_ task: TaskObservation)
    /// Takes a key record, as `recordTask(_:)` does.
    mutating func recordKey(_ key: KeyObservation)
    /// Takes a suggestion record, as `recordTask(_:)` does.
    mutating func recordSuggestion(_ suggestion: SuggestionObservation)
    /// Takes a debounce-timer record, as `recordTask(_:)` does (about one per key).
    mutating func recordDebounce(_ event: DebounceObservation)
}

extension ObservationSink {
    public mutating func recordTask(_ task: TaskObservation) { record(.task(task)) }
    public mutating func recordKey(_ key: KeyObservation) { record(.key(key)) }
    public mutating func recordSuggestion(_ suggestion: SuggestionObservation) { record(.suggestion(suggestion)) }
    public mutating func recordDebounce(_ event: DebounceObservation) { record(.debounce(event)) }
}

/// Collects observations in memory, in arrival order.
public struct ObservationBuffer: ObservationSink, Sendable {
    /// Keys in completion order.
    public var keys = RecordList<KeyObservation>()
    /// Suggestion updates.
    public var suggestions = RecordList<SuggestionObservation>()
    /// Underlines, in the order they ended.
    public var underlines: [UnderlineObservation] = []
    /// Requests in the order they ended.
    public var requests: [RequestObservation] = []
    /// Fixes.
    public var fixes: [FixObservation] = []
    /// Tasks in completion order.
    public var tasks = RecordList<TaskObservation>()
    /// Dictations, in the order their text was inserted.
    public var dictations: [DictationRecord] = []
    /// Dictation sessions, in the order they ended.
    public var dictationSessions: [DictationSessionRecord] = []
    /// Touches decided by the touch model, in the order they were decided.
    public var touches = RecordList<TouchObservation>()
    /// The debounce timer's arms, re-arms, cancels and fires, in order (kept with the tasks).
    public var debounceEvents = RecordList<DebounceObservation>()
    /// Whether to keep task and debounce-timer records (they are the bulk of a timeline).
    public var keepsTasks: Bool
    /// Memory, kills, downloads, loads and token rejections.
    public var extensionRecords = ExtensionRecords()

    /// Creates an empty buffer whose record lists take their full chunks from `arena` (the
    /// caller's, shared by the replications it runs one after another), or from the
    /// allocator when nil.
    public init(keepsTasks: Bool = true, arena: RecordArena? = nil) {
        self.keepsTasks = keepsTasks
        keys = RecordList(arena: arena)
        suggestions = RecordList(arena: arena)
        tasks = RecordList(arena: arena)
        touches = RecordList(arena: arena)
        debounceEvents = RecordList(arena: arena)
    }

    @inline(__always) public mutating func recordTask(_ task: TaskObservation) { if keepsTasks { tasks.append(task) } }
    @inline(__always) public mutating func recordKey(_ key: KeyObservation) { keys.append(key) }
    @inline(__always) public mutating func recordSuggestion(_ suggestion: SuggestionObservation) { suggestions.append(suggestion) }
    @inline(__always) public mutating func recordDebounce(_ event: DebounceObservation) { if keepsTasks { debounceEvents.append(event) } }

    /// Appends the record to its list.
    public mutating func record(_ observation: Observation) {
        switch observation {
        case .key(let key): recordKey(key)
        case .suggestion(let suggestion): recordSuggestion(suggestion)
        case .underline(let underline): underlines.append(underline)
        case .request(let request): requests.append(request)
        case .fix(let fix): fixes.append(fix)
        case .task(let task): recordTask(task)
        case .dictation(.dictation(let record)): dictations.append(record)
        case .dictation(.session(let record)): dictationSessions.append(record)
        case .touch(let touch): touches.append(touch)
        case .extensionLifecycle(let record): extensionRecords.record(record)
        case .debounce(let event): recordDebounce(event)
        }
    }
}

/// The kind of edit a key performed.
public enum EditKind: String, Sendable, Equatable, CaseIterable, BitwiseCopyable {
    /// A character key.
    case insert
    /// Backspace.
    case delete
    /// A paste.
    case paste
    /// A suggestion picked from the bar.
    case suggestion
}

/// What stood between a touch and its handler: the executor's state at the touch.
public struct QueueSnapshot: Sendable, Equatable, BitwiseCopyable {
    /// The work kind running on the thread (0: idle), as a `KeyboardWork.code`.
    public var running: UInt16
    /// How many tasks were queued ahead.
    public var queuedAhead: Int
    /// Bit `code` set for every work kind queued ahead.
    public var queuedKinds: UInt32
    /// Nothing in the way.
    public static let idle = QueueSnapshot(running: 0, queuedAhead: 0, queuedKinds: 0)
}

/// One key from touch-down to its text landing in the document.
public struct KeyObservation: Sendable, Equatable, BitwiseCopyable {
    /// 0-based index among the edits of the trace.
    public var index: Int
    /// What the key did.
    public var edit: EditKind
    /// Touch-down.
    public var touch: SimTime
    /// When the key's handler started on the main thread.
    public var start: SimTime
    /// When the text was inserted (the handler finished).
    public var inserted: SimTime
    /// The main thread's state at the touch.
    public var ahead: QueueSnapshot
    /// Touch to inserted: the figure the 10 ms budget applies to.
    public var latency: SimDuration { inserted - touch }
    /// Time spent waiting for the main thread.
    public var wait: SimDuration { start - touch }
}

/// What became of the suggestion bar update a key asked for.
public enum SuggestionOutcome: String, Sendable, Equatable, CaseIterable, BitwiseCopyable {
    /// Shown.
    case shown
    /// Dropped because a newer key made it stale (cancelled while queued, or finished for
    /// text that had already changed).
    case superseded
    /// Lost when the system killed the extension.
    case killed
}

/// The suggestion bar's update for one key.
public struct SuggestionObservation: Sendable, Equatable, BitwiseCopyable {
    /// The key's index.
    public var keyIndex: Int
    /// The text version it was computed for.
    public var textVersion: Int
    /// The key's touch.
    public var touch: SimTime
    /// When the bar showed it (or when it was dropped).
    public var end: SimTime
    /// Shown or superseded.
    public var outcome: SuggestionOutcome
    /// The next key's touch came before the bar showed it: too late to use.
    public var tooLate: Bool
    /// Time spent waiting for threads (lookup, re-rank and draw queues together).
    public var waited: SimDuration
    /// Time spent running (lookup, re-rank and draw together).
    public var ran: SimDuration
    /// Touch to shown.
    public var latency: SimDuration { end - touch }
}

/// Where an underline came from.
public enum UnderlineOrigin: String, Sendable, Equatable, CaseIterable {
    /// The local checker, at once.
    case local
    /// The cloud, found late (the local checker missed it or the keyboard waits for the cloud).
    case cloud
}

/// How an underline ended.
public enum UnderlineOutcome: String, Sendable, Equatable, CaseIterable {
    /// The cloud agreed.
    case confirmed
    /// The cloud disagreed; the underline quietly disappeared.
    case retracted
    /// Its word was no longer where the cloud's answer or an accepted fix expected it: the chip was dropped.
    case dropped
    /// The user edited its word (typed into it, deleted from it, or joined it with another):
    /// the chip closed, and the word is checked again once finished.
    case edited
    /// The text field changed (a message sent, another field): the chip closed with its field.
    case fieldChanged = "field-changed"
    /// The user accepted the fix.
    case accepted
    /// Still showing at the end of the replication.
    case open
    /// Lost when the system killed the extension.
    case killed
}

/// An underline (a chip `current → fix` above the keys) from verdict to end.
public struct UnderlineObservation: Sendable, Equatable {
    /// 0-based id within the replication.
    public var id: Int
    /// The word's ordinal in the text.
    public var wordOrdinal: Int
    /// The word's length in grapheme clusters (its text is not kept).
    public var wordLength: Int
    /// Who found it.
    public var origin: UnderlineOrigin
    /// Whether the word really is an error (from the intended text or the lexicon).
    public var trueError: Bool
    /// When the word was finished (the boundary key's touch).
    public var wordFinished: SimTime
    /// When the chip was drawn, if it was.
    public var shown: SimTime?
    /// When the cloud confirmed it.
    public var confirmed: SimTime?
    /// When it ended.
    public var end: SimTime
    /// How it ended.
    public var outcome: UnderlineOutcome
    /// Retracted within the flicker window of being shown.
    public var flicker: Bool
    /// Word finished to chip drawn, for local underlines (the local checker's speed).
    public var timeToUnderline: SimDuration? {
        guard origin == .local, let shown else { return nil }
        return shown - wordFinished
    }
    /// Word finished to the cloud's verdict (confirmed or retracted), for local underlines
    /// that got one: how long speculation lasted.
    public var timeToVerdict: SimDuration? {
        guard origin == .local else { return nil }
        if let confirmed { return confirmed - wordFinished }
        return outcome == .retracted ? end - wordFinished : nil
    }
    /// Word finished to cloud confirmation, for local underlines the cloud confirmed: how long
    /// a speculative underline stays unconfirmed.
    public var timeToConfirmation: SimDuration? {
        guard origin == .local, let confirmed else { return nil }
        return confirmed - wordFinished
    }
}

/// A fix applied on acceptance of a chip.
public struct FixObservation: Sendable, Equatable {
    /// The underline's id.
    public var underlineID: Int
    /// The word's ordinal.
    public var wordOrdinal: Int
    /// When the user accepted.
    public var accepted: SimTime
    /// Applied, or dropped because the word was not where expected.
    public var applied: Bool
    /// The fix damaged the user's text (wrong offsets).
    public var corrupted: Bool
    /// The offset strategy used.
    public var strategy: OffsetStrategy
}

/// A task run (or cancelled) by an executor: what the timeline and the `tasks` table keep
/// of its `TaskRecord`, packed into 64 bytes (a replay records several per key).
public struct TaskObservation: Sendable, Equatable, BitwiseCopyable {
    /// The task's identifier.
    public var id: UInt64
    /// The task's tag (what it is about: a key index, a text version…).
    public var tag: Int64
    /// When it was released (became ready).
    public var release: SimTime
    /// When it first started running (the cancel time for a task cancelled while queued).
    public var start: SimTime
    /// When it completed (or was cancelled).
    public var finish: SimTime
    private var deadlineNanoseconds: Int64
    /// Its priority.
    public var priority: Int32
    /// Times it was preempted.
    public var preemptions: UInt32
    /// Its kind (`KeyboardWork.code` for keyboard work).
    public var kind: UInt16
    private var threadIndex: UInt16
    private var coreIndex: Int16
    /// Whether it was cancelled while queued.
    public var cancelled: Bool

    /// Keeps what the report needs of `record`, run by the executor at index `thread` of the
    /// model's thread list (`KeyboardConfig.threads`).
    @inline(__always)
    public init(thread: Int, record: TaskRecord) {
        precondition(thread >= 0 && thread <= Int(UInt16.max) && record.core >= Int(Int16.min) && record.core <= Int(Int16.max),
                     "thread and core indexes fit in 16 bits")
        id = record.task.id
        tag = record.task.tag
        release = record.release
        start = record.start
        finish = record.finish
        deadlineNanoseconds = record.task.deadline?.nanoseconds ?? .min
        priority = Int32(clamping: record.task.priority)
        preemptions = UInt32(clamping: record.preemptions)
        kind = record.task.kind
        threadIndex = UInt16(thread)
        coreIndex = Int16(record.core)
        cancelled = record.cancelled
    }

    /// The executor's index in the model's thread list (`KeyboardConfig.threads`).
    public var thread: Int { Int(threadIndex) }
    /// The core it ran on (-1 for a task cancelled before it ran).
    public var core: Int { Int(coreIndex) }
    /// Its deadline, if it had one.
    public var deadline: SimTime? { deadlineNanoseconds == .min ? nil : SimTime(nanoseconds: deadlineNanoseconds) }
}
