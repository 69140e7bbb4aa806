/// A session's door to a backend that runs outside its simulation (a fleet's
/// `SharedBackend`): the attempts and abandonments the session hands it wait in `outbox`
/// for whatever runs the backend, and the backend's replies wait in `inbox`, each at the
/// session's time it is due, until the session's router wakes the port then.
public struct SessionPort: CloudBackend {
    /// What a session tells the backend.
    public enum Message: Sendable, Equatable {
        /// An attempt that arrives at the backend at `arrival` (the session's time).
        case submit(BackendRequest, arrival: SimTime)
        /// The client gave up an attempt at `time` (the session's time).
        case abandon(BackendAttemptID, at: SimTime)
    }

    /// Messages not yet taken, in the order the session sent them.
    public var outbox: [Message] = []
    /// Replies not yet delivered, each with the session's time it is due, in time order.
    public private(set) var inbox: [(time: SimTime, reply: BackendReply)] = []
    private var inboxHead = 0

    /// Creates an empty port.
    public init() {}

    public mutating func submit(_ request: BackendRequest, arrivingAt arrival: SimTime) -> BackendReceipt {
        outbox.append(.submit(request, arrival: arrival))
        return .later
    }

    public mutating func abandon(_ attempt: BackendAttemptID, at now: SimTime) {
        outbox.append(.abandon(attempt, at: now))
    }

    /// Queues a reply due at `time` (the session's time, no earlier than the last one queued).
    public mutating func post(_ reply: BackendReply, at time: SimTime) {
        precondition(inboxHead == inbox.count || inbox[inbox.count - 1].time <= time, "replies are posted in time order")
        inbox.append((time, reply))
    }

    /// Takes the messages sent so far.
    public mutating func takeOutbox() -> [Message] {
        defer { outbox.removeAll(keepingCapacity: true) }
        return outbox
    }

    public var nextWake: SimTime? { inboxHead < inbox.count ? inbox[inboxHead].time : nil }

    public mutating func wake(at now: SimTime) -> [BackendReply] {
        var due: [BackendReply] = []
        while inboxHead < inbox.count, inbox[inboxHead].time <= now {
            due.append(inbox[inboxHead].reply)
            inboxHead += 1
        }
        if inboxHead == inbox.count {
            inbox.removeAll(keepingCapacity: true)
            inboxHead = 0
        }
        return due
    }

    public var isIdle: Bool { inboxHead == inbox.count && outbox.isEmpty }
}
