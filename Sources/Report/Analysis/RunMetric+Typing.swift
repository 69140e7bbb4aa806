extension RunMetric {
    /// Keystroke savings: the share of the run's keystrokes a user saves by picking words
    /// from the suggestion bar (`docs/models.md`, "Typing quality"). Higher is better.
    public static let keystrokeSavings = RunMetric(
        name: "keystroke_savings", label: "keystroke savings (share)", unit: "share", lowerIsBetter: false,
        description: "Keystrokes saved by picking each word from the first bar holding it, per keystroke replayed.",
        sql: """
        SELECT w.run_id, 1.0 * SUM(w.keystrokes_saved) / r.edits FROM words w JOIN runs r USING (run_id)
        WHERE r.batch_id = :batch AND r.edits > 0 GROUP BY w.run_id
        """)

    /// Keystroke savings counting only bars on screen before the next touch.
    public static let keystrokeSavingsInTime = RunMetric(
        name: "keystroke_savings_in_time", label: "keystroke savings, bars in time (share)", unit: "share", lowerIsBetter: false,
        description: "Keystroke savings counting only suggestion bars shown before the next key's touch.",
        sql: """
        SELECT w.run_id, 1.0 * SUM(w.keystrokes_saved_in_time) / r.edits FROM words w JOIN runs r USING (run_id)
        WHERE r.batch_id = :batch AND r.edits > 0 GROUP BY w.run_id
        """)

    /// Word prediction rate: the share of words the bar held before they were complete.
    public static let wordPredictionRate = RunMetric(
        name: "word_prediction_rate", label: "word prediction rate (share)", unit: "share", lowerIsBetter: false,
        description: "Share of the intended words the suggestion bar held at a prefix shorter than the word.",
        sql: """
        SELECT w.run_id, AVG(w.first_in_bar_prefix IS NOT NULL) FROM words w JOIN runs r USING (run_id)
        WHERE r.batch_id = :batch GROUP BY w.run_id
        """)
}
