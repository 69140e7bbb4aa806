/// The dictation tables (`docs/dictation.md`): written at the `default` and `full` levels
/// for runs that dictated.
extension ReportTables {
    static let dictations = Dictations()
    static let dictationSessions = DictationSessions()

    /// `dictations`: one row per dictation, start tap to text inserted.
    struct Dictations: ReportTableDeclaration {
        let table: ReportTable
        let runID, dictationID, sessionID, tapNs, recordingStartNs, captureStartNs, speechStartNs, speechEndNs: TableColumn<Int64>
        let clippedNs, stopTapNs, clipLengthNs, speechLostToCapNs, modelLoadWaitNs, engineWaitNs: TableColumn<Int64>
        let transcriptionNs, textInsertedNs, tapToRecordingNs, stopToTextNs: TableColumn<Int64>
        let coldStart: TableColumn<Bool>
        let coldStartCostNs: TableColumn<Int64?>
        let engine: TableColumn<String>

        init() {
            var t = ReportTableBuilder(Self.self, "dictations", rowPer: "dictation")
            runID = t.runID()
            dictationID = t.column("dictation_id")
            sessionID = t.column("session_id")
            tapNs = t.column("tap_ns", "the start tap")
            coldStart = t.column("cold_start", "1 when the tap had to open the app")
            coldStartCostNs = t.column("cold_start_cost_ns", "a cold start's tap to the user back where they were; NULL otherwise")
            recordingStartNs = t.column("recording_start_ns")
            captureStartNs = t.column("capture_start_ns", "the earliest audio in the clip (recording start − pre-roll, not before the mic came on)")
            speechStartNs = t.column("speech_start_ns")
            speechEndNs = t.column("speech_end_ns")
            clippedNs = t.column("clipped_ns", "speech lost before the capture start (the clipped first word)")
            stopTapNs = t.column("stop_tap_ns")
            clipLengthNs = t.column("clip_length_ns", "audio handed to the speech model")
            speechLostToCapNs = t.column("speech_lost_to_cap_ns", "speech after the recording cap, lost")
            engine = t.column("engine", "the engine that transcribed it")
            modelLoadWaitNs = t.column("model_load_wait_ns", "time the transcription waited for the model to load")
            engineWaitNs = t.column("engine_wait_ns", "time the transcription waited for the engine")
            transcriptionNs = t.column("transcription_ns")
            textInsertedNs = t.column("text_inserted_ns")
            tapToRecordingNs = t.column("tap_to_recording_ns")
            stopToTextNs = t.column("stop_to_text_ns")
            table = t.table(primaryKey: [runID, dictationID], withoutRowID: true, retention: .items)
        }
    }

    /// `dictation_sessions`: one row per dictation session.
    struct DictationSessions: ReportTableDeclaration {
        let table: ReportTable
        let runID, sessionID, startNs, micFirstOnNs, endNs, micOnNs, dictations, dictatedNs, modelLoadNs, suspensions: TableColumn<Int64>
        let endReason, engine: TableColumn<String>
        let peakMemoryMB: TableColumn<Double>
        let micOnPerDictated: TableColumn<Double?>

        init() {
            var t = ReportTableBuilder(Self.self, "dictation_sessions", rowPer: "dictation session")
            runID = t.runID()
            sessionID = t.column("session_id")
            startNs = t.column("start_ns", "the cold-start tap that opened it")
            micFirstOnNs = t.column("mic_first_on_ns")
            endNs = t.column("end_ns")
            endReason = t.column("end_reason", "`idleTimeout`, `suspended`, `endOfTrace`")
            micOnNs = t.column("mic_on_ns", "total time the mic was on")
            dictations = t.column("dictations")
            dictatedNs = t.column("dictated_ns", "audio recorded for dictations (sum of clip lengths)")
            engine = t.column("engine")
            modelLoadNs = t.column("model_load_ns")
            peakMemoryMB = t.column("peak_memory_mb", "the app's peak memory with that engine")
            suspensions = t.column("suspensions", "1 when iOS suspended the app")
            micOnPerDictated = t.column("mic_on_per_dictated", "mic-on time per dictated time; NULL when nothing was dictated", unit: "ratio")
            table = t.table(primaryKey: [runID, sessionID], withoutRowID: true, retention: .items)
        }
    }
}
