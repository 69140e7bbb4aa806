/// The extension's process: its memory footprint and the system's kill above the limit,
/// the cold restart that holds the keys touched meanwhile, and the language files — bundled,
/// loaded from disk (checked against the manifest's SHA-256 or not) or downloaded on demand.
/// `docs/models.md` ("Memory, language files and the device token") states every rule.
///
/// The process decides when it is over its limit; the router then resets every component
/// (`ResetReason.kill`) and hands the kill record back through `killed(_:io:sink:)`.
struct ExtensionProcess: KeyboardComponent {
    /// The process's own events.
    enum Event {
        case restartDone
        case downloadEnded(download: Int)
    }

    /// What handling an event tells the router.
    enum Output {
        /// Nothing for anyone else.
        case none
        /// The footprint went over the limit: the system kills the extension now.
        case overLimit(footprintMegabytes: Double)
        /// The cold restart is over: these keys, held meanwhile, are handled now, in touch order.
        case restarted(heldKeys: [HeldKey])
    }

    /// A key whose handling waits for the restart.
    struct HeldKey {
        var index: Int
        var edit: PendingEdit
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
    let offlineFailure: SimDuration
    var restartTimes: RandomStream
    /// The job's memos, for the digests of language files.
    let caches: SimulationCaches

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

    init(keyboard: KeyboardConfig, header: TraceHeader?, caches: SimulationCaches, stream: (String) -> RandomStream) {
        precondition(keyboard.memory.problems.isEmpty, keyboard.memory.problems.joined(separator: "; "))
        memory = keyboard.memory
        languages = keyboard.languages
        offlineFailure = keyboard.network.offlineFailure
        bundled = keyboard.languages.bundled ?? header?.language ?? "en"
        current = header?.language ?? bundled
        restartTimes = stream("extension.restart")
        self.caches = caches
    }

    /// The manifest entry of a language and the digest of its complete modelled content
    /// (computed once per language and replication).
    mutating func entry(for language: String) -> (sizeBytes: Int, sha256: String, completeDigest: String) {
        if let known = entries[language] { return (known.entry.sizeBytes, known.entry.sha256, known.completeDigest) }
        // A language the manifest does not list has the digest of its modelled content: taken
        // from the job's memo rather than computed again by `LanguageFilesConfig.entry(for:)`.
        let listed = languages.manifest.first { $0.language == language }
        let complete = caches.languageFileDigest(language: language, bytes: listed?.sizeBytes ?? languages.defaultSizeBytes)
        let entry = listed ?? LanguageFileEntry(language: language, sizeBytes: languages.defaultSizeBytes, sha256: complete)
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

    func checkInvariants(io: KeyboardIO) {
        precondition(restarting == (pendingKill != nil), "a restart is pending exactly while a kill's record waits")
        precondition(restarting || held.isEmpty, "keys are held only while the extension restarts")
        precondition(Set(resident).count == resident.count, "a language file is loaded once")
        precondition(restarting || footprintMegabytes <= memory.limitMegabytes, "a running extension stays under its limit")
        precondition(corruptLoaded.isSubset(of: Set(resident)), "only a loaded language can be corrupt")
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
