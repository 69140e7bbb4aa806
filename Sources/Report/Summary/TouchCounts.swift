import Sim

/// The touch model's figures pooled over runs: typo rates on the drawn and the shifted
/// layout, and how often the prediction came after the touch.
public struct TouchCounts: Sendable, Equatable {
    /// Touches decided.
    public var touches = 0
    /// Touches the drawn layout gives to another key than the one meant.
    public var plainTypos = 0
    /// Touches the shifted layout gives to another key than the one meant.
    public var shiftedTypos = 0
    /// Touches whose prediction finished after touch-down.
    public var late = 0
    /// Total lateness of the late predictions, milliseconds.
    public var lateMs = 0.0
    /// Typos of the drawn layout that the shift fixed.
    public var fixed = 0
    /// Touches right on the drawn layout that the shift turned into typos.
    public var caused = 0

    /// No touches.
    public init() {}

    /// Adds the touches of one run.
    public mutating func add<Touches: Sequence<TouchObservation>>(_ observations: Touches) {
        for t in observations {
            touches += 1
            if t.plainTypo { plainTypos += 1 }
            if t.shiftedTypo { shiftedTypos += 1 }
            if t.plainTypo && !t.shiftedTypo { fixed += 1 }
            if !t.plainTypo && t.shiftedTypo { caused += 1 }
            if !t.ready { late += 1; lateMs += t.late.milliseconds }
        }
    }

    /// The block `keysim run` prints, empty when no touch was decided.
    public func lines() -> String {
        guard touches > 0 else { return "" }
        func percent(_ n: Int) -> String { TextTable.fixed(100 * Double(n) / Double(touches), 2) + "%" }
        let meanLate = late > 0 ? ", \(TextTable.fixed(lateMs / Double(late), 1)) ms late on average" : ""
        return """
        touches      \(touches) decided: typo rate \(percent(plainTypos)) on the drawn layout, \(percent(shiftedTypos)) with the shift (\(fixed) fixed, \(caused) caused); predictions late for \(late) (\(percent(late))\(meanLate))

        """
    }
}
