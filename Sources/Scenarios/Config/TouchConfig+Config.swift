import Sim

extension TouchConfig {
    /// Reads a scenario's `typing.touch` object; every field is optional, unknown fields are
    /// errors, and `enabled: true` needs a dictionary (`typing.dictionary`, or its own):
    ///
    ///     typing: { touch: { enabled: true, layout: "qwerty", maxShiftPt: 7, fullShiftProbability: 0.5,
    ///                        predictorOrder: 3 } }
    ///
    /// The predictor's text is `typing.dictionary` unless `touch.dictionary` names another
    /// (relative to the scenario file).
    public init(config field: ConfigField, scenarioPath: String, dictionary shared: WordDictionary? = nil) throws(ConfigError) {
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
        let words = try o.optional("dictionary") { f throws(ConfigError) -> WordDictionary in
            let path = ScenarioLoader.resolve(try f.string(), besides: scenarioPath)
            do throws(InputError) {
                return try DictionaryFile.read(path: path)
            } catch {
                throw f.error(error.quoted)
            }
        }
        try o.finish()
        if let words = words ?? shared {
            predictor = NextLetterPredictor(words: zip(words.words, words.counts).map { (word: $0, count: $1) }, order: order)
        }
        if enabled && predictor == nil {
            throw field.error("enabled needs a dictionary to build the next-letter predictor from ('typing.dictionary' or 'typing.touch.dictionary')")
        }
    }
}
