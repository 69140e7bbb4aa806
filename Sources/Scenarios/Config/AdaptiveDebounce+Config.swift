import Sim

extension AdaptiveDebounce {
    /// Reads the fields of `debounce: {policy: "adaptive", …}` from `d` (the debounce object,
    /// whose `policy` is already read), each optional with the default of `defaults`:
    /// `quantile`, `scale`, `minMs`, `maxMs`, `window`, `warmup`, `sentenceEndMs`.
    static func read(_ d: inout ConfigReader) throws(ConfigError) -> AdaptiveDebounce {
        let base = AdaptiveDebounce.defaults
        let quantile = try d.optional("quantile") { f throws(ConfigError) in try f.number(in: 0.01...1) } ?? base.quantile
        let scale = try d.optional("scale") { f throws(ConfigError) in try f.number(in: 0.1...20) } ?? base.scale
        let minimum = try d.optional("minMs") { f throws(ConfigError) in try f.milliseconds() } ?? base.minimum
        let maximum = try d.optional("maxMs") { f throws(ConfigError) in try f.milliseconds() } ?? base.maximum
        guard minimum <= maximum else {
            throw d.error(d.has("maxMs") ? "maxMs" : "minMs", "minMs (\(ConfigField.format(minimum.milliseconds))) must not exceed maxMs (\(ConfigField.format(maximum.milliseconds)))")
        }
        let window = try d.optional("window") { f throws(ConfigError) in try f.integer(in: 1...windowMax) } ?? base.window
        let warmup = try d.optional("warmup") { f throws(ConfigError) in try f.integer(in: 0...window) } ?? min(base.warmup, window)
        let sentenceEnd = try d.optional("sentenceEndMs") { f throws(ConfigError) in try f.milliseconds() } ?? base.sentenceEnd
        return AdaptiveDebounce(quantile: quantile, scale: scale, minimum: minimum, maximum: maximum, window: window,
                                warmup: warmup, sentenceEnd: sentenceEnd)
    }
}
