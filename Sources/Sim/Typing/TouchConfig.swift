/// The touch model: which key a touch hits, and how a next-letter prediction moves the
/// boundaries around the predicted key (scenario field `typing.touch`).
///
/// Off by default: the seed keyboard has no touch model, and a scenario turns it on with a
/// dictionary to build the predictor from. `docs/models.md` ("Touch boundaries") describes it.
public struct TouchConfig: Sendable, Equatable {
    /// Whether touches are hit-tested and predictions computed.
    public var enabled = false
    /// The layer the touches are decided on (`KeyboardLayout.named`).
    public var layoutName = "qwerty"
    /// The most a boundary moves towards a neighbour, in points (at full confidence).
    public var maxShiftPoints = 7.0
    /// The predicted probability at which the shift reaches `maxShiftPoints`; below it the
    /// shift is proportional: shift = maxShiftPoints × min(1, probability ÷ this).
    public var fullShiftProbability = 0.5
    /// The next-letter predictor, built from the dictionary; required when enabled.
    public var predictor: NextLetterPredictor?

    /// The default: off.
    public init() {}

    /// The shift for a prediction of probability `p`, in points.
    @inline(__always) public func shiftPoints(probability p: Double) -> Double {
        guard fullShiftProbability > 0 else { return maxShiftPoints }
        return maxShiftPoints * Swift.min(1, p / fullShiftProbability)
    }
}
