import Sim

extension RunRowWriter {
    /// Writes the touch model's decisions. Letters are not stored: only whether each touch
    /// was a typo on the drawn and on the shifted layout, and whether the prediction was in time.
    mutating func writeTouches(_ touches: RecordList<TouchObservation>, runID: Int64) throws {
        let c = ReportTables.touches
        try touchRows.begin(rows: touches.count)
        for t in touches {
            try touchRows.set(c.runID, runID)
            try touchRows.set(c.keyIndex, t.keyIndex)
            try touchRows.set(c.touchNs, t.touch.nanoseconds)
            try touchRows.set(c.predictionNs, t.predictionDone.nanoseconds)
            try touchRows.set(c.decidedNs, max(t.touch, t.predictionDone).nanoseconds)
            try touchRows.set(c.ready, t.ready)
            try touchRows.set(c.lateNs, t.late.nanoseconds)
            try touchRows.set(c.probability, t.probability)
            try touchRows.set(c.shiftPt, t.shiftPoints)
            try touchRows.set(c.predictedIntended, t.predictedIntended)
            try touchRows.set(c.plainTypo, t.plainTypo)
            try touchRows.set(c.shiftedTypo, t.shiftedTypo)
            try touchRows.endRow()
        }
        try touchRows.finish()
    }
}
