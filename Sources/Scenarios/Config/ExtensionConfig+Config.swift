import Sim

/// Reads the scenario's `memory`, `languages` and `token` objects (see `docs/models.md`,
/// "Memory, language files and the device token"). Every field is optional.
enum ExtensionConfigReader {
    ///     memory: { limitMb: 60, baseMb: 22, dictionaryMb: 8, languageFileMb: 7.6, modelMb: 12,
    ///               cacheMbPerWord: 0.01, cacheCapMb: 6, keepPreviousLanguage: true,
    ///               restart: { type: "lognormal", medianMs: 400, p99Ms: 1500 } }
    static func readMemory(_ field: ConfigField, into memory: inout MemoryConfig) throws(ConfigError) {
        var m = try field.object()
        func megabytes(_ f: ConfigField) throws(ConfigError) -> Double { try f.number(in: 0...100_000) }
        if let x = try m.optional("limitMb", { f throws(ConfigError) in try f.positive() }) { memory.limitMegabytes = x }
        if let x = try m.optional("baseMb", megabytes) { memory.baseMegabytes = x }
        if let x = try m.optional("dictionaryMb", megabytes) { memory.dictionaryMegabytes = x }
        if let x = try m.optional("languageFileMb", megabytes) { memory.languageFileMegabytes = x }
        if let x = try m.optional("modelMb", megabytes) { memory.modelMegabytes = x }
        if let x = try m.optional("cacheMbPerWord", megabytes) { memory.cacheMegabytesPerWord = x }
        if let x = try m.optional("cacheCapMb", megabytes) { memory.cacheCapMegabytes = x }
        if let x = try m.optional("keepPreviousLanguage", { f throws(ConfigError) in try f.bool() }) { memory.keepPreviousLanguage = x }
        if let d = try m.optional("restart", { f throws(ConfigError) in try Distribution(config: f) }) { memory.restart = d }
        try m.finish()
        if let problem = memory.problems.first { throw field.error(problem) }
    }

    ///     languages: { bundled: "en", verify: true, defaultSizeBytes: 7969177,
    ///                  manifest: [{ language: "ru", sizeBytes: 7969177, sha256: "…" }],
    ///                  goodKbps: 8000, badKbps: 400 }
    static func readLanguages(_ field: ConfigField, into languages: inout LanguageFilesConfig) throws(ConfigError) {
        var l = try field.object()
        if let x = try l.optional("bundled", readLanguageTag) { languages.bundled = x }
        if let x = try l.optional("verify", { f throws(ConfigError) in try f.bool() }) { languages.verify = x }
        if let x = try l.optional("defaultSizeBytes", { f throws(ConfigError) in try f.integer(in: 1...(1 << 34)) }) {
            languages.defaultSizeBytes = x
        }
        if let x = try l.optional("goodKbps", { f throws(ConfigError) in try f.positive() }) { languages.goodKilobitsPerSecond = x }
        if let x = try l.optional("badKbps", { f throws(ConfigError) in try f.positive() }) { languages.badKilobitsPerSecond = x }
        var seen: [String] = []
        if let list = try l.optional("manifest", { f throws(ConfigError) in try f.array { e throws(ConfigError) in try readEntry(e, seen: &seen) } }) {
            languages.manifest = list
        }
        try l.finish()
    }

    /// A language as the trace's `language` events name it: a BCP 47 tag.
    private static func readLanguageTag(_ field: ConfigField) throws(ConfigError) -> String {
        let tag = try field.string()
        guard TraceLineDecoder.isLanguageTag(tag) else {
            throw field.error("expected a BCP 47 language tag such as en or pt-BR, not '\(tag)'")
        }
        return tag
    }

    /// One manifest entry; `seen` holds the languages of the entries before it.
    private static func readEntry(_ field: ConfigField, seen: inout [String]) throws(ConfigError) -> LanguageFileEntry {
        var e = try field.object()
        let language = try e.required("language", readLanguageTag)
        if let first = seen.firstIndex(of: language) {
            throw e.error("language", "'\(language)' is listed twice (first at manifest[\(first)])")
        }
        seen.append(language)
        let size = try e.required("sizeBytes") { f throws(ConfigError) in try f.integer(in: 1...(1 << 34)) }
        let digest = try e.optional("sha256") { f throws(ConfigError) in
            let text = try f.string()
            guard LanguageFileContent.isDigest(text) else { throw f.error("expected 64 lower-case hex digits") }
            return text
        }
        try e.finish()
        let entry = LanguageFileEntry(language: language, sizeBytes: size)
        // The modelled content is what gets downloaded: a manifest digest that differs from it
        // would make every download fail verification.
        if let digest, digest != entry.sha256 {
            throw e.error("sha256", "does not match the modelled content of '\(language)' with \(size) bytes (\(entry.sha256))")
        }
        return entry
    }

    ///     token: { rotationPeriodMs: 86400000, graceMs: 60000,
    ///              refresh: { type: "lognormal", medianMs: 2000, p99Ms: 20000 }, logoutAtMs: 600000 }
    /// Present (even `{}`), it turns the token model on; `enabled: false` turns it off again.
    static func readToken(_ field: ConfigField, into token: inout DeviceTokenConfig) throws(ConfigError) {
        var t = try field.object()
        token.enabled = try t.optional("enabled") { f throws(ConfigError) in try f.bool() } ?? true
        if let ms = try t.optional("rotationPeriodMs", { f throws(ConfigError) in try f.number(in: 1000...ValueLimits.durationMsMax) }) {
            token.rotationPeriod = SimDuration(milliseconds: ms)
        }
        if let d = try t.optional("graceMs", { f throws(ConfigError) in try f.milliseconds() }) { token.grace = d }
        if let d = try t.optional("refresh", { f throws(ConfigError) in try Distribution(config: f) }) { token.refresh = d }
        if let ms = try t.optional("logoutAtMs", { f throws(ConfigError) in try f.durationMs() }) {
            token.logoutAt = SimTime(milliseconds: ms)
        }
        try t.finish()
        guard token.grace < token.rotationPeriod else {
            let grace = ConfigField.format(token.grace.milliseconds)
            let period = ConfigField.format(token.rotationPeriod.milliseconds)
            // Blame the field the user wrote: with graceMs left out, its default is too long.
            if t.has("graceMs") { throw t.error("graceMs", "must be shorter than rotationPeriodMs (\(period))") }
            throw t.error("rotationPeriodMs", "must be longer than graceMs (\(grace) unless set); set a shorter graceMs")
        }
    }
}
