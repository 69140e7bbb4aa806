/// A session of a fleet: whose, which, and when it starts (fleet time).
public struct FleetSessionPlan: Sendable, Equatable {
    /// The user.
    public var user: Int
    /// The user's session number.
    public var session: Int
    /// When it starts.
    public var start: SimTime
    /// Creates a plan.
    public init(user: Int, session: Int, start: SimTime) {
        self.user = user
        self.session = session
        self.start = start
    }
}

/// A (user, session) pair: how a backend's reply finds its session.
struct FleetSessionKey: Hashable, Sendable {
    var user: Int
    var session: Int
}
