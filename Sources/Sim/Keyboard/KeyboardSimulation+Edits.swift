// The router's own work on the text: keys become tasks on the main thread, their edits land
// in the document when the tasks finish, and every change of the text — a key, dictated
// text, an accepted fix — is fanned out to the components from one place, `textEdited`.

/// Where a change of the text came from.
enum EditSource {
    /// A key, backspace, paste or picked suggestion whose task started at `start` landed.
    case key(KeyTask, start: SimTime)
    /// Dictated text was inserted at the cursor.
    case dictation
    /// The underlines applied an accepted fix (and have already followed it themselves).
    case fix
}

extension KeyboardSimulation {
    /// The text changed (`io.text.lastEdit`): everything the change sets off, in one fixed
    /// order, the same for every source (steps that do not concern a source are skipped):
    ///
    /// 1. the cloud client's view and the words of its requests in flight follow the edit;
    /// 2. a key: typing quality notes its bar, the key's record, the suggestion pipeline
    ///    (older queued jobs superseded, a lookup submitted);
    /// 3. a key or dictated text: the underlines (chips follow, a finished word goes to the
    ///    local checker) — a fix was applied by the underlines, which followed it then;
    /// 4. the debounce (arms its timer or sends; a request sent is dispatched at once,
    ///    `dispatchCloudRequests`);
    /// 5. a key: the caches grow with a finished word (which may kill the extension), and
    ///    the touch model's next prediction starts.
    ///
    /// The order decides the order of records and of events scheduled at one instant, so it
    /// is part of every figure: a new step goes where its component's work must happen.
    mutating func textEdited<Sink: ObservationSink>(by source: EditSource, into sink: inout Sink) {
        cloud.follow(io.text.lastEdit, io: io)
        switch source {
        case .key(let key, let start):
            let typed: UInt8? = if case .insertASCII(let byte) = key.edit { byte } else { nil }
            quality.editLanded(keyIndex: key.index, text: io.text, insertedASCII: typed)
            sink.recordKey(KeyObservation(index: key.index, edit: key.edit.kind, touch: key.touch, start: start,
                                            inserted: io.now, ahead: key.ahead))
            suggestions.edited(keyIndex: key.index, touch: key.touch, io: &io, sink: &sink)
            underlines.edited(key.edit.kind, touch: key.touch, io: &io, sink: &sink)
        case .dictation:
            underlines.edited(.insert, touch: io.now, io: &io, sink: &sink)
        case .fix:
            break
        }
        let picked = if case .key(let key, _) = source, case .suggestion = key.edit { true } else { false }
        let keyIndex: Int? = if case .key(let key, _) = source { key.index } else { nil }
        cloud.edited(picked: picked, keyIndex: keyIndex, io: &io, sink: &sink)
        dispatchCloudRequests()
        guard case .key(let key, _) = source else { return }
        if io.text.endsToken { apply(process.wordFinished(io: &io, sink: &sink), into: &sink) }
        touch.edited(key.edit, keyIndex: key.index, io: &io)
    }

    // MARK: - Keys

    /// A key becomes a task on its thread, due within the key budget.
    mutating func submitKey(_ key: KeyTask) {
        io.submit(.key, context: .key(key), tag: Int64(key.index), deadline: keyBudget.map { key.touch + $0 })
    }

    /// The edit of a key, paste or picked suggestion, its text put aside until it lands.
    func pendingEdit(_ kind: TraceEvent.Kind) -> PendingEdit {
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

    /// Lands a key's edit in the text and fans the change out.
    private mutating func keyLanded<Sink: ObservationSink>(_ key: KeyTask, start: SimTime, into sink: inout Sink) {
        switch key.edit {
        case .insertASCII(let byte):
            if !io.text.insertASCII(byte) { io.text.insert(TextBuffer.asciiStrings[Int(byte)]) }
        case .insert(let inserted), .paste(let inserted):
            io.text.insert(inserted)
        case .delete:
            io.text.deleteBackward()
        case .suggestion(let word):
            io.text.replaceCurrentWord(with: word)
        }
        textEdited(by: .key(key, start: start), into: &sink)
    }

    /// A task finished: its context goes to the component that submitted it.
    mutating func finishTask<Sink: ObservationSink>(on thread: Int, _ wake: CoreWake, into sink: inout Sink) {
        guard let (record, next) = io.threads[thread].complete(wake, now: io.now) else { return }
        if let next { io.engine.post(.taskDone(thread: thread, next), at: next.time) }
        sink.recordTask(TaskObservation(thread: thread, record: record))
        switch io.contexts.remove(record.task.context) {
        case .key(let key):
            keyLanded(key, start: record.start, into: &sink)
        case .suggestion(let stage, let job):
            if case .shown(let keyIndex, let inTime) = suggestions.stageFinished(stage, job: job, record: record, io: &io, sink: &sink) {
                process.suggestionShown()
                quality.barShown(keyIndex: keyIndex, inTime: inTime)
            }
        case .check(let check):
            if underlines.checkFinished(check, io: &io) { process.wordChecked() }
        case .predict(let edit, let prediction):
            touch.predictionFinished(editIndex: edit, prediction: prediction, at: io.now, into: &sink)
        case .drawChip(let id):
            underlines.drawFinished(id, io: &io)
        }
    }
}
