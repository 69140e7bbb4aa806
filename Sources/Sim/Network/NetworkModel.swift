/// The network behind every transfer the keyboard makes — check requests to the cloud,
/// language-file downloads, device-token checks — answered in one place: what a transfer
/// costs in time and whether it is lost. A new network model replaces or extends this one
/// type (`docs/architecture.md`, "Add a network model").
///
/// The channel's state (good, bad, offline) comes from `NetworkChannel`; round trips and
/// losses are drawn per kind of transfer from a stream of their own, so adding a kind of
/// transfer never shifts another kind's draws. Check requests also pay for waking the
/// radio and opening the connection (`NetworkLink`).
struct NetworkModel {
    /// A kind of transfer.
    enum Transfer {
        /// A check request to the cloud (stream `network.round-trip`, losses from it too).
        case checkRequest
        /// A language-file download's first round trip (stream `language.download`).
        case download
        /// A device-token check refused by the server (stream `token.round-trip`).
        case tokenCheck
    }

    /// The configuration.
    let config: NetworkConfig
    private var channel: NetworkChannel
    private var checkTimes: RandomStream
    private var downloadTimes: RandomStream
    private var tokenTimes: RandomStream
    private var link: NetworkLink

    /// Creates the network in its good state; `stream` gives a named stream.
    init(config: NetworkConfig, stream: (String) -> RandomStream) {
        self.config = config
        channel = NetworkChannel(config: config, switches: stream("network.state"))
        checkTimes = stream("network.round-trip")
        downloadTimes = stream("language.download")
        tokenTimes = stream("token.round-trip")
        link = NetworkLink(radio: config.radio, connection: config.connection, promotions: stream("network.promotion"),
                           setups: stream("network.setup"))
    }

    /// The channel's state at `now` (which must not go backwards between calls).
    mutating func state(at now: SimTime) -> ChannelState { channel.state(at: now) }

    /// The trace forced a condition.
    mutating func force(_ condition: NetworkCondition) { channel.force(condition) }

    /// One round trip of `transfer` in `state` (good or bad).
    mutating func roundTrip(_ transfer: Transfer, in state: ChannelState) -> SimDuration {
        precondition(state != .offline, "nothing travels offline")
        let distribution = state == .good ? config.goodRoundTrip : config.badRoundTrip
        switch transfer {
        case .checkRequest: return distribution.sampleDuration(&checkTimes)
        case .download: return distribution.sampleDuration(&downloadTimes)
        case .tokenCheck: return distribution.sampleDuration(&tokenTimes)
        }
    }

    /// The delay before a check request made at `now` in `state` (good or bad) can travel:
    /// the radio's promotion and the connection's hand-shake, when due.
    mutating func checkRequestSetUp(at now: SimTime, in state: ChannelState) -> SimDuration {
        precondition(state != .offline, "nothing travels offline")
        return link.setUp(at: now, roundTrip: state == .good ? config.goodRoundTrip : config.badRoundTrip)
    }

    /// A check request's exchange keeps the radio and the connection busy until `end`.
    mutating func checkRequestUsed(until end: SimTime) { link.used(until: end) }

    /// A check request found no network: the connection is gone.
    mutating func checkRequestFoundNoNetwork() { link.lost() }

    /// Whether a check request's answer is lost in `state` (good or bad), drawn after its round trip.
    mutating func answerLost(in state: ChannelState) -> Bool {
        checkTimes.bernoulli(state == .good ? config.goodLoss : config.badLoss)
    }

    /// When a transfer that would end at `end` is cut by a configured offline period starting
    /// after `now`, the start of that period; otherwise `end`.
    func cut(_ end: SimTime, after now: SimTime) -> SimTime {
        config.offlinePeriods.map(\.lowerBound).filter { $0 > now && $0 < end }.min() ?? end
    }
}
