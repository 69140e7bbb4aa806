/// The state of the network at one instant.
public enum ChannelState: String, Sendable, Equatable {
    /// The good state of the Gilbert–Elliott model.
    case good
    /// The bad state: long round trips, more losses.
    case bad
    /// No network at all.
    case offline
}

/// A two-state Gilbert–Elliott channel with offline periods, evaluated lazily.
///
/// State changes are not events: the channel advances its own switching times (exponential
/// stays, drawn from its stream) when asked about an instant, so an idle network costs
/// nothing and cannot keep a finished replication alive.
public struct NetworkChannel: Sendable {
    /// The configuration.
    public let config: NetworkConfig
    private var switches: RandomStream
    private var state: ChannelState = .good
    private var nextSwitch: SimTime
    /// A condition forced by the trace (`network` events), overriding the model.
    private var forced: NetworkCondition = .online

    /// Creates the channel in its good state at time zero.
    public init(config: NetworkConfig, switches: RandomStream) {
        self.config = config
        self.switches = switches
        nextSwitch = .never
        if config.meanGoodMs > 0 {
            nextSwitch = .zero + Distribution.exponential(mean: config.meanGoodMs).sampleDuration(&self.switches)
        }
    }

    /// The trace changed the network condition.
    public mutating func force(_ condition: NetworkCondition) { forced = condition }

    /// The state at `now` (which must not go backwards between calls).
    public mutating func state(at now: SimTime) -> ChannelState {
        if forced == .offline || config.offlinePeriods.contains(where: { $0.contains(now) }) { return .offline }
        if forced == .slow { return .bad }
        while nextSwitch <= now {
            state = state == .good ? .bad : .good
            let mean = state == .good ? config.meanGoodMs : config.meanBadMs
            nextSwitch = nextSwitch + Distribution.exponential(mean: max(mean, 0.001)).sampleDuration(&switches)
        }
        return state
    }
}
