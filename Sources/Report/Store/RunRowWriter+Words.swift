import Sim

extension RunRowWriter {
    /// Writes one `words` row per word of the intended text the run reached (nothing when
    /// the run did not measure typing quality). Words are few next to keys: a plain
    /// prepared statement, prepared per run (SQLite caches nothing for us, but a run has one).
    func writeWords(_ quality: TypingQuality?, runID: Int64) throws {
        guard let quality, !quality.words.isEmpty else { return }
        let statement = try database.prepare("""
            INSERT INTO words (run_id, word_ordinal, intended_length, keystrokes, first_in_bar_prefix,
                               first_in_bar_in_time_prefix, in_dictionary, keystrokes_saved, keystrokes_saved_in_time)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for w in quality.words {
            try statement.execute([
                .integer(runID), .integer(Int64(w.ordinal)), .integer(Int64(w.intendedLength)), .integer(Int64(w.keystrokes)),
                w.firstInBarPrefix.map { .integer(Int64($0)) } ?? .null,
                w.firstInBarInTimePrefix.map { .integer(Int64($0)) } ?? .null,
                .integer(w.inDictionary ? 1 : 0), .integer(Int64(w.keystrokesSaved)), .integer(Int64(w.keystrokesSavedInTime)),
            ])
        }
    }
}
