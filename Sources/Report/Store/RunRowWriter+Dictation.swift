import Sim

extension RunRowWriter {
    /// Writes one `dictations` row per dictation.
    mutating func writeDictations(_ dictations: [DictationRecord], runID: Int64) throws {
        let c = ReportTables.dictations
        try dictationRows.begin(rows: dictations.count)
        for d in dictations {
            try dictationRows.set(c.runID, runID)
            try dictationRows.set(c.dictationID, d.id)
            try dictationRows.set(c.sessionID, d.session)
            try dictationRows.set(c.tapNs, d.tap.nanoseconds)
            try dictationRows.set(c.coldStart, d.coldStart)
            try dictationRows.set(c.coldStartCostNs, d.coldStartCost?.nanoseconds)
            try dictationRows.set(c.recordingStartNs, d.recordingStart.nanoseconds)
            try dictationRows.set(c.captureStartNs, d.captureStart.nanoseconds)
            try dictationRows.set(c.speechStartNs, d.speechStart.nanoseconds)
            try dictationRows.set(c.speechEndNs, d.speechEnd.nanoseconds)
            try dictationRows.set(c.clippedNs, d.clipped.nanoseconds)
            try dictationRows.set(c.stopTapNs, d.stopTap.nanoseconds)
            try dictationRows.set(c.clipLengthNs, d.clipLength.nanoseconds)
            try dictationRows.set(c.speechLostToCapNs, d.speechLostToCap.nanoseconds)
            try dictationRows.set(c.engine, d.engine.rawValue)
            try dictationRows.set(c.modelLoadWaitNs, d.modelLoadWait.nanoseconds)
            try dictationRows.set(c.engineWaitNs, d.engineWait.nanoseconds)
            try dictationRows.set(c.transcriptionNs, (d.transcriptionEnd - d.transcriptionStart).nanoseconds)
            try dictationRows.set(c.textInsertedNs, d.textInserted.nanoseconds)
            try dictationRows.set(c.tapToRecordingNs, d.tapToRecording.nanoseconds)
            try dictationRows.set(c.stopToTextNs, d.stopToText.nanoseconds)
            try dictationRows.endRow()
        }
        try dictationRows.finish()
    }

    /// Writes one `dictation_sessions` row per session.
    mutating func writeSessions(_ sessions: [DictationSessionRecord], runID: Int64) throws {
        let c = ReportTables.dictationSessions
        try sessionRows.begin(rows: sessions.count)
        for e in sessions {
            try sessionRows.set(c.runID, runID)
            try sessionRows.set(c.sessionID, e.id)
            try sessionRows.set(c.startNs, e.start.nanoseconds)
            try sessionRows.set(c.micFirstOnNs, e.micFirstOn.nanoseconds)
            try sessionRows.set(c.endNs, e.end.nanoseconds)
            try sessionRows.set(c.endReason, e.endReason.rawValue)
            try sessionRows.set(c.micOnNs, e.micOn.nanoseconds)
            try sessionRows.set(c.dictations, e.dictations)
            try sessionRows.set(c.dictatedNs, e.dictated.nanoseconds)
            try sessionRows.set(c.engine, e.engine.rawValue)
            try sessionRows.set(c.modelLoadNs, e.modelLoad.nanoseconds)
            try sessionRows.set(c.peakMemoryMB, e.peakMemoryMegabytes)
            try sessionRows.set(c.suspensions, e.suspensions)
            try sessionRows.set(c.micOnPerDictated, e.micOnPerDictated)
            try sessionRows.endRow()
        }
        try sessionRows.finish()
    }
}
