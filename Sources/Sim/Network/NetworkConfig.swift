/// The network between the keyboard and the cloud: a two-state (Gilbert–Elliott) channel,
/// the radio's wake-up after an idle period and the connection's set-up. The defaults are
/// keysim's first network (one good state, no radio wake-up, a connection always open);
/// `NetworkPreset` gives measured ones (`docs/models.md`, "Network").
public struct NetworkConfig: Sendable, Equatable {
    /// Round trip in the good state, milliseconds.
    public var goodRoundTrip: Distribution = .lognormal(median: 60, p99: 400)
    /// Share of requests lost in the good state.
    public var goodLoss: Double = 0.002
    /// Round trip in the bad state (a weak signal: seconds, the seed says).
    public var badRoundTrip: Distribution = .lognormal(median: 900, p99: 4000)
    /// Share of requests lost in the bad state.
    public var badLoss: Double = 0.1
    /// Mean stay in the good state, milliseconds; 0 disables switching (always good).
    public var meanGoodMs: Double = 0
    /// Mean stay in the bad state, milliseconds.
    public var meanBadMs: Double = 10_000
    /// Periods with no network, [start, end) in trace time.
    public var offlinePeriods: [Range<SimTime>] = []
    /// Time for a request to fail when there is no network at all.
    public var offlineFailure: SimDuration = .milliseconds(5)
    /// A request with no answer by then is abandoned and retried.
    public var timeout: SimDuration = .milliseconds(5_000)
    /// Attempts per request, the first included (the client's retry policy when the scenario
    /// sets no `cloud.retry`).
    public var maxAttempts: Int = 3
    /// Wait before the first retry; doubled for each later one.
    public var retryBackoff: SimDuration = .milliseconds(500)
    /// The longest wait between retries.
    public var retryBackoffMax: SimDuration = .milliseconds(8_000)
    /// The cellular radio's wake-up after an idle period (none by default).
    public var radio = RadioConfig()
    /// The connection to the cloud: its set-up and how long it is kept open (always open by default).
    public var connection = ConnectionConfig()
    /// The preset the configuration started from, if any (for reports and messages).
    public var preset: NetworkPreset?
    /// Creates the default network.
    public init() {}
}

/// The radio's states as a check request meets them: a radio idle for longer than
/// `idleAfter` must be promoted to its connected state before anything travels (LTE's
/// RRC_IDLE → RRC_CONNECTED), which takes `promotion`.
public struct RadioConfig: Sendable, Equatable {
    /// The promotion delay, milliseconds; `nil` for a radio that never sleeps (Wi-Fi, or
    /// keysim's first network).
    public var promotion: Distribution?
    /// How long the radio stays connected after its last transfer (the tail, or inactivity timer).
    public var idleAfter: SimDuration = .milliseconds(11_576)
    /// Creates a radio that never sleeps.
    public init() {}
    /// Creates a radio with a promotion delay.
    public init(promotion: Distribution?, idleAfter: SimDuration) {
        self.promotion = promotion
        self.idleAfter = idleAfter
    }
}

/// How the client's connection to the cloud is opened and kept.
public struct ConnectionConfig: Sendable, Equatable {
    /// The hand-shake a cold connection makes before the request can go.
    public var setup: ConnectionSetup = .none
    /// An idle connection is closed after this long; a request within it reuses it and
    /// makes no hand-shake.
    public var keepAlive: SimDuration = .milliseconds(75_000)
    /// Creates a connection that is always open.
    public init() {}
    /// Creates a connection with a hand-shake.
    public init(setup: ConnectionSetup, keepAlive: SimDuration) {
        self.setup = setup
        self.keepAlive = keepAlive
    }
}

/// The hand-shake of a new connection, in extra round trips before the request.
public enum ConnectionSetup: String, Sendable, Equatable, CaseIterable {
    /// No hand-shake is modelled: the connection is always open (keysim's first network).
    case none
    /// TCP's hand-shake, then TLS 1.3's: two round trips.
    case tcpTLS13 = "tcp-tls13"
    /// QUIC's combined transport and TLS 1.3 hand-shake: one round trip.
    case quic

    /// The round trips the hand-shake adds.
    public var extraRoundTrips: Int {
        switch self {
        case .none: 0
        case .tcpTLS13: 2
        case .quic: 1
        }
    }
}
