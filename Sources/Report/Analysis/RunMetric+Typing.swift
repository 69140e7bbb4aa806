import Sim

extension RunMetric {
    /// Keystroke savings: the share of the run's keystrokes a user saves by picking words
    /// from the suggestion bar (`docs/models.md`, "Typing quality"). Higher is better.
    public static let keystrokeSavings = RunMetric(
        name: "keystroke_savings", label: "keystroke savings (share)", unit: "share", lowerIsBetter: false,
        description: "Keystrokes saved by picking each word from the first bar holding it, per keystroke replayed."
    ) { run in
        guard let quality = run.summary.typingQuality, !quality.words.isEmpty, run.summary.edits > 0 else { return nil }
        return 1.0 * Double(quality.keystrokesSaved) / Double(run.summary.edits)
    }

    /// Keystroke savings counting only bars on screen before the next touch.
    public static let keystrokeSavingsInTime = RunMetric(
        name: "keystroke_savings_in_time", label: "keystroke savings, bars in time (share)", unit: "share", lowerIsBetter: false,
        description: "Keystroke savings counting only suggestion bars shown before the next key's touch."
    ) { run in
        guard let quality = run.summary.typingQuality, !quality.words.isEmpty, run.summary.edits > 0 else { return nil }
        return 1.0 * Double(quality.keystrokesSavedInTime) / Double(run.summary.edits)
    }

    /// Word prediction rate: the share of words the bar held before they were complete.
    public static let wordPredictionRate = RunMetric(
        name: "word_prediction_rate", label: "word prediction rate (share)", unit: "share", lowerIsBetter: false,
        description: "Share of the intended words the suggestion bar held at a prefix shorter than the word."
    ) { run in
        guard let quality = run.summary.typingQuality, !quality.words.isEmpty else { return nil }
        return share(quality.words.lazy.map { $0.firstInBarPrefix != nil })
    }
}
