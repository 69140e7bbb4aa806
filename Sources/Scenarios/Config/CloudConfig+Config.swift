import Sim

extension CloudConfig {
    /// Reads `cloud`: `service` (the single service distribution) or `model` (the service
    /// time from tokens), `tokens`, `pricing`, `limits`, `retry`, `recall`,
    /// `falsePositiveRate`, `whenHidden`, `whenFieldChanges`.
    static func read(_ field: ConfigField, into cloud: inout CloudConfig) throws(ConfigError) {
        var c = try field.object()
        if let service = try c.optional("service", Distribution.init(config:)) { cloud.service = service }
        if let model = try c.optional("model", { x throws(ConfigError) in try CloudModel.read(x) }) {
            let serviceGiven = field.value["service"].map { if case .null = $0.kind { false } else { true } } ?? false
            guard !serviceGiven else {
                throw c.error("model", "the service time comes from `service` or from `model`, not both: remove one"
                              + " (in a policy or an include, `service: null`)")
            }
            cloud.model = model
            cloud.timesFromTokens = true
        }
        if let tokens = try c.optional("tokens", { x throws(ConfigError) in try TokenConfig.read(x) }) { cloud.tokens = tokens }
        if let pricing = try c.optional("pricing", { x throws(ConfigError) in try PriceTable.read(x) }) { cloud.pricing = pricing }
        if let limits = try c.optional("limits", { x throws(ConfigError) in try CloudLimits.read(x) }) { cloud.limits = limits }
        if let retry = try c.optional("retry", { x throws(ConfigError) in try RetryPolicy.read(x) }) { cloud.retry = retry }
        if let recall = try c.optional("recall", { x throws(ConfigError) in try x.probability() }) { cloud.recall = recall }
        if let rate = try c.optional("falsePositiveRate", { x throws(ConfigError) in try x.probability() }) { cloud.falsePositiveRate = rate }
        let rules = PendingWorkRule.allCases.map(\.rawValue)
        if let rule = try c.optional("whenHidden", { x throws(ConfigError) in try x.oneOf(rules) }) { cloud.whenHidden = PendingWorkRule(rawValue: rule)! }
        if let rule = try c.optional("whenFieldChanges", { x throws(ConfigError) in try x.oneOf(rules) }) {
            cloud.whenFieldChanges = PendingWorkRule(rawValue: rule)!
        }
        try c.finish()
    }
}

extension CloudModel {
    /// The most milliseconds per token a model may take (prefill or decode): ten seconds.
    static let msPerTokenMax = 10_000.0

    /// Reads `cloud.model`: a `preset` (`nano-class`, `mini-class`, `haiku-class`; nano-class
    /// when absent), then `firstToken` (a distribution), `prefillMsPerToken`,
    /// `decodeMsPerToken`, `promptCache: {ttlMs, minTokens}`.
    static func read(_ field: ConfigField) throws(ConfigError) -> CloudModel {
        var m = try field.object()
        let preset = try m.optional("preset") { x throws(ConfigError) in
            ModelClass(rawValue: try x.oneOf(ModelClass.allCases.map(\.rawValue)))!
        }
        var model = CloudModel.preset(preset ?? .nanoClass)
        model.preset = preset
        if let first = try m.optional("firstToken", Distribution.init(config:)) { model.firstToken = first }
        func nanosPerToken(_ key: String) throws(ConfigError) -> Int64? {
            try m.optional(key) { x throws(ConfigError) in
                let ms = try x.durationMs()
                guard ms <= msPerTokenMax else { throw x.error("must be at most \(Int(msPerTokenMax)) ms per token (got \(ms))") }
                return Int64((ms * 1_000_000).rounded())
            }
        }
        if let prefill = try nanosPerToken("prefillMsPerToken") { model.prefillNanosPerToken = prefill }
        if let decode = try nanosPerToken("decodeMsPerToken") { model.decodeNanosPerToken = decode }
        try m.optional("promptCache") { x throws(ConfigError) in
            var p = try x.object()
            if let ttl = try p.optional("ttlMs", { y throws(ConfigError) in try y.milliseconds() }) { model.promptCache.ttl = ttl }
            if let minimum = try p.optional("minTokens", { y throws(ConfigError) in try y.integer(in: 0...TokenConfig.tokensMax) }) {
                model.promptCache.minTokens = minimum
            }
            try p.finish()
        }
        try m.finish()
        return model
    }
}

extension TokenConfig {
    /// The most tokens one part of a request may be: a million.
    static let tokensMax = 1_000_000

    /// Reads `cloud.tokens`: `systemPromptTokens`, `outputBaseTokens`,
    /// `outputTokensPerFlaggedWord`, `charactersPerToken` (a number for every language, or
    /// `{en: 4, de: 3.5, default: 4}`).
    static func read(_ field: ConfigField) throws(ConfigError) -> TokenConfig {
        var t = try field.object()
        var tokens = TokenConfig()
        let count = { (x: ConfigField) throws(ConfigError) -> Int in try x.integer(in: 0...tokensMax) }
        if let n = try t.optional("systemPromptTokens", count) { tokens.systemPromptTokens = n }
        if let n = try t.optional("outputBaseTokens", count) { tokens.outputBaseTokens = n }
        if let n = try t.optional("outputTokensPerFlaggedWord", count) { tokens.outputTokensPerFlaggedWord = n }
        try t.optional("charactersPerToken") { x throws(ConfigError) in
            let ratio = { (y: ConfigField) throws(ConfigError) -> Double in try y.number(in: 0.1...100) }
            if case .number = x.value.kind {
                tokens.charactersPerToken = [:]
                tokens.defaultCharactersPerToken = try ratio(x)
                return
            }
            guard case .object(let members) = x.value.kind else { throw x.error("expected a number or an object of languages") }
            var languages = try x.object()
            for member in members {
                let value = try languages.required(member.key, ratio)
                if member.key == "default" { tokens.defaultCharactersPerToken = value } else {
                    tokens.charactersPerToken[member.key.lowercased()] = value
                }
            }
            try languages.finish()
        }
        try t.finish()
        return tokens
    }
}

extension PriceTable {
    /// Reads `cloud.pricing`: a `preset` (nano-class when absent), then prices in USD per
    /// million tokens — `inputPerMillion`, `cachedInputPerMillion`, `cacheWritePerMillion`,
    /// `outputPerMillion` — and `wordsPerUserDay`.
    static func read(_ field: ConfigField) throws(ConfigError) -> PriceTable {
        var p = try field.object()
        let preset = try p.optional("preset") { x throws(ConfigError) in
            ModelClass(rawValue: try x.oneOf(ModelClass.allCases.map(\.rawValue)))!
        }
        var table = PriceTable.preset(preset ?? .nanoClass)
        table.preset = preset
        func price(_ key: String) throws(ConfigError) -> Int64? {
            try p.optional(key) { x throws(ConfigError) in PriceTable.picoUSDPerToken(usdPerMillion: try x.number(in: 0...1_000_000)) }
        }
        if let v = try price("inputPerMillion") { table.inputPicoUSD = v }
        if let v = try price("cachedInputPerMillion") { table.cachedInputPicoUSD = v }
        if let v = try price("cacheWritePerMillion") { table.cacheWritePicoUSD = v }
        if let v = try price("outputPerMillion") { table.outputPicoUSD = v }
        if let words = try p.optional("wordsPerUserDay", { x throws(ConfigError) in try x.number(in: 1...1_000_000) }) {
            table.wordsPerUserDay = words
        }
        try p.finish()
        return table
    }
}
