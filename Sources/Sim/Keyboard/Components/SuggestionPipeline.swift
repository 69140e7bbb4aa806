/// The suggestion bar: after every landed edit a job goes through dictionary lookup,
/// re-ranking by the local model and drawing the bar, each a task on its thread. Jobs for
/// text that a newer edit replaced are coalesced: queued stages are cancelled and a job that
/// finds its text changed stops, both recorded as superseded.
struct SuggestionPipeline: KeyboardComponent {
    /// The pipeline has no events of its own: its work comes back as task completions.
    enum Event {}

    /// A suggestion job on its way through the stages.
    struct Job {
        var keyIndex: Int
        var version: Int
        var touch: SimTime
        var waited: SimDuration
        var ran: SimDuration
    }

    /// What a finished stage tells the router.
    enum Output {
        /// Nothing for anyone else.
        case none
        /// The bar was drawn for the edit `keyIndex`, in time (before a later key was touched) or not.
        case shown(keyIndex: Int, inTime: Bool)
    }

    /// Drop queued jobs for older text when a newer edit lands.
    let coalescesStale: Bool
    /// Jobs submitted and not yet shown, superseded or lost.
    private(set) var jobsInFlight = 0

    init(config: __shared KeyboardConfig) {
        coalescesStale = config.coalesceStaleSuggestions
    }

    func handle<Sink: ObservationSink>(_ event: Event, at now: SimTime, io: inout KeyboardIO, sink: inout Sink) -> Output {}

    /// An edit landed: older queued jobs are superseded, and a job for the new text starts.
    mutating func edited<Sink: ObservationSink>(keyIndex: Int, touch: SimTime, io: inout KeyboardIO, sink: inout Sink) {
        if coalescesStale {
            cancelStale(.lookup, io: &io, sink: &sink)
            cancelStale(.rerank, io: &io, sink: &sink)
        }
        let job = Job(keyIndex: keyIndex, version: io.text.version, touch: touch, waited: .zero, ran: .zero)
        jobsInFlight += 1
        io.submit(.lookup, context: .suggestion(stage: .lookup, job), tag: Int64(io.text.version))
    }

    /// A stage finished: the job goes on to the next stage, or the bar is shown.
    mutating func stageFinished<Sink: ObservationSink>(_ stage: KeyboardWork, job: Job, record: TaskRecord,
                                                       io: inout KeyboardIO, sink: inout Sink) -> Output {
        var job = job
        job.waited = job.waited + record.waitTime
        job.ran = job.ran + (record.finish - record.start)
        if coalescesStale && job.version != io.text.version {
            self.record(job, outcome: .superseded, io: &io, sink: &sink)
            return .none
        }
        switch stage {
        case .lookup: io.submit(.rerank, context: .suggestion(stage: .rerank, job), tag: Int64(job.version))
        case .rerank: io.submit(.draw, context: .suggestion(stage: .draw, job), tag: Int64(job.version))
        default:
            // A bar shown after a later key was touched served no one: too late to use.
            let tooLate = io.editsTouched - 1 > job.keyIndex
            self.record(job, outcome: .shown, tooLate: tooLate, io: &io, sink: &sink)
            return .shown(keyIndex: job.keyIndex, inTime: !tooLate)
        }
        return .none
    }

    /// A job's task was lost with the process.
    mutating func lost<Sink: ObservationSink>(_ job: Job, io: inout KeyboardIO, sink: inout Sink) {
        record(job, outcome: .killed, io: &io, sink: &sink)
    }

    /// Lost jobs come back through `lost(_:io:sink:)` as the threads are reset: nothing else is held.
    mutating func reset<Sink: ObservationSink>(reason: ResetReason, io: inout KeyboardIO, sink: inout Sink) -> Int { 0 }

    var isIdle: Bool { jobsInFlight == 0 }

    func checkInvariants(io: KeyboardIO) {
        precondition(jobsInFlight >= 0, "suggestion jobs in flight never go negative")
    }

    /// Cancels the queued work of `kind` (lookup or re-rank) for text older than now.
    private mutating func cancelStale<Sink: ObservationSink>(_ kind: KeyboardWork, io: inout KeyboardIO, sink: inout Sink) {
        let thread = io.thread(of: kind)
        // Usually nothing waits: skip the search (and the array it returns).
        if io.threads[thread].readyCount == 0 { return }
        let version = Int64(io.text.version)
        let cancelled = io.threads[thread].cancelQueued(now: io.now) { $0.kind == kind.code && $0.tag < version }
        for taskRecord in cancelled {
            sink.recordTask(TaskObservation(thread: thread, record: taskRecord))
            if case .suggestion(_, let job) = io.contexts.remove(taskRecord.task.context) {
                record(job, outcome: .superseded, io: &io, sink: &sink)
            }
        }
    }

    private mutating func record<Sink: ObservationSink>(_ job: Job, outcome: SuggestionOutcome, tooLate: Bool = false,
                                                        io: inout KeyboardIO, sink: inout Sink) {
        jobsInFlight -= 1
        sink.recordSuggestion(SuggestionObservation(keyIndex: job.keyIndex, textVersion: job.version, touch: job.touch,
                                                      end: io.now, outcome: outcome, tooLate: tooLate,
                                                      waited: job.waited, ran: job.ran))
    }
}
