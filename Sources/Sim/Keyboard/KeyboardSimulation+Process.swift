// What the router carries out for the extension process (kills, held keys after a restart)
// and for the dictation pipeline (timers, text into the document).

extension KeyboardSimulation {
    /// Carries out what the process asks of the others: a kill, or the held keys after a restart.
    mutating func apply<Sink: ObservationSink>(_ output: ExtensionProcess.Output, into sink: inout Sink) {
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
                    touch.predictionFinished(editIndex: edit, prediction: nil, at: io.now, into: &sink)
                case .drawChip:
                    underlines.lostDraw()
                }
            }
        }
        record.chipsLost = underlines.reset(reason: .kill, io: &io, sink: &sink)
        record.requestsAbandoned = cloud.reset(reason: .kill, io: &io, sink: &sink)
        process.killed(record, io: &io, sink: &sink)
    }

    /// Carries out the dictation model's actions: timers and events on this engine, text
    /// into the document (an edit like any other), records to the sink.
    mutating func apply<Sink: ObservationSink>(_ actions: [DictationAction], into sink: inout Sink) {
        let outputs = DictationModel.perform(actions, in: &io.engine, timers: &dictationTimers, wrap: KeyboardEvent.dictation)
        for output in outputs {
            switch output {
            case .insertText(let text, _):
                guard let text, !text.isEmpty else { continue }
                io.text.insert(text)
                textEdited(by: .dictation, into: &sink)
            case .record(let observation):
                sink.record(.dictation(observation))
            default:
                break
            }
        }
    }
}
