import Sim

extension CloudLimits {
    /// The most requests or tokens a minute, or in a burst, a limit may name.
    static let perMinuteMax = 100_000_000

    /// Reads `cloud.limits`: `perUser` and `provider`, each `{requestsPerMinute,
    /// tokensPerMinute, requestBurst, tokenBurst}`; the provider's `overload: {share, status,
    /// periods}` too.
    static func read(_ field: ConfigField) throws(ConfigError) -> CloudLimits {
        var l = try field.object()
        var limits = CloudLimits()
        limits.perUser = try l.optional("perUser") { x throws(ConfigError) in
            var o = try x.object()
            let limit = try RateLimit.read(&o)
            try o.finish()
            return limit
        }
        try l.optional("provider") { x throws(ConfigError) in
            var o = try x.object()
            let limit = try RateLimit.read(&o)
            if limit.requestsPerMinute != nil || limit.tokensPerMinute != nil { limits.provider = limit }
            try o.optional("overload") { y throws(ConfigError) in
                var v = try y.object()
                if let share = try v.optional("share", { z throws(ConfigError) in try z.probability() }) { limits.overload.share = share }
                if let status = try v.optional("status", { z throws(ConfigError) in try z.integer(in: 500...599) }) {
                    guard status == 503 || status == 529 else { throw v.error("status", "must be 503 or 529 (got \(status))") }
                    limits.overload.status = status
                }
                if let periods = try v.optional("periods", { z throws(ConfigError) in try z.periods() }) { limits.overload.periods = periods }
                try v.finish()
            }
            try o.finish()
        }
        try l.finish()
        return limits
    }
}

extension RateLimit {
    /// Reads a limit's fields from `o`, which the caller finishes.
    static func read(_ o: inout ConfigReader) throws(ConfigError) -> RateLimit {
        let count = { (x: ConfigField) throws(ConfigError) -> Int in try x.integer(in: 1...CloudLimits.perMinuteMax) }
        var limit = RateLimit()
        limit.requestsPerMinute = try o.optional("requestsPerMinute", count)
        limit.tokensPerMinute = try o.optional("tokensPerMinute", count)
        limit.requestBurst = try o.optional("requestBurst", count)
        limit.tokenBurst = try o.optional("tokenBurst", count)
        if limit.requestBurst != nil && limit.requestsPerMinute == nil {
            throw o.error("requestBurst", "needs requestsPerMinute")
        }
        if limit.tokenBurst != nil && limit.tokensPerMinute == nil { throw o.error("tokenBurst", "needs tokensPerMinute") }
        return limit
    }
}

extension RetryPolicy {
    /// Reads `cloud.retry`, starting from `RetryPolicy.standard`: `maxAttempts`, `baseMs`,
    /// `capMs`, `jitter` (`full` or `none`), `honourRetryAfter`, `dropSuperseded`.
    static func read(_ field: ConfigField) throws(ConfigError) -> RetryPolicy {
        var r = try field.object()
        var policy = RetryPolicy.standard
        if let m = try r.optional("maxAttempts", { x throws(ConfigError) in try x.integer(in: 1...20) }) { policy.maxAttempts = m }
        if let d = try r.optional("baseMs", { x throws(ConfigError) in try x.milliseconds() }) { policy.base = d }
        if let d = try r.optional("capMs", { x throws(ConfigError) in try x.milliseconds() }) { policy.cap = d }
        if let jitter = try r.optional("jitter", { x throws(ConfigError) in
            RetryJitter(rawValue: try x.oneOf(RetryJitter.allCases.map(\.rawValue)))!
        }) {
            policy.jitter = jitter
        }
        if let b = try r.optional("honourRetryAfter", { x throws(ConfigError) in try x.bool() }) { policy.honourRetryAfter = b }
        if let b = try r.optional("dropSuperseded", { x throws(ConfigError) in try x.bool() }) { policy.dropSuperseded = b }
        try r.finish()
        return policy
    }
}
