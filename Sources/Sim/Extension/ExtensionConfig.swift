/// The extension's memory: what it holds, the limit iOS kills it at, and how long it takes
/// to come back. `docs/models.md` ("Memory, language files and the device token") has every
/// rule; the defaults keep an English-only keyboard under the seed's 60 MB.
public struct MemoryConfig: Sendable, Equatable {
    /// The footprint above which the system kills the extension, MB (reports: 48–66).
    public var limitMegabytes = 60.0
    /// The extension's own code, UI and runtime, MB.
    public var baseMegabytes = 22.0
    /// The word dictionary, MB.
    public var dictionaryMegabytes = 8.0
    /// One loaded language file, MB (the seed's 7.6).
    public var languageFileMegabytes = 7.6
    /// The re-ranking model, MB.
    public var modelMegabytes = 12.0
    /// Caches grow by this much per word typed since the extension started, MB.
    public var cacheMegabytesPerWord = 0.01
    /// The most the caches hold, MB.
    public var cacheCapMegabytes = 6.0
    /// On a language switch, keep the previous language's file loaded (fast switching back,
    /// more memory) or evict it.
    public var keepPreviousLanguage = true
    /// The time a cold restart takes after a kill, milliseconds.
    public var restart: Distribution = .lognormal(median: 400, p99: 1500)
    /// Creates the defaults.
    public init() {}
}

/// One downloadable language file.
public struct LanguageFileEntry: Sendable, Equatable {
    /// The language (BCP 47 tag, as in the trace's `language` events).
    public var language: String
    /// The file's size in bytes.
    public var sizeBytes: Int
    /// The SHA-256 of the file's (modelled) content, lower-case hex.
    public var sha256: String
    /// Creates an entry; the digest defaults to that of the modelled content.
    public init(language: String, sizeBytes: Int, sha256: String? = nil) {
        precondition(sizeBytes > 0, "a language file has at least one byte")
        self.language = language
        self.sizeBytes = sizeBytes
        self.sha256 = sha256 ?? LanguageFileContent.digest(language: language, bytes: sizeBytes)
    }
}

/// Language files: one bundled, the others downloaded on demand from a manifest.
public struct LanguageFilesConfig: Sendable, Equatable {
    /// The bundled language; nil means the trace header's language.
    public var bundled: String?
    /// The downloadable files. A language not listed gets an entry of
    /// `defaultSizeBytes` with the digest of its modelled content.
    public var manifest: [LanguageFileEntry] = []
    /// The size of a language file the manifest does not list (7.6 MiB).
    public var defaultSizeBytes = 7_969_177
    /// Check a file's SHA-256 against the manifest before loading it.
    public var verify = true
    /// Download speed in the network's good state, kilobits per second.
    public var goodKilobitsPerSecond = 8_000.0
    /// Download speed in the network's bad state, kilobits per second.
    public var badKilobitsPerSecond = 400.0
    /// Creates the defaults.
    public init() {}

    /// The manifest entry of a language.
    public func entry(for language: String) -> LanguageFileEntry {
        manifest.first { $0.language == language } ?? LanguageFileEntry(language: language, sizeBytes: defaultSizeBytes)
    }
}

/// The device token the container app issues and the server rotates.
public struct DeviceTokenConfig: Sendable, Equatable {
    /// Whether requests carry a token the server checks at all (off: the seed's defaults
    /// and every existing scenario behave as before).
    public var enabled = false
    /// The server issues a new token every period, counted from time zero.
    public var rotationPeriod: SimDuration = .milliseconds(86_400_000)
    /// After a rotation the server still accepts the previous token this long.
    public var grace: SimDuration = .milliseconds(60_000)
    /// Time from a rotation until the container app has stored the new token for the
    /// keyboard, milliseconds.
    public var refresh: Distribution = .lognormal(median: 2_000, p99: 20_000)
    /// When the user logs out: from then on the server accepts no token.
    public var logoutAt: SimTime?
    /// Creates the defaults (token model off).
    public init() {}
}
