import Sim

extension RunRowWriter {
    /// The columns of `touches`, in insert order.
    static let touchColumns = ["run_id", "key_index", "touch_ns", "prediction_ns", "decided_ns", "ready", "late_ns",
                               "probability", "shift_pt", "predicted_intended", "plain_typo", "shifted_typo"]

    /// Writes the touch model's decisions. Letters are not stored: only whether each touch
    /// was a typo on the drawn and on the shifted layout, and whether the prediction was in time.
    mutating func writeTouches(_ touches: RecordList<TouchObservation>, runID: Int64) throws {
        try touchRows.begin(rows: touches.count)
        for t in touches {
            try touchRows.add(runID)
            try touchRows.add(t.keyIndex)
            try touchRows.add(t.touch.nanoseconds)
            try touchRows.add(t.predictionDone.nanoseconds)
            try touchRows.add(max(t.touch, t.predictionDone).nanoseconds)
            try touchRows.add(t.ready)
            try touchRows.add(t.late.nanoseconds)
            try touchRows.add(t.probability)
            try touchRows.add(t.shiftPoints)
            try touchRows.add(t.predictedIntended)
            try touchRows.add(t.plainTypo)
            try touchRows.add(t.shiftedTypo)
            try touchRows.endRow()
        }
        try touchRows.finish()
    }
}
