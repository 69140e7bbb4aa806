/// What the keyboard's engine schedules: a finished core on a thread, or one component's
/// own event. Every payload is plain data (no strings, no references), so the queue moves
/// events by copying bytes. Trace events are not queued (see `KeyboardSimulation.run`).
enum KeyboardEvent {
    /// A core of thread `thread` finished its task; the router hands the task's context to
    /// the component that submitted it.
    case taskDone(thread: Int, CoreWake)
    /// The cloud client's timers: debounce, attempts, retries, token answers.
    case cloud(CloudClient.Event)
    /// The backend asked to act now (`CloudBackend.nextWake`): a backend that queues.
    case backendWake
    /// The underlines' own events: a user accepting a chip.
    case underlines(Underlines.Event)
    /// The extension process: restarts and downloads.
    case process(ExtensionProcess.Event)
    /// The dictation pipeline.
    case dictation(DictationEvent)
}

/// What a task on one of the extension's threads is doing, so that its completion reaches
/// the component that submitted it. Kept in `KeyboardIO.contexts` while the task runs or
/// waits, and handed back once when it finishes or is lost, with any text it carries: no
/// text is held anywhere else, so none can be left behind.
enum KeyboardTaskContext {
    /// A key's handling (the router's own work): the edit lands when it finishes.
    case key(KeyTask)
    /// A stage of the suggestion pipeline.
    case suggestion(stage: KeyboardWork, SuggestionPipeline.Job)
    /// The local checker looking at a finished word.
    case check(Underlines.WordCheck)
    /// Drawing a chip in the strip above the keys.
    case drawChip(chip: Int)
    /// The touch model's next-letter prediction after an edit.
    case predict(edit: Int, NextLetterPredictor.Prediction?)
}

/// A key, backspace, paste or picked suggestion on its way to the document.
struct KeyTask {
    /// The edit's index among the trace's edits (its key index).
    var index: Int
    /// What it does to the text.
    var edit: PendingEdit
    /// When it was touched.
    var touch: SimTime
    /// What the main thread was busy with when it was touched.
    var ahead: QueueSnapshot
}

/// The edit a key task lands when it finishes. One typed ASCII character is kept as its
/// byte, so that most keys carry no string at all.
enum PendingEdit {
    case insertASCII(UInt8)
    case insert(String)
    case delete
    case paste(String)
    case suggestion(String)

    /// The edit's kind, as recorded.
    var kind: EditKind {
        switch self {
        case .insertASCII, .insert: .insert
        case .delete: .delete
        case .paste: .paste
        case .suggestion: .suggestion
        }
    }
}
