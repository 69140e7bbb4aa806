import Sim

extension RunRowWriter {
    /// Writes one `words` row per word of the intended text the run reached (nothing when
    /// the run did not measure typing quality), through a multi-row insert: a run has a row
    /// per word, and single-row inserts would cost several times the rest of its rows.
    mutating func writeWords(_ quality: TypingQuality?, runID: Int64) throws {
        guard let quality, !quality.words.isEmpty else { return }
        let c = ReportTables.words
        try wordRows.begin(rows: quality.words.count)
        for w in quality.words {
            try wordRows.set(c.runID, runID)
            try wordRows.set(c.wordOrdinal, w.ordinal)
            try wordRows.set(c.intendedLength, w.intendedLength)
            try wordRows.set(c.keystrokes, w.keystrokes)
            try wordRows.set(c.firstInBarPrefix, w.firstInBarPrefix.map(Int64.init))
            try wordRows.set(c.firstInBarInTimePrefix, w.firstInBarInTimePrefix.map(Int64.init))
            try wordRows.set(c.inDictionary, w.inDictionary)
            try wordRows.set(c.keystrokesSaved, w.keystrokesSaved)
            try wordRows.set(c.keystrokesSavedInTime, w.keystrokesSavedInTime)
            try wordRows.endRow()
        }
        try wordRows.finish()
    }
}
