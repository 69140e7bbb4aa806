/// The extension's process state that the keyboard model owns: memory footprint, loaded
/// and downloaded language files, an ongoing cold restart with the keys it holds, and the
/// device token. `KeyboardSimulation+Extension.swift` carries out its rules.
struct ExtensionState {
    /// Events of the extension's life, wrapped in the simulation's `Event.lifecycle`.
    enum Event {
        case restartDone
        case downloadEnded(download: Int)
        case tokenAnswer(request: Int, attempt: SimTime, verdict: DeviceTokenModel.Verdict)
        case tokenRetry(request: Int)
    }

    /// A key whose handling waits for the restart.
    struct HeldKey {
        var index: Int
        var edit: KeyboardSimulation.PendingEdit
        var touch: SimTime
    }

    /// A download in progress.
    struct Download {
        var id: Int
        var language: String
        var start: SimTime
        /// When bytes start arriving (after one round trip).
        var transferStart: SimTime
        var bytesPerSecond: Double
        var sizeBytes: Int
        var handle: TimerHandle
    }

    let memory: MemoryConfig
    let languages: LanguageFilesConfig
    let bundled: String
    var restartTimes: RandomStream
    var downloadTimes: RandomStream
    var tokenRoundTrips: RandomStream
    var token: DeviceTokenModel?

    /// The language the user is typing in.
    var current: String
    /// Loaded language files, in load order.
    var resident: [String] = []
    /// Words typed since the extension (re)started: they size the caches.
    var wordsSinceStart = 0
    /// The cache size last recorded, in whole megabytes (rows only at each new megabyte).
    var cacheMegabytesRecorded = 0
    /// Bytes on disk per downloaded language (partial files included). Looked up by name
    /// on switches only, never iterated.
    var disk: [String: Int] = [:]
    /// Languages whose loaded model is corrupt (loaded from a partial file without verification).
    var corruptLoaded: Set<String> = []
    /// Whether the language in use right now has a corrupt model (checked per suggestion).
    var currentIsCorrupt = false
    var downloads: [Download] = []
    /// Manifest entries looked up so far, with the digest of their complete content.
    private var entries: [String: (entry: LanguageFileEntry, completeDigest: String)] = [:]
    var nextDownloadID = 0

    /// Set while a cold restart runs.
    var restarting = false
    var held: [HeldKey] = []
    var pendingKill: KillRecord?
    var nextKillID = 0
    var totals = ExtensionTotals()

    init(keyboard: KeyboardConfig, header: TraceHeader?, tokenPrefix: String, stream: (String) -> RandomStream) {
        memory = keyboard.memory
        languages = keyboard.languages
        bundled = keyboard.languages.bundled ?? header?.language ?? "en"
        current = header?.language ?? bundled
        restartTimes = stream("extension.restart")
        downloadTimes = stream("language.download")
        tokenRoundTrips = stream("token.round-trip")
        if keyboard.token.enabled {
            token = DeviceTokenModel(config: keyboard.token, refreshDelays: stream("token.refresh"), tokenPrefix: tokenPrefix)
        }
    }

    /// The manifest entry of a language and the digest of its complete modelled content
    /// (computed once per language and replication).
    mutating func entry(for language: String) -> (sizeBytes: Int, sha256: String, completeDigest: String) {
        if let known = entries[language] { return (known.entry.sizeBytes, known.entry.sha256, known.completeDigest) }
        let entry = languages.entry(for: language)
        let complete = LanguageFileContent.digest(language: language, bytes: entry.sizeBytes)
        entries[language] = (entry, complete)
        return (entry.sizeBytes, entry.sha256, complete)
    }

    /// The caches' size now, MB.
    var cacheMegabytes: Double { min(Double(wordsSinceStart) * memory.cacheMegabytesPerWord, memory.cacheCapMegabytes) }

    /// The footprint now, MB (zero while restarting: the process is gone).
    var footprintMegabytes: Double {
        guard !restarting else { return 0 }
        return memory.baseMegabytes + memory.dictionaryMegabytes + memory.modelMegabytes
            + Double(resident.count) * memory.languageFileMegabytes + cacheMegabytes
    }

    /// Whether nothing is left pending.
    var isIdle: Bool { !restarting && held.isEmpty && downloads.isEmpty }

    /// Bytes of a download on disk at `time`.
    static func bytes(of download: Download, at time: SimTime) -> Int {
        guard time > download.transferStart else { return 0 }
        let seconds = Double((time - download.transferStart).nanoseconds) / 1e9
        return min(download.sizeBytes, Int((seconds * download.bytesPerSecond).rounded(.down)))
    }
}

extension MemoryConfig {
    /// What is wrong with the configuration, if anything: a restarted extension with one
    /// language file must fit under the limit, or it would be killed forever.
    public var problems: [String] {
        var out: [String] = []
        let cold = baseMegabytes + dictionaryMegabytes + modelMegabytes + languageFileMegabytes
        if cold >= limitMegabytes {
            out.append("base, dictionary, model and one language file (\(cold) MB) must stay under limitMb (\(limitMegabytes) MB)")
        }
        return out
    }
}
