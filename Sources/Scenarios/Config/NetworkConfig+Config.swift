import Sim

extension NetworkConfig {
    /// Reads `network`: a `preset` (`wifi`, `lte`, `5g`, `poor`) first, then every field
    /// named, each overriding the preset's: `roundTrip`, `loss`, `bad: {roundTrip, loss}`,
    /// `meanGoodMs`, `meanBadMs`, `offline`, `offlineFailureMs`, `timeoutMs`, `maxAttempts`,
    /// `retryBackoffMs`, `retryBackoffMaxMs`, `radio: {promotion, idleAfterMs}`,
    /// `connection: {setup, keepAliveMs}`.
    static func read(_ field: ConfigField, into network: inout NetworkConfig) throws(ConfigError) {
        var n = try field.object()
        if let preset = try n.optional("preset", { x throws(ConfigError) in
            NetworkPreset(rawValue: try x.oneOf(NetworkPreset.allCases.map(\.rawValue)))!
        }) {
            network = preset.config
        }
        if let rtt = try n.optional("roundTrip", Distribution.init(config:)) { network.goodRoundTrip = rtt }
        if let loss = try n.optional("loss", { x throws(ConfigError) in try x.probability() }) { network.goodLoss = loss }
        try n.optional("bad") { f throws(ConfigError) in
            var b = try f.object()
            if let rtt = try b.optional("roundTrip", Distribution.init(config:)) { network.badRoundTrip = rtt }
            if let loss = try b.optional("loss", { x throws(ConfigError) in try x.probability() }) { network.badLoss = loss }
            try b.finish()
        }
        if let mean = try n.optional("meanGoodMs", { x throws(ConfigError) in try x.nonNegative() }) { network.meanGoodMs = mean }
        if let mean = try n.optional("meanBadMs", { x throws(ConfigError) in try x.positive() }) { network.meanBadMs = mean }
        if let periods = try n.optional("offline", { x throws(ConfigError) in try x.periods() }) { network.offlinePeriods = periods }
        if let d = try n.optional("offlineFailureMs", { x throws(ConfigError) in try x.milliseconds() }) { network.offlineFailure = d }
        if let d = try n.optional("timeoutMs", { x throws(ConfigError) in try x.milliseconds(positive: true) }) { network.timeout = d }
        if let m = try n.optional("maxAttempts", { x throws(ConfigError) in try x.integer(in: 1...20) }) { network.maxAttempts = m }
        if let d = try n.optional("retryBackoffMs", { x throws(ConfigError) in try x.milliseconds() }) { network.retryBackoff = d }
        if let d = try n.optional("retryBackoffMaxMs", { x throws(ConfigError) in try x.milliseconds() }) { network.retryBackoffMax = d }
        try n.optional("radio") { f throws(ConfigError) in
            var r = try f.object()
            try r.optional("promotion") { x throws(ConfigError) in
                // "none": a radio that never sleeps.
                if case .string = x.value.kind { _ = try x.oneOf(["none"]); network.radio.promotion = nil; return }
                network.radio.promotion = try Distribution(config: x)
            }
            if let d = try r.optional("idleAfterMs", { x throws(ConfigError) in try x.milliseconds() }) { network.radio.idleAfter = d }
            try r.finish()
        }
        try n.optional("connection") { f throws(ConfigError) in
            var c = try f.object()
            if let setup = try c.optional("setup", { x throws(ConfigError) in
                ConnectionSetup(rawValue: try x.oneOf(ConnectionSetup.allCases.map(\.rawValue)))!
            }) {
                network.connection.setup = setup
            }
            if let d = try c.optional("keepAliveMs", { x throws(ConfigError) in try x.milliseconds() }) { network.connection.keepAlive = d }
            try c.finish()
        }
        try n.finish()
    }
}

extension ConfigField {
    /// Periods of trace time: `[[startMs, endMs], ...]`, each start before its end.
    func periods() throws(ConfigError) -> [Range<SimTime>] {
        try array { period throws(ConfigError) -> Range<SimTime> in
            let bounds = try period.array { x throws(ConfigError) in try x.durationMs() }
            guard bounds.count == 2, bounds[0] < bounds[1] else { throw period.error("expected [startMs, endMs] with start < end") }
            return SimTime(milliseconds: bounds[0])..<SimTime(milliseconds: bounds[1])
        }
    }
}
