import Sim

extension FleetConfig {
    /// Reads `fleet.backend`: a `preset` (`self-hosted-small` when absent), then every field
    /// named, each overriding the preset's: `replicas`, `maxBatch`, `iteration: {baseMs,
    /// perRequestMs, perPrefillTokenMs}`, `queueLimit`, `admission` (`{firstTokenTargetMs,
    /// status, retryAfterMs}`, or `false` for none), `limits` and `pricing` (as the cloud's),
    /// `promptCache: {ttlMs, minTokens}`.
    static func readBackend(_ field: ConfigField, preset: inout SharedBackendConfig.Preset) throws(ConfigError) -> SharedBackendConfig {
        var b = try field.object()
        if let name = try b.optional("preset", { x throws(ConfigError) in
            try x.oneOf(SharedBackendConfig.Preset.allCases.map(\.rawValue))
        }) {
            preset = SharedBackendConfig.Preset(rawValue: name)!
        }
        var config = SharedBackendConfig.preset(preset)
        if let n = try b.optional("replicas", { x throws(ConfigError) in try x.integer(in: 1...replicasMax) }) { config.replicas = n }
        if let n = try b.optional("maxBatch", { x throws(ConfigError) in try x.integer(in: 1...4_096) }) { config.maxBatch = n }
        try b.optional("iteration") { x throws(ConfigError) in
            var i = try x.object()
            if let ms = try i.optional("baseMs", nanosMs) { config.iteration.baseNanos = ms }
            if let ms = try i.optional("perRequestMs", nanosMs) { config.iteration.perRequestNanos = ms }
            if let ms = try i.optional("perPrefillTokenMs", nanosMs) { config.iteration.perPrefillTokenNanos = ms }
            try i.finish()
            guard config.iteration.baseNanos + config.iteration.perRequestNanos >= 1 else {
                throw x.error("an iteration takes time: baseMs + perRequestMs must be positive")
            }
        }
        if let n = try b.optional("queueLimit", { x throws(ConfigError) in try x.integer(in: 0...10_000_000) }) { config.queueLimit = n }
        try b.optional("admission") { x throws(ConfigError) in
            if case .bool = x.value.kind {
                guard try !x.bool() else {
                    throw x.error("true is not an admission rule: give {firstTokenTargetMs: …} or false for none")
                }
                config.admission = nil
                return
            }
            var a = try x.object()
            var admission = config.admission ?? SharedBackendConfig.AdmissionControl(firstTokenTarget: .milliseconds(450))
            if let target = try a.optional("firstTokenTargetMs", { y throws(ConfigError) in try y.milliseconds(positive: true) }) {
                admission.firstTokenTarget = target
            }
            if let status = try a.optional("status", { y throws(ConfigError) in try y.integer(in: 400...599) }) {
                guard status == 429 || status == 503 else { throw a.error("status", "must be 429 or 503 (got \(status))") }
                admission.status = status
            }
            if let after = try a.optional("retryAfterMs", { y throws(ConfigError) in try y.milliseconds() }) { admission.retryAfter = after }
            try a.finish()
            config.admission = admission
        }
        if let limits = try b.optional("limits", CloudLimits.read) { config.limits = limits }
        if let pricing = try b.optional("pricing", PriceTable.read) { config.pricing = pricing }
        try b.optional("promptCache") { x throws(ConfigError) in
            var c = try x.object()
            if let ttl = try c.optional("ttlMs", { y throws(ConfigError) in try y.milliseconds() }) { config.promptCache.ttl = ttl }
            if let n = try c.optional("minTokens", { y throws(ConfigError) in try y.integer(in: 0...1_000_000) }) { config.promptCache.minTokens = n }
            try c.finish()
        }
        try b.finish()
        return config
    }

    /// Milliseconds (up to a minute) as whole nanoseconds.
    private static func nanosMs(_ field: ConfigField) throws(ConfigError) -> Int64 {
        Int64((try field.number(in: 0...60_000) * 1e6).rounded())
    }
}
