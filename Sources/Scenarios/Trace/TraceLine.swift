import Sim

/// One decoded line of a trace after its header.
public enum TraceLine: Sendable, Equatable {
    /// A user action or condition change, replayed by the models.
    case event(TraceEvent)
    /// A measured duration, ignored by replays.
    case measurement(TraceMeasurement)

    /// The line's time.
    public var time: SimTime {
        switch self {
        case .event(let event): event.time
        case .measurement(let measurement): measurement.time
        }
    }
}
