/// How an executor picks the next ready task when a core frees up.
public enum SchedulingDiscipline: String, Sendable, Equatable, CaseIterable {
    /// First come, first served by release time (ties by submission order).
    case fifo
    /// The highest `priority` first; equal priorities in submission order.
    case fixedPriority = "priority"
    /// The earliest absolute deadline first; tasks without a deadline last, in submission order.
    case earliestDeadlineFirst = "edf"
}

/// The configuration of one executor: a thread, a serial queue, or a device such as the
/// Neural Engine.
public struct ExecutorConfig: Sendable, Equatable {
    /// The name used in reports and timelines ("main", "background", "ane").
    public var name: String
    /// How many tasks may run at once.
    public var cores: Int
    /// How the next ready task is picked.
    public var discipline: SchedulingDiscipline
    /// Whether a newly released task that the discipline ranks ahead of a running one takes
    /// its core at once (the preempted task goes back to the ready queue with its remaining cost).
    public var preemptive: Bool

    /// Creates a configuration; `cores` must be at least 1.
    public init(name: String, cores: Int = 1, discipline: SchedulingDiscipline = .fifo, preemptive: Bool = false) {
        precondition(cores >= 1 && cores <= 1024, "an executor has 1...1024 cores")
        self.name = name
        self.cores = cores
        self.discipline = discipline
        self.preemptive = preemptive
    }
}

/// A unit of work submitted to an executor.
public struct ExecutorTask: Sendable, Equatable {
    /// Unique within the replication; assigned by the caller (models count their tasks).
    public var id: UInt64
    /// A model-defined reference (the key index, the text version…).
    public var tag: Int64
    /// Larger runs first under `.fixedPriority`.
    public var priority: Int
    /// The absolute deadline, used by `.earliestDeadlineFirst` and recorded for every discipline.
    public var deadline: SimTime?
    /// The processing time the task needs on a core.
    public var cost: SimDuration
    /// A model's handle for what the task is doing (an index into its own table), so the
    /// completion is matched without hashing.
    public var context: Int32
    /// What kind of work it is, as a model-defined code (for example `KeyboardTaskKind`).
    public var kind: UInt16

    /// Creates a task.
    public init(id: UInt64, kind: UInt16, tag: Int64 = 0, priority: Int = 0, deadline: SimTime? = nil, cost: SimDuration,
                context: Int32 = -1) {
        precondition(cost.nanoseconds >= 0, "a task cannot cost negative time")
        self.id = id
        self.context = context
        self.kind = kind
        self.tag = tag
        self.priority = priority
        self.deadline = deadline
        self.cost = cost
    }
}

/// What happened to one task: the executor's record for reports and timelines.
public struct TaskRecord: Sendable, Equatable {
    /// The task as submitted.
    public var task: ExecutorTask
    /// When it was submitted.
    public var release: SimTime
    /// When it first got a core.
    public var start: SimTime
    /// When it completed (or was cancelled while queued, then `start == finish == cancel time`).
    public var finish: SimTime
    /// The core it finished on (−1 for a task cancelled while queued).
    public var core: Int
    /// How often a more urgent task took its core.
    public var preemptions: Int
    /// Whether it was cancelled before it ran (a stale job coalesced away).
    public var cancelled: Bool

    /// Time from release to finish.
    public var responseTime: SimDuration { finish - release }
    /// Time from release to first start.
    public var waitTime: SimDuration { start - release }
    /// Whether it finished after its deadline.
    public var missedDeadline: Bool { deadline.map { finish > $0 } ?? false }
    /// The deadline it was submitted with.
    public var deadline: SimTime? { task.deadline }
}

/// A request from an executor to be woken when a core's current task completes.
///
/// The model schedules an event at `time` carrying the wake, and hands it back through
/// `Executor.complete(_:now:)`. A wake whose task was preempted meanwhile is stale and is
/// ignored there, which keeps preemption O(1) without cancelling events.
public struct CoreWake: Sendable, Equatable {
    /// The core whose task completes.
    public var core: Int
    /// The core's dispatch generation when the wake was issued.
    public var generation: UInt32
    /// When the task completes if nothing preempts it.
    public var time: SimTime
}
