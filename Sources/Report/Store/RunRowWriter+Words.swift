import Sim

extension RunRowWriter {
    static let wordColumns = ["run_id", "word_ordinal", "intended_length", "keystrokes", "first_in_bar_prefix",
                              "first_in_bar_in_time_prefix", "in_dictionary", "keystrokes_saved", "keystrokes_saved_in_time"]

    /// Writes one `words` row per word of the intended text the run reached (nothing when
    /// the run did not measure typing quality), through a multi-row insert: a run has a row
    /// per word, and single-row inserts would cost several times the rest of its rows.
    mutating func writeWords(_ quality: TypingQuality?, runID: Int64) throws {
        guard let quality, !quality.words.isEmpty else { return }
        try wordRows.begin(rows: quality.words.count)
        for w in quality.words {
            try wordRows.add(runID)
            try wordRows.add(w.ordinal)
            try wordRows.add(w.intendedLength)
            try wordRows.add(w.keystrokes)
            try wordRows.add(w.firstInBarPrefix.map(Int64.init))
            try wordRows.add(w.firstInBarInTimePrefix.map(Int64.init))
            try wordRows.add(w.inDictionary)
            try wordRows.add(w.keystrokesSaved)
            try wordRows.add(w.keystrokesSavedInTime)
            try wordRows.endRow()
        }
        try wordRows.finish()
    }
}
