/// Everything a model measures leaves the simulation as one of these typed records.
///
/// Records are plain values; the report layer decides how to store and summarise them.
public enum Observation: Sendable, Equatable {
    /// A key (or backspace, paste, picked suggestion) from touch to text inserted.
    case key(KeyObservation)
    /// A request to the cloud checker and its answer.
    case request(RequestObservation)
    /// A task run (or cancelled) by an executor.
    case task(TaskObservation)
}

/// Receives observations as they happen, in simulated-time order of their completion.
public protocol ObservationSink {
    /// Takes one record.
    mutating func record(_ observation: Observation)
}

/// Collects observations in memory, in arrival order.
public struct ObservationBuffer: ObservationSink, Sendable {
    /// Keys in completion order.
    public var keys: [KeyObservation] = []
    /// Requests in answer order.
    public var requests: [RequestObservation] = []
    /// Tasks in completion order.
    public var tasks: [TaskObservation] = []
    /// Whether to keep task records (they are the bulk of a timeline).
    public var keepsTasks: Bool

    /// Creates an empty buffer.
    public init(keepsTasks: Bool = true) { self.keepsTasks = keepsTasks }

    /// Appends the record to its list.
    public mutating func record(_ observation: Observation) {
        switch observation {
        case .key(let key): keys.append(key)
        case .request(let request): requests.append(request)
        case .task(let task): if keepsTasks { tasks.append(task) }
        }
    }
}

/// The kind of edit a key performed.
public enum EditKind: String, Sendable, Equatable, CaseIterable {
    /// A character key.
    case insert
    /// Backspace.
    case delete
    /// A paste.
    case paste
    /// A suggestion picked from the bar.
    case suggestion
}

/// One key from touch-down to its text landing in the document.
public struct KeyObservation: Sendable, Equatable {
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
    /// Touch to inserted: the figure the 10 ms budget applies to.
    public var latency: SimDuration { inserted - touch }
    /// Time spent waiting for the main thread.
    public var wait: SimDuration { start - touch }
}

/// Why a request was sent.
public enum RequestTrigger: String, Sendable, Equatable, CaseIterable {
    /// The short timer after an edit that left the text ending a sentence.
    case sentenceEnd = "sentence-end"
    /// The long timer after any other edit.
    case idle
    /// A single fixed-delay timer.
    case fixed
}

/// How a request ended.
public enum RequestOutcome: String, Sendable, Equatable, CaseIterable {
    /// The answer arrived.
    case answered
}

/// One request to the cloud checker.
public struct RequestObservation: Sendable, Equatable {
    /// 0-based index among the replication's requests.
    public var id: Int
    /// Which timer sent it.
    public var trigger: RequestTrigger
    /// When it left the keyboard.
    public var sent: SimTime
    /// The text version it carried.
    public var textVersion: Int
    /// Characters sent: the text changed since the last request (the proxy for tokens).
    public var characters: Int
    /// Network round trip.
    public var networkRoundTrip: SimDuration
    /// Time the cloud model took.
    public var service: SimDuration
    /// When the answer arrived (sent + round trip + service).
    public var answered: SimTime
    /// How it ended.
    public var outcome: RequestOutcome
    /// Sent to answered.
    public var roundTrip: SimDuration { answered - sent }
}

/// A task record together with the executor that ran it.
public struct TaskObservation: Sendable, Equatable {
    /// The executor's name ("main", "background"…).
    public var executor: String
    /// What happened to the task.
    public var record: TaskRecord
}
