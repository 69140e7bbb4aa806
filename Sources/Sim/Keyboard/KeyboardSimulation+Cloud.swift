// The router between the cloud client and the rest: a request made is dispatched with the
// number of its words the cloud flags (the underlines know which words are errors), and a
// backend's replies reach the client, whether the backend runs inside this simulation or
// outside it.

extension KeyboardSimulation {
    /// Hands every request the client made in this event to the network, each with the
    /// number of its words the cloud flags (its answer's output tokens follow from it).
    /// Called right after every client call that can send, so that the attempts leave at the
    /// instant, and in the order, the requests were made.
    @inline(__always) mutating func dispatchCloudRequests() {
        // Most calls (one per edit) find nothing to dispatch.
        if !cloud.undispatched.isEmpty { dispatchUndispatchedRequests() }
    }

    /// `dispatchCloudRequests()` when there is something to dispatch.
    private mutating func dispatchUndispatchedRequests() {
        for id in cloud.takeUndispatched() {
            let flagged = underlines.cloudFlagCount(cloud.requests[id]!.words, verdicts: cloud.verdicts, io: io)
            cloud.dispatch(id, flaggedWords: flagged, io: &io)
        }
        armBackendWake()
    }

    /// A backend outside this simulation (a shared one that a fleet runs) replies to one of
    /// this session's attempts, at the simulated time now: the reply crosses the network
    /// back to the client.
    public mutating func deliver(_ reply: BackendReply) {
        cloud.received(reply, io: &io)
    }

    /// Runs `body` on the backend this session's requests go to, in place: how whatever runs
    /// a shared backend reaches its per-session port (to take the attempts handed to it, or
    /// to hand it replies); then arms the wake-up the backend asks for.
    public mutating func withBackend<Result>(_ body: (inout any CloudBackend) -> Result) -> Result {
        defer { armBackendWake() }
        return io.withBackend(body)
    }

    /// Whether this session's backend is idle (nothing handed to it waits, no reply is due),
    /// asked of the backend only when the keyboard handed it something, or `withBackend` reached
    /// it, since it last was.
    public mutating func backendIsIdle() -> Bool { io.backendIsIdle() }

    /// The backend inside this simulation asked to act now: its replies go to the client.
    mutating func backendWoke() {
        for reply in io.wakeBackend() { cloud.received(reply, io: &io) }
        armBackendWake()
    }

    /// Arms the wake-up the backend asks for, if any.
    private mutating func armBackendWake() {
        if let wake = io.backend.nextWake {
            backendWake.arm(.backendWake, at: max(wake, io.now), in: &io.engine)
        } else {
            backendWake.cancel(in: &io.engine)
        }
    }
}
