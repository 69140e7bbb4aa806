import Sim

/// A duration measured on the device and written into the trace (`"type":"measure"`, see
/// docs/trace-format.md, "Measured costs"): how long one piece of the keyboard's work took.
///
/// Replays skip these lines (the simulation draws its own costs), so a trace with
/// measurements replays exactly like the same trace without them; `keysim calibrate` and a
/// scenario's `{type: "measured"}` distribution read them.
public struct TraceMeasurement: Sendable, Equatable {
    /// The `type` of a measurement line.
    public static let wireName = "measure"
    /// The longest kind name accepted, in UTF-8 bytes.
    public static let kindBytesMax = 256

    /// When the measured work finished, from the start of the trace.
    public var time: SimTime
    /// What was measured: a keysim work kind ("lookup") or a name mapped to one.
    public var kind: String
    /// How long the work took.
    public var duration: SimDuration

    /// Creates a measurement.
    public init(time: SimTime, kind: String, duration: SimDuration) {
        self.time = time
        self.kind = kind
        self.duration = duration
    }
}
