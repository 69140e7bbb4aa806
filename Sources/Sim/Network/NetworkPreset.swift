/// Networks from measurements (`network.preset`), each figure with its source and date in
/// `docs/models.md` ("Network presets"). A preset sets the round trip, the loss, the radio
/// and the connection; a scenario overrides any of them field by field.
public enum NetworkPreset: String, Sendable, Equatable, CaseIterable {
    /// Wi-Fi at home or at work: a fixed-line path of 23 ms (the median of the seven largest
    /// US fixed providers' multi-server latencies, Ookla Q3 2023) plus the Wi-Fi hop (median
    /// 3 ms, p90 20 ms, p99 250 ms: Sui et al., MobiSys 2016). The radio never sleeps.
    case wifi
    /// US LTE: median 58 ms (the middle of the three largest operators' 54, 58 and 63 ms,
    /// Ookla Q2 2023), a 260 ms promotion after 11.6 s idle (Huang et al., MobiSys 2012).
    case lte
    /// US 5G: median 53 ms (the middle of 51, 53 and 62 ms, Ookla Q2 2023), woken through
    /// its LTE anchor as LTE is (non-standalone 5G).
    case fiveG = "5g"
    /// A lossy market: round trips p50/p75/p95/p99 of 350/425/725/2,300 ms and 3.5 % loss
    /// (Uber's QUIC study, 2019), on an LTE radio.
    case poor

    /// The median round trip the sources give, milliseconds: what the preset's round trips
    /// reproduce (`NetworkPresetTests`).
    public var documentedMedianMs: Double {
        switch self {
        case .wifi: Self.fixedLineMs + 3
        case .lte: 58
        case .fiveG: 53
        case .poor: 350
        }
    }

    /// The preset's network: keysim's defaults (timeouts, retries, offline periods) with the
    /// measured round trip, loss, radio and connection.
    public var config: NetworkConfig {
        var network = NetworkConfig()
        network.preset = self
        network.meanGoodMs = 0
        network.connection = ConnectionConfig(setup: .tcpTLS13, keepAlive: .milliseconds(75_000))
        switch self {
        case .wifi:
            // The Wi-Fi hop's quantiles from Sui et al.; the ends (1 ms, 1 s) are keysim's.
            network.goodRoundTrip = .shifted(offset: Self.fixedLineMs, base: .quantileTable([
                QuantilePoint(p: 0, value: 1), QuantilePoint(p: 0.5, value: 3), QuantilePoint(p: 0.9, value: 20),
                QuantilePoint(p: 0.99, value: 250), QuantilePoint(p: 1, value: 1_000),
            ]))
            network.goodLoss = 0.002
        case .lte, .fiveG:
            // Ookla publishes medians only: the tail keeps the shape of keysim's default
            // network (p99 = 400/60 of the median), an assumption.
            let median = documentedMedianMs
            network.goodRoundTrip = .lognormal(median: median, p99: median * 400 / 60)
            network.goodLoss = 0.002
            network.radio = Self.lteRadio
        case .poor:
            // Uber's quantiles; the ends (150 ms, 5 s) are keysim's.
            network.goodRoundTrip = .quantileTable([
                QuantilePoint(p: 0, value: 150), QuantilePoint(p: 0.5, value: 350), QuantilePoint(p: 0.75, value: 425),
                QuantilePoint(p: 0.95, value: 725), QuantilePoint(p: 0.99, value: 2_300), QuantilePoint(p: 1, value: 5_000),
            ])
            network.goodLoss = 0.035
            network.radio = Self.lteRadio
        }
        // The bad state is not entered on its own (meanGoodMs 0): it keeps keysim's weak
        // signal, which a trace's `slow` event forces.
        return network
    }

    /// The fixed-line part of a Wi-Fi round trip, milliseconds.
    static let fixedLineMs = 23.0

    /// LTE's promotion from RRC_IDLE: 260.1 ± 15.8 ms after an inactivity timer of 11.576 s
    /// (Huang et al., MobiSys 2012, Table 3).
    static let lteRadio = RadioConfig(promotion: .normal(mean: 260.1, stddev: 15.8), idleAfter: .microseconds(11_576_000))
}
