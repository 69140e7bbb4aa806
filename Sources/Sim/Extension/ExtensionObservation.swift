/// Records of the extension's life: its memory footprint, kills and cold restarts,
/// language-file downloads and loads, and device-token rejections.
public enum ExtensionObservation: Sendable, Equatable {
    /// The footprint changed.
    case memory(MemoryEventRecord)
    /// The extension was killed and has restarted.
    case kill(KillRecord)
    /// A language-file download ended (complete or interrupted).
    case download(DownloadRecord)
    /// A language file was loaded, or refused after verification.
    case load(LanguageLoadRecord)
    /// The server refused a request's device token.
    case tokenRejection(TokenRejectionRecord)
    /// Totals of the replication, recorded once at its end.
    case totals(ExtensionTotals)
}

/// A part of the extension's memory footprint.
public enum MemoryComponent: String, Sendable, Equatable, CaseIterable {
    /// Code, UI and runtime.
    case base
    /// The word dictionary.
    case dictionary
    /// A language file.
    case language
    /// The re-ranking model.
    case model
    /// Caches that grow with typed words.
    case cache
    /// The whole process (a kill or a restart).
    case process
}

/// What changed the footprint.
public enum MemoryEventKind: String, Sendable, Equatable, CaseIterable {
    /// The extension started (base, dictionary, model and the bundled language).
    case start
    /// A language file was loaded.
    case load
    /// A language file was evicted on a switch.
    case evict
    /// The caches grew (recorded at every whole megabyte and at the cap).
    case grow
    /// The system killed the extension: the footprint drops to zero.
    case kill
    /// A cold restart finished.
    case restart
}

/// One change of the footprint.
public struct MemoryEventRecord: Sendable, Equatable {
    /// When.
    public var time: SimTime
    /// The footprint after the change, MB.
    public var footprintMegabytes: Double
    /// The component that changed.
    public var component: MemoryComponent
    /// What happened.
    public var event: MemoryEventKind
    /// The language file concerned, if any.
    public var language: String?
}

/// One kill and the cold restart after it.
public struct KillRecord: Sendable, Equatable {
    /// 0-based within the replication.
    public var id: Int
    /// When the system killed the extension.
    public var time: SimTime
    /// The footprint that went over the limit, MB.
    public var footprintMegabytes: Double
    /// The limit, MB.
    public var limitMegabytes: Double
    /// When the restarted extension was ready again.
    public var restarted: SimTime
    /// Tasks running or queued on the extension's threads, lost.
    public var tasksLost: Int
    /// Suggestion jobs lost.
    public var suggestionsLost: Int
    /// Local checks lost.
    public var checksLost: Int
    /// Open chips lost.
    public var chipsLost: Int
    /// Cloud requests abandoned in flight.
    public var requestsAbandoned: Int
    /// Downloads interrupted.
    public var downloadsInterrupted: Int
    /// Keys (by key index) handled only after the restart: those lost with the main
    /// thread's queue and those touched during the restart, in index order.
    public var keysHeld: [Int]
    /// How long the restart took.
    public var restartDuration: SimDuration { restarted - time }
}

/// How a download ended.
public enum DownloadOutcome: String, Sendable, Equatable, CaseIterable {
    /// Every byte arrived.
    case complete
    /// The network went away mid-transfer: a partial file is left.
    case offline
    /// The extension was killed mid-transfer: a partial file is left.
    case killed
}

/// One language-file download.
public struct DownloadRecord: Sendable, Equatable {
    /// 0-based within the replication.
    public var id: Int
    /// The language.
    public var language: String
    /// When it started.
    public var start: SimTime
    /// When it ended.
    public var end: SimTime
    /// The manifest size.
    public var sizeBytes: Int
    /// Bytes on disk at the end.
    public var bytes: Int
    /// How it ended.
    public var outcome: DownloadOutcome
}

/// What loading a language file came to.
public enum LoadOutcome: String, Sendable, Equatable, CaseIterable {
    /// The bundled file.
    case bundled
    /// A complete downloaded file (verified when verification is on).
    case loaded
    /// A partial file loaded without verification: a corrupt model, silently wrong.
    case corrupt
    /// Verification found a digest that does not match the manifest: deleted, downloaded again.
    case rejected
    /// No file on disk yet: a download started.
    case missing
}

/// One attempt to load a language file.
public struct LanguageLoadRecord: Sendable, Equatable {
    /// When.
    public var time: SimTime
    /// The language.
    public var language: String
    /// Bytes of the file on disk (0 when missing).
    public var bytesOnDisk: Int
    /// The manifest size.
    public var sizeBytes: Int
    /// Whether its SHA-256 was checked.
    public var verified: Bool
    /// The result.
    public var outcome: LoadOutcome
}

/// Why the server refused a token.
public enum TokenRejectionReason: String, Sendable, Equatable, CaseIterable {
    /// The token was rotated out and the grace window is over.
    case expired
    /// The user logged out: no token is accepted any more.
    case revoked
}

/// One refused request attempt.
public struct TokenRejectionRecord: Sendable, Equatable {
    /// The request.
    public var requestID: Int
    /// When the attempt left.
    public var attempt: SimTime
    /// When the refusal arrived.
    public var rejected: SimTime
    /// When the request was tried again with a refreshed token (nil: it failed, revoked).
    public var retry: SimTime?
    /// Why.
    public var reason: TokenRejectionReason
    /// The generation of the token the keyboard sent.
    public var keyboardGeneration: Int
    /// The server's current generation.
    public var serverGeneration: Int
    /// Latency the rejection added to the request: from the attempt to the retry (or the failure).
    public var added: SimDuration { (retry ?? rejected) - attempt }
}

/// Totals that have no row of their own.
public struct ExtensionTotals: Sendable, Equatable {
    /// The largest footprint, MB.
    public var peakFootprintMegabytes = 0.0
    /// Suggestion bars shown while a corrupt language model was in use.
    public var silentlyWrongSuggestions = 0
    /// Local checks finished while a corrupt language model was in use.
    public var silentlyWrongChecks = 0
    /// Creates zero totals.
    public init() {}
}

/// The extension records of one replication, as `ObservationBuffer` keeps them.
public struct ExtensionRecords: Sendable, Equatable {
    /// Footprint changes, in time order.
    public var memory: [MemoryEventRecord] = []
    /// Kills, in time order.
    public var kills: [KillRecord] = []
    /// Downloads, in the order they ended.
    public var downloads: [DownloadRecord] = []
    /// Language loads, in time order.
    public var loads: [LanguageLoadRecord] = []
    /// Token rejections, in the order they were resolved.
    public var tokenRejections: [TokenRejectionRecord] = []
    /// Totals.
    public var totals = ExtensionTotals()
    /// Creates an empty buffer.
    public init() {}

    /// Adds a record.
    public mutating func record(_ observation: ExtensionObservation) {
        switch observation {
        case .memory(let r): memory.append(r)
        case .kill(let r): kills.append(r)
        case .download(let r): downloads.append(r)
        case .load(let r): loads.append(r)
        case .tokenRejection(let r): tokenRejections.append(r)
        case .totals(let t): totals = t
        }
    }

    /// Corrupt models loaded.
    public var corruptLoads: Int { loads.count { $0.outcome == .corrupt } }
    /// Files refused by verification.
    public var verificationFailures: Int { loads.count { $0.outcome == .rejected } }
    /// The kill whose restart held key `index`, if any.
    public func kill(holding index: Int) -> KillRecord? { kills.first { $0.keysHeld.contains(index) } }
}
