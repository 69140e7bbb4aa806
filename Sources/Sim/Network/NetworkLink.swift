/// The radio and the connection a check request goes over: whether the radio must be
/// woken and the connection opened before the request can travel (`docs/models.md`,
/// "Radio and connection").
///
/// Both follow the check requests only: the end of the last exchange keeps the radio
/// connected for `radio.idleAfter` and the connection open for `connection.keepAlive`. A
/// request after either has passed pays the promotion (stream `network.promotion`) and the
/// hand-shake's round trips (stream `network.setup`). With neither configured (keysim's
/// first network) nothing is drawn and nothing is added.
struct NetworkLink {
    let radio: RadioConfig
    let connection: ConnectionConfig
    private var promotions: RandomStream
    private var setups: RandomStream
    /// The end of the last exchange, `nil` before the first one.
    private var radioUsedUntil: SimTime?
    private var connectionUsedUntil: SimTime?

    init(radio: RadioConfig, connection: ConnectionConfig, promotions: RandomStream, setups: RandomStream) {
        self.radio = radio
        self.connection = connection
        self.promotions = promotions
        self.setups = setups
    }

    /// The delay before a request made at `now` can travel: the radio's promotion if it has
    /// gone idle, and the hand-shake's round trips (each drawn from `roundTrip`) if the
    /// connection was closed. The link counts as in use from `now` on.
    mutating func setUp(at now: SimTime, roundTrip: Distribution) -> SimDuration {
        var delay = SimDuration.zero
        if let promotion = radio.promotion, radioUsedUntil.map({ now - $0 > radio.idleAfter }) ?? true {
            delay = delay + promotion.sampleDuration(&promotions)
        }
        let handShake = connection.setup.extraRoundTrips
        if handShake > 0, connectionUsedUntil.map({ now - $0 > connection.keepAlive }) ?? true {
            for _ in 0..<handShake { delay = delay + roundTrip.sampleDuration(&setups) }
        }
        used(until: now)
        return delay
    }

    /// An exchange keeps the radio and the connection in use until `end`.
    mutating func used(until end: SimTime) {
        radioUsedUntil = max(radioUsedUntil ?? end, end)
        connectionUsedUntil = max(connectionUsedUntil ?? end, end)
    }

    /// The network went away: the connection is closed, and the radio has nothing to keep.
    mutating func lost() {
        connectionUsedUntil = nil
        radioUsedUntil = nil
    }
}
