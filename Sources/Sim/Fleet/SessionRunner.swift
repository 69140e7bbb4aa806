/// One keyboard session run an event at a time, so that something outside it (a fleet) can
/// interleave it with other sessions and a shared backend: the run loop of
/// `KeyboardSimulation.run`, turned inside out. Each `step()` handles the session's
/// earliest event, exactly as `run` would; the session's time is its own (zero at its start).
public struct SessionRunner<Source: TraceEventSource, Sink: ObservationSink> {
    /// The simulation.
    public var simulation: KeyboardSimulation
    /// Where its observations go.
    public var sink: Sink
    private var source: Source
    private var upcoming = TraceEvent(time: .zero, kind: .keyboardShown)
    private var reservation: Engine<KeyboardEvent>.Reservation?

    /// Starts `simulation` on the trace `source` (its extension starts at time zero).
    /// Throws what the source throws.
    public init(simulation: consuming KeyboardSimulation, source: consuming Source, sink: consuming Sink) throws {
        self.simulation = simulation
        self.source = source
        self.sink = sink
        if let first = try self.source.next() {
            upcoming = first
            reservation = self.simulation.io.engine.reserve(at: first.time)
        }
        self.simulation.start(into: &self.sink)
    }

    /// The session's time of its next event, if any: the earlier of its engine's next event
    /// and its trace's next event.
    public var nextEventTime: SimTime? {
        let reserved = reservation.map { SimTime(nanoseconds: EventQueue<KeyboardEvent>.time(ofKey: $0.key)) }
        guard let queued = simulation.io.engine.nextEventTime else { return reserved }
        return min(queued, reserved ?? queued)
    }

    /// Whether the trace is over and nothing is pending: the session can finish.
    public var isDone: Bool { reservation == nil && simulation.io.engine.isIdle && simulation.isIdle }

    /// Handles the session's earliest event. Throws what the trace source throws, and a run
    /// limit the engine reached. Inlined into the fleet's loops: as a call, its engine step
    /// copied the event on every step.
    @inline(__always)
    public mutating func step() throws {
        guard let step = simulation.io.engine.next(or: reservation) else {
            if let limit = simulation.io.engine.limitReached { throw limit }
            preconditionFailure("step() with nothing pending")
        }
        switch step {
        case .reserved: try simulation.handleReserved(&source, upcoming: &upcoming, reservation: &reservation, into: &sink)
        case .event(let event):
            simulation.handle(event, into: &sink)
            #if KEYSIM_INTERNAL_CHECKS
            simulation.checkInvariants()
            #endif
        }
    }

    /// Ends the session (`isDone`): the totals, as `run` returns them.
    public mutating func finish() -> ReplicationSummary {
        simulation.finish(into: &sink)
    }
}
