/// The host's handles on the model's two re-armable timers.
public struct DictationTimers: Sendable {
    /// The idle-timeout timer.
    public var idle = SimTimer()
    /// The suspension timer.
    public var suspension = SimTimer()
    /// Disarmed timers.
    public init() {}

    /// The timer for `which`.
    public subscript(which: DictationTimer) -> SimTimer {
        get { which == .idle ? idle : suspension }
        set { if which == .idle { idle = newValue } else { suspension = newValue } }
    }
}

extension DictationModel {
    /// Carries out the engine-facing actions (`schedule`, `arm`, `cancel`) on a host's
    /// engine whose events wrap `DictationEvent`s, and returns the others (`insertText`,
    /// `record`) in order for the host to apply.
    ///
    ///     case .dictation(let event):
    ///         let actions = dictation.handle(event, at: engine.now)
    ///         for output in DictationModel.perform(actions, in: &engine, timers: &timers, wrap: Event.dictation) { … }
    public static func perform<Event>(
        _ actions: [DictationAction], in engine: inout Engine<Event>, timers: inout DictationTimers,
        wrap: (DictationEvent) -> Event
    ) -> [DictationAction] {
        var outputs: [DictationAction] = []
        for action in actions {
            switch action {
            case .schedule(let event, let time):
                engine.schedule(wrap(event), at: time)
            case .arm(let which, let event, let time):
                timers[which].arm(wrap(event), at: time, in: &engine)
            case .cancel(let which):
                timers[which].cancel(in: &engine)
            case .insertText, .record:
                outputs.append(action)
            }
        }
        return outputs
    }
}
