/// An event the dictation model schedules through its host's engine and gets back through
/// `DictationModel.handle(_:at:)`. Its payloads are model-internal identifiers.
public enum DictationEvent: Sendable, Equatable {
    /// The keyboard's start message reached the app (file + doorbell).
    case startReachedApp(dictation: Int)
    /// The keyboard's stop message reached the app.
    case stopReachedApp(dictation: Int)
    /// The app opened by a cold start runs: the mic turns on and the model starts loading.
    case appLaunched(session: Int)
    /// The session's speech model finished loading.
    case modelLoaded(session: Int)
    /// A speech-engine executor's core finishes its task (the CoreWake protocol).
    case deviceDone(DictationConfig.SpeechEngine, CoreWake)
    /// The transcribed text reached the keyboard.
    case textReachedKeyboard(dictation: Int)
    /// The keyboard finished inserting the text.
    case textInserted(dictation: Int)
    /// The session's idle timeout expired: the mic turns off.
    case idleTimeout(session: Int)
    /// iOS suspended the app after its audio stopped (`.pauseBetweenDictations`).
    case suspended(session: Int)
}

/// The re-armable timers of the dictation model. The host keeps one `SimTimer` per case.
public enum DictationTimer: Int, Sendable, Equatable, CaseIterable {
    /// The session's idle timeout.
    case idle
    /// The suspension of a paused app.
    case suspension
}

/// What the host must do on the model's behalf.
public enum DictationAction: Sendable, Equatable {
    /// Schedule the event at the time (never in the past).
    case schedule(DictationEvent, at: SimTime)
    /// Arm (or re-arm) the timer to fire the event at the time.
    case arm(DictationTimer, DictationEvent, at: SimTime)
    /// Disarm the timer; nothing if it is not armed.
    case cancel(DictationTimer)
    /// Insert the dictated text at the cursor, now. `text` is `nil` when the trace did not
    /// say what was said.
    case insertText(String?, dictation: Int)
    /// Record a measurement.
    case record(DictationObservation)
}

/// An operating error in the dictation input (the trace).
public enum DictationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stop tap with no dictation recording.
    case stopWithoutStart(at: SimTime)

    public var description: String {
        switch self {
        case .stopWithoutStart(let time):
            "dictation.stop at \(time) without a dictation.start before it"
        }
    }
}
