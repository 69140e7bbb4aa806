import Sim

extension TouchConfig {
    /// Reads a scenario's `typing.touch` object; every field is optional, unknown fields are
    /// errors, and `enabled: true` needs a `dictionary`:
    ///
    ///     typing: { touch: { enabled: true, layout: "qwerty", maxShiftPt: 7, fullShiftProbability: 0.5,
    ///                        predictorOrder: 3, dictionary: "../dictionaries/touch-sample.tsv" } }
    ///
    /// The dictionary path is relative to the scenario file.
    public init(config field: ConfigField, scenarioPath: String) throws(ConfigError) {
        self.init()
        var o = try field.object()
        if let enabled = try o.optional("enabled", { f throws(ConfigError) in try f.bool() }) { self.enabled = enabled }
        if let name = try o.optional("layout", { f throws(ConfigError) in try f.oneOf(KeyboardLayout.names) }) { layoutName = name }
        if let shift = try o.optional("maxShiftPt", { f throws(ConfigError) in try f.number(in: 0...KeyboardLayout.keyPitchPoints / 2) }) {
            maxShiftPoints = shift
        }
        if let p = try o.optional("fullShiftProbability", { f throws(ConfigError) in try f.number(in: 0...1) }) {
            fullShiftProbability = p
        }
        let order = try o.optional("predictorOrder") { f throws(ConfigError) in
            try f.integer(in: NextLetterPredictor.orderRange.lowerBound...NextLetterPredictor.orderRange.upperBound)
        } ?? 3
        let words = try o.optional("dictionary") { f throws(ConfigError) -> DictionaryFile in
            let path = ScenarioLoader.resolve(try f.string(), besides: scenarioPath)
            do throws(InputError) {
                return try DictionaryFile.read(path: path)
            } catch {
                throw f.error("cannot use the dictionary: \(error.description)")
            }
        }
        try o.finish()
        if let words { predictor = NextLetterPredictor(words: words.entries, order: order) }
        if enabled && predictor == nil { throw field.error("enabled needs a 'dictionary' to build the next-letter predictor from") }
    }

    /// Reads a scenario's `typing` object: for now only `touch` (the suggestion model's fields
    /// join it on another branch).
    static func readTyping(_ field: ConfigField, scenarioPath: String, into keyboard: inout KeyboardConfig) throws(ConfigError) {
        var t = try field.object()
        if let touch = try t.optional("touch", { f throws(ConfigError) in try TouchConfig(config: f, scenarioPath: scenarioPath) }) {
            keyboard.touch = touch
        }
        try t.finish()
    }
}
