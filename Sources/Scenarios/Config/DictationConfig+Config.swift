import Sim

extension DictationConfig {
    /// The fields of a scenario's `dictation` object, in the order of `docs/dictation.md`.
    public static let configFields = [
        "sharedFile", "doorbell", "appLaunch", "modelLoad", "swipeBack", "insert", "engine", "neuralEngineInBackground",
        "preRollMs", "idleTimeoutMinutes", "micPolicy", "suspendDelay", "recordingCapMs", "transcription",
        "peakMemoryMB", "stopToTextBudgetMs",
    ]

    /// Reads a scenario's `dictation` object; every field is optional and defaults to the
    /// seed's app. Unknown fields are errors.
    ///
    ///     dictation: {
    ///       doorbell: { type: "lognormal", medianMs: 2, p99Ms: 8 },
    ///       modelLoad: { neuralEngine: 130, cpu: 3800 },
    ///       engine: "neuralEngine", neuralEngineInBackground: false,
    ///       preRollMs: 400, idleTimeoutMinutes: 5, micPolicy: "keepOn",
    ///       recordingCapMs: 60000, stopToTextBudgetMs: 100,
    ///       transcription: { neuralEngine: [{ clipMs: 3400, minMs: 53, maxMs: 72 }, …] },
    ///       peakMemoryMB: { neuralEngine: 70, cpu: 88 },
    ///     }
    public init(config field: ConfigField) throws(ConfigError) {
        self.init()
        var o = try field.object()
        func distribution(_ f: ConfigField) throws(ConfigError) -> Distribution { try Distribution(config: f) }
        if let d = try o.optional("sharedFile", distribution) { sharedFile = d }
        if let d = try o.optional("doorbell", distribution) { doorbell = d }
        if let d = try o.optional("appLaunch", distribution) { appLaunch = d }
        if let pair = try o.optional("modelLoad", { f throws(ConfigError) in try Self.perEngine(f, default: modelLoad, distribution) }) {
            modelLoad = pair
        }
        if let d = try o.optional("swipeBack", distribution) { swipeBack = d }
        if let d = try o.optional("insert", distribution) { insert = d }
        if let name = try o.optional("engine", { f throws(ConfigError) in try f.oneOf(SpeechEngine.allCases.map(\.rawValue)) }) {
            engine = SpeechEngine(rawValue: name)!
        }
        if let b = try o.optional("neuralEngineInBackground", { f throws(ConfigError) in try f.bool() }) { neuralEngineInBackground = b }
        if let ms = try o.optional("preRollMs", { f throws(ConfigError) in try f.number(in: 0...10_000) }) {
            preRoll = SimDuration(milliseconds: ms)
        }
        if let minutes = try o.optional("idleTimeoutMinutes", { f throws(ConfigError) in try f.number(in: 1...30) }) {
            idleTimeout = SimDuration(milliseconds: minutes * 60_000)
        }
        if let name = try o.optional("micPolicy", { f throws(ConfigError) in try f.oneOf(MicPolicy.allCases.map(\.rawValue)) }) {
            micPolicy = MicPolicy(rawValue: name)!
        }
        if let d = try o.optional("suspendDelay", distribution) { suspendDelay = d }
        if let d = try o.optional("recordingCapMs", { f throws(ConfigError) in try f.milliseconds(positive: true) }) {
            recordingCap = d
        }
        if let pair = try o.optional("transcription", { f throws(ConfigError) in
            try Self.perEngine(f, default: transcription) { g throws(ConfigError) in try Self.curve(g) }
        }) {
            transcription = pair
        }
        if let pair = try o.optional("peakMemoryMB", { f throws(ConfigError) in
            try Self.perEngine(f, default: peakMemoryMegabytes) { g throws(ConfigError) in try g.nonNegative() }
        }) {
            peakMemoryMegabytes = pair
        }
        // `null` removes the budget; absent keeps the default.
        if field.value["stopToTextBudgetMs"]?.kind == .null { stopToTextBudget = nil }
        if let d = try o.optional("stopToTextBudgetMs", { f throws(ConfigError) in try f.milliseconds(positive: true) }) {
            stopToTextBudget = d
        }
        try o.finish()
        if let problem = problems().first { throw field.error(problem) }
    }

    /// The same as `init(config:)`, for callers that read sections with static functions.
    public static func readDictation(_ field: ConfigField) throws(ConfigError) -> DictationConfig {
        try DictationConfig(config: field)
    }

    /// `{ neuralEngine: …, cpu: … }`, either member optional.
    static func perEngine<Value>(
        _ field: ConfigField, default base: PerEngine<Value>, _ read: (ConfigField) throws(ConfigError) -> Value
    ) throws(ConfigError) -> PerEngine<Value> {
        var o = try field.object()
        var out = base
        for engine in SpeechEngine.allCases {
            if let value = try o.optional(engine.rawValue, read) { out[engine] = value }
        }
        try o.finish()
        return out
    }

    /// `[{ clipMs, minMs, maxMs }, …]` by increasing clip length.
    static func curve(_ field: ConfigField) throws(ConfigError) -> TranscriptionCurve {
        let points = try field.array { p throws(ConfigError) -> TranscriptionCurve.Point in
            var o = try p.object()
            let clip = try o.required("clipMs") { f throws(ConfigError) in try f.durationMs() }
            let low = try o.required("minMs") { f throws(ConfigError) in try f.durationMs() }
            let high = try o.required("maxMs") { f throws(ConfigError) in try f.durationMs() }
            try o.finish()
            guard high >= low else { throw o.error("maxMs", "must be at least minMs (\(ConfigField.format(low)))") }
            return TranscriptionCurve.Point(clipMs: clip, minMs: low, maxMs: high)
        }
        if let problem = TranscriptionCurve(points).problem { throw field.error(problem) }
        return TranscriptionCurve(points)
    }
}
