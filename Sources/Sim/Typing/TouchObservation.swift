/// One touch decided by the touch model: the key meant, the key the drawn layout gives, and
/// the key the layout with the predicted letter's boundaries moved gives.
///
/// Keys are indices into the layer's `TouchGeometry.keys`, never text: reports keep whether
/// a touch was a typo, not which letters the user typed.
public struct TouchObservation: Sendable, Equatable, BitwiseCopyable {
    /// The key event's index among the trace's edits.
    public var keyIndex: Int
    /// Touch-down.
    public var touch: SimTime
    /// The key the user meant (the key event's text, lower-cased).
    public var intendedKey: Int
    /// The key the drawn layout decides.
    public var plainKey: Int
    /// The key decided with the prediction's shift (the plain key when it was late).
    public var shiftedKey: Int
    /// The key of the predicted next symbol (space for the end of a word), when the
    /// predictor had one and it is on the layer.
    public var predictedKey: Int?
    /// The predicted symbol's probability (0 without a prediction).
    public var probability: Double
    /// How far the predicted key's boundaries moved, in points (0 when late).
    public var shiftPoints: Double
    /// When the prediction this touch needed (the one after the previous edit) finished.
    public var predictionDone: SimTime

    /// Whether the prediction was ready at touch-down.
    public var ready: Bool { predictionDone <= touch }
    /// How much too late the prediction came (zero when ready).
    public var late: SimDuration { ready ? .zero : predictionDone - touch }
    /// The drawn layout hits another key than the one meant.
    public var plainTypo: Bool { plainKey != intendedKey }
    /// The shifted layout hits another key than the one meant.
    public var shiftedTypo: Bool { shiftedKey != intendedKey }
    /// The prediction named the key meant.
    public var predictedIntended: Bool { predictedKey == intendedKey }
}
