import Sim

extension ScenarioLoader {
    /// Reads `typing: { dictionary: "../dictionaries/en.tsv", suggestions: { rerankLift: 0.5 } }`.
    /// The dictionary path is relative to the scenario file; without a dictionary the
    /// typing-quality metrics are not computed. A dictionary this load has read already
    /// (`dictionaries`: for another policy) is not read again.
    static func readTyping(_ field: ConfigField, scenarioPath: String, dictionaries: DictionaryReads,
                           into keyboard: inout KeyboardConfig) throws(ConfigError) {
        var t = try field.object()
        var typing = keyboard.typing
        defer { keyboard.typing = typing }
        try t.optional("dictionary") { x throws(ConfigError) in
            if case .null = x.value.kind {
                typing.dictionary = nil
                typing.dictionarySource = ""
                return
            }
            let path = resolve(try x.string(), besides: scenarioPath)
            do throws(InputError) {
                typing.dictionary = try dictionaries.dictionary(at: path)
            } catch {
                throw x.error(error.quoted)
            }
            typing.dictionarySource = path
        }
        try t.optional("suggestions") { f throws(ConfigError) in
            var s = try f.object()
            if let lift = try s.optional("rerankLift", { x throws(ConfigError) in try x.probability() }) { typing.rerankLift = lift }
            try s.finish()
        }
        if let touch = try t.optional("touch", { f throws(ConfigError) in
            try TouchConfig(config: f, scenarioPath: scenarioPath, dictionary: typing.dictionary)
        }) {
            keyboard.touch = touch
        }
        try t.finish()
    }
}
