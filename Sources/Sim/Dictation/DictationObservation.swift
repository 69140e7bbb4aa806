/// What the dictation model measures. Plain values; no text (transcripts are the user's
/// words and stay out of reports).
public enum DictationObservation: Sendable, Equatable {
    /// One dictation, from the start tap to its text inserted.
    case dictation(DictationRecord)
    /// One session, from the cold start to the mic going off for good.
    case session(DictationSessionRecord)
}

/// One dictation from tap to text.
public struct DictationRecord: Sendable, Equatable {
    /// The dictation's number in the replication, from 0.
    public var id: Int
    /// The session it belonged to.
    public var session: Int
    /// The start tap.
    public var tap: SimTime
    /// Whether the tap had to open the app (no live session).
    public var coldStart: Bool
    /// For a cold start: tap to the user back where they were (app launch + swipe back).
    public var coldStartCost: SimDuration?
    /// When the app started recording this dictation.
    public var recordingStart: SimTime
    /// The earliest audio in the clip: the recording start minus the pre-roll, but not
    /// before the mic came on.
    public var captureStart: SimTime
    /// When speech began and ended (tap + onset, + length).
    public var speechStart: SimTime
    /// When speech ended.
    public var speechEnd: SimTime
    /// Speech lost before the capture start (the clipped first word); zero when not clipped.
    public var clipped: SimDuration
    /// The stop tap.
    public var stopTap: SimTime
    /// When the stop reached the app and the recording ended.
    public var recordingEnd: SimTime
    /// The audio handed to the speech model (capture start to recording end, at most the cap).
    public var clipLength: SimDuration
    /// Speech after the recording cap, lost.
    public var speechLostToCap: SimDuration
    /// The engine that transcribed it.
    public var engine: DictationConfig.SpeechEngine
    /// How long the transcription waited for the model to finish loading.
    public var modelLoadWait: SimDuration
    /// When the transcription was submitted to the engine, started and finished.
    public var transcriptionRelease: SimTime
    /// When the transcription got the engine.
    public var transcriptionStart: SimTime
    /// When the transcription finished.
    public var transcriptionEnd: SimTime
    /// When the keyboard had inserted the text.
    public var textInserted: SimTime
    /// The stop-to-text budget, if any, and whether this dictation exceeded it.
    public var overBudget: Bool

    /// Tap to recording start.
    public var tapToRecording: SimDuration { recordingStart - tap }
    /// Stop tap to text inserted.
    public var stopToText: SimDuration { textInserted - stopTap }
    /// Whether the first word was clipped.
    public var isClipped: Bool { clipped.nanoseconds > 0 }
    /// Time the transcription waited for the engine (another dictation ahead of it).
    public var engineWait: SimDuration { transcriptionStart - transcriptionRelease }
}

/// One session: the app running with the model loaded and, under the seed's policy, the mic
/// on. Ends when the idle timeout fires, when iOS suspends the app, or at the end of the trace.
public struct DictationSessionRecord: Sendable, Equatable {
    /// How a session ended.
    public enum EndReason: String, Sendable, Equatable {
        /// No dictation for the idle timeout: the app turned the mic off.
        case idleTimeout
        /// iOS suspended the app after its audio paused.
        case suspended
        /// The trace ended (see `DictationModel.finish(at:)`).
        case endOfTrace
    }

    /// The session's number, from 0.
    public var id: Int
    /// The cold-start tap that opened it.
    public var start: SimTime
    /// When the app ran and the mic first came on.
    public var micFirstOn: SimTime
    /// When it ended.
    public var end: SimTime
    /// Why it ended.
    public var endReason: EndReason
    /// Total time the mic was on (the orange dot).
    public var micOn: SimDuration
    /// Dictations in the session.
    public var dictations: Int
    /// Total audio recorded for dictations (sum of clip lengths).
    public var dictated: SimDuration
    /// The engine the session used.
    public var engine: DictationConfig.SpeechEngine
    /// How long the model took to load.
    public var modelLoad: SimDuration
    /// The app's peak memory with that engine, in megabytes.
    public var peakMemoryMegabytes: Double
    /// 1 when iOS suspended the app, else 0.
    public var suspensions: Int

    /// Mic-on seconds per dictated second: the privacy and battery price of keeping the mic
    /// on; `nil` when nothing was dictated.
    public var micOnPerDictated: Double? {
        dictated.nanoseconds > 0 ? Double(micOn.nanoseconds) / Double(dictated.nanoseconds) : nil
    }
}
