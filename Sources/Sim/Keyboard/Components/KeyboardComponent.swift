/// One part of the keyboard model: a value that owns its state, reacts to its own events,
/// and reaches the world only through `KeyboardIO` (schedule an event, submit work to a
/// thread, read and edit the document) and the observation sink, never through another
/// component's fields. `KeyboardSimulation` is the router that hands each event to its
/// component; `docs/architecture.md` draws the map.
///
/// The protocol states the shape every component shares; calls go to the concrete stored
/// components (static dispatch), never through an existential.
protocol KeyboardComponent {
    /// The component's own events, wrapped in one case of `KeyboardEvent`.
    associatedtype Event
    /// What handling an event tells the router (another component may have to act on it).
    associatedtype Output

    /// Reacts to one of the component's events at `now`.
    mutating func handle<Sink: ObservationSink>(_ event: Event, at now: SimTime, io: inout KeyboardIO,
                                                sink: inout Sink) -> Output
    /// Returns the component to the state of a freshly started process, recording what was
    /// lost; returns how many items (chips, requests, downloads…) were lost.
    mutating func reset<Sink: ObservationSink>(reason: ResetReason, io: inout KeyboardIO, sink: inout Sink) -> Int
    /// Whether nothing of the component is pending: the replication may end.
    var isIdle: Bool { get }
    /// Traps if the component's state breaks one of its invariants. Compiled into debug
    /// builds (`KEYSIM_INTERNAL_CHECKS`); the keyboard harness calls it after every event.
    func checkInvariants(io: KeyboardIO)
}

/// Why components are reset.
enum ResetReason {
    /// The system killed the extension over its memory limit. Components are reset in a
    /// fixed order: lost thread work (to the component that submitted it), underlines,
    /// the cloud client, the extension process.
    case kill
}
