/// Typing quality and touch boundaries (`docs/models.md`): written at the `default` and
/// `full` levels for runs whose scenario measures them.
extension ReportTables {
    static let words = Words()
    static let touches = Touches()

    /// `words`: one row per word of the intended text the run reached.
    struct Words: ReportTableDeclaration {
        let table: ReportTable
        let runID, wordOrdinal, intendedLength, keystrokes, keystrokesSaved, keystrokesSavedInTime: TableColumn<Int64>
        let firstInBarPrefix, firstInBarInTimePrefix: TableColumn<Int64?>
        let inDictionary: TableColumn<Bool>

        init() {
            var t = ReportTableBuilder(Self.self, "words", rowPer: "word of the intended text the run reached (words empty after stripping punctuation are left out)")
            runID = t.runID()
            wordOrdinal = t.column("word_ordinal", "the word's place among the intended words of the trace's fields, from 0")
            intendedLength = t.column("intended_length", "L, characters of the intended word")
            keystrokes = t.column("keystrokes", "edits that left the text inside this word")
            firstInBarPrefix = t.column("first_in_bar_prefix", "p₁: prefix length of the first bar holding the word; NULL if none did")
            firstInBarInTimePrefix = t.column("first_in_bar_in_time_prefix", "p₂: the same over bars shown before the next touch; NULL if none")
            inDictionary = t.column("in_dictionary", "1 when the word is in the dictionary")
            keystrokesSaved = t.column("keystrokes_saved", "max(0, L − p₁ − 1), 0 without p₁")
            keystrokesSavedInTime = t.column("keystrokes_saved_in_time", "max(0, L − p₂ − 1), 0 without p₂")
            table = t.table(primaryKey: [runID, wordOrdinal], withoutRowID: true, retention: .items,
                            note: "Written only for runs whose scenario has a `typing.dictionary`.")
        }
    }

    /// `touches`: one row per touch the touch model decided. Letters are never stored.
    struct Touches: ReportTableDeclaration {
        let table: ReportTable
        let runID, keyIndex, touchNs, predictionNs, decidedNs, lateNs: TableColumn<Int64>
        let ready, predictedIntended, plainTypo, shiftedTypo: TableColumn<Bool>
        let probability, shiftPt: TableColumn<Double>

        init() {
            var t = ReportTableBuilder(Self.self, "touches", rowPer: "touch the touch model decided (`typing.touch`)")
            runID = t.runID()
            keyIndex = t.column("key_index", "the key event's index among its edits")
            touchNs = t.column("touch_ns", "touch-down")
            predictionNs = t.column("prediction_ns", "when the prediction this touch needed (the one after the previous edit) finished")
            decidedNs = t.column("decided_ns", "when the touch was decided: the later of the two (the timeline's `touches` track runs from `touch_ns` to here)")
            ready = t.column("ready", "1 when the prediction finished at or before touch-down")
            lateNs = t.column("late_ns", "`prediction_ns − touch_ns` when late, else 0")
            probability = t.column("probability", "the predicted symbol's probability (0 without one)")
            shiftPt = t.column("shift_pt", "how far the predicted key's boundaries moved (0 when late)")
            predictedIntended = t.column("predicted_intended", "1 when the predicted key is the key meant")
            plainTypo = t.column("plain_typo", "1 when the drawn layout gives another key than the one meant")
            shiftedTypo = t.column("shifted_typo", "1 when the shifted layout gives another key than the one meant")
            table = t.table(primaryKey: [runID, keyIndex], withoutRowID: true, retention: .items,
                            note: "Runs without the touch model have none. Letters are never stored.")
        }
    }
}
