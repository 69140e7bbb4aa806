/// Everything the keyboard model needs to know, with the seed keyboard's numbers as defaults.
///
/// Every parameter is documented in `docs/models.md`; scenario files set them by the same
/// names.
public struct KeyboardConfig: Sendable, Equatable {
    /// The extension's threads and queues, by name. "main" must exist: keys run there.
    public var threads: [ExecutorConfig] = [
        ExecutorConfig(name: "main", discipline: .fixedPriority),
        ExecutorConfig(name: "background"),
        ExecutorConfig(name: "model"),
    ]
    /// Where each kind of work runs and what it costs.
    public var work: [KeyboardWork: WorkConfig] = KeyboardWork.defaults
    /// Drop queued suggestion jobs for older text when a newer key lands.
    public var coalesceStaleSuggestions = true
    /// When to send text to the cloud checker.
    public var debounce: DebouncePolicy = .seedDefault
    /// Which words the local checker flags.
    public var checker = CheckerConfig()
    /// The network between the keyboard and the cloud.
    public var network = NetworkConfig()
    /// The cloud LLM checker.
    public var cloud = CloudConfig()
    /// How underlines are shown and fixes applied.
    public var underlines = UnderlineConfig()
    /// Latency budgets; the first two are the seed's 10 ms per key and 200 ms per suggestion.
    public var budgets: [Budget] = Budget.defaults
    /// The dictation keyboard's pipeline, for traces with dictation taps.
    public var dictation = DictationConfig()
    /// The suggestion bar's dictionary and re-ranker, for the typing-quality metrics.
    public var typing = TypingConfig()
    /// The touch model (hit-testing with predicted-letter boundary shifts); off by default.
    public var touch = TouchConfig()
    /// The extension's memory footprint, its limit and cold restarts.
    public var memory = MemoryConfig()
    /// Language files: the bundled one and the manifest of downloadable ones.
    public var languages = LanguageFilesConfig()
    /// The device token requests carry (off by default).
    public var token = DeviceTokenConfig()
    /// The most simulated time and events one replication may take.
    public var limits = RunLimits()

    /// The seed keyboard.
    public init() {}

    /// The configuration of one kind of work.
    public func config(for kind: KeyboardWork) -> WorkConfig { work[kind] ?? KeyboardWork.defaults[kind]! }

    /// The budget for a metric, if one is set.
    public func budget(for metric: LatencyMetric) -> Budget? { budgets.first { $0.metric == metric } }
}

/// The kinds of work the keyboard extension does.
public enum KeyboardWork: String, Sendable, CaseIterable, Comparable {
    /// Handling a key: touch event to `insertText`.
    case key
    /// Looking up dictionary candidates for the current word.
    case lookup
    /// Re-ranking the candidates with the small local model.
    case rerank
    /// Drawing the suggestion bar or the chip strip above the keys.
    case draw
    /// The local checker looking at a finished word.
    case check
    /// The next-letter prediction for the touch model, after each landed edit (only when
    /// the touch model is on).
    case predict

    /// The seed keyboard: keys and drawing on the main thread (keys first), lookups and
    /// checks on a background queue, the re-ranker on its own queue.
    public static let defaults: [KeyboardWork: WorkConfig] = [
        .key: WorkConfig(thread: "main", priority: 10, cost: .lognormal(median: 2.5, p99: 8)),
        .lookup: WorkConfig(thread: "background", priority: 5, cost: .lognormal(median: 4, p99: 15)),
        .rerank: WorkConfig(thread: "model", priority: 5, cost: .lognormal(median: 20, p99: 80)),
        .draw: WorkConfig(thread: "main", priority: 8, cost: .lognormal(median: 0.8, p99: 3)),
        .check: WorkConfig(thread: "background", priority: 3, cost: .lognormal(median: 3, p99: 12)),
        // A table lookup, not a model run: beside the lookups rather than behind the re-ranker.
        .predict: WorkConfig(thread: "background", priority: 6, cost: .lognormal(median: 1.5, p99: 6)),
    ]

    /// The executor task kind code.
    public var code: UInt16 {
        // The position in `allCases`, plus one (kept in declaration order).
        switch self {
        case .key: 1
        case .lookup: 2
        case .rerank: 3
        case .draw: 4
        case .check: 5
        case .predict: 6
        }
    }

    /// The work kind of an executor task kind code.
    public init?(code: UInt16) {
        guard code >= 1, Int(code) <= Self.allCases.count else { return nil }
        self = Self.allCases[Int(code) - 1]
    }

    public static func < (a: KeyboardWork, b: KeyboardWork) -> Bool { a.code < b.code }
}

/// Where one kind of work runs and what it costs.
public struct WorkConfig: Sendable, Equatable {
    /// The thread (executor) name.
    public var thread: String
    /// Its priority on that thread (larger runs first under the `priority` discipline).
    public var priority: Int
    /// Its cost, milliseconds.
    public var cost: Distribution
    /// Creates a configuration.
    public init(thread: String, priority: Int, cost: Distribution) {
        self.thread = thread
        self.priority = priority
        self.cost = cost
    }
}

/// The local checker's verdict model.
public struct CheckerConfig: Sendable, Equatable {
    /// Share of true errors it flags.
    public var recall: Double = 0.8
    /// Share of correct words it flags anyway.
    public var falsePositiveRate: Double = 0.03
    /// Known words, lower-cased, for traces without intended text. Empty: no word is a true
    /// error unless the trace's intended text says so.
    public var lexicon: Set<String> = []
    /// Creates the default checker.
    public init() {}
}

/// What the cloud client does with pending work when the keyboard hides or the field changes.
public enum PendingWorkRule: String, Sendable, Equatable, CaseIterable {
    /// The pending debounce is cancelled and requests in flight are abandoned (their answers
    /// are ignored); their text is sent again after the next edit.
    case cancel
    /// The pending debounce fires at once; requests in flight go on.
    case send
    /// Nothing changes: timers run on and requests go on, as if the keyboard were still up.
    case keep
}

/// How underlines are shown and fixes applied.
public struct UnderlineConfig: Sendable, Equatable {
    /// Underline at once on the local verdict (the seed), or wait for the cloud.
    public var speculative = true
    /// An underline retracted within this time of being shown counts as a flicker.
    public var flickerWindow: SimDuration = .milliseconds(1_000)
    /// Share of confirmed chips the user accepts when the trace does not say.
    public var acceptanceRate: Double = 0
    /// Time from a chip being confirmed to the user accepting it.
    public var acceptanceDelay: Distribution = .lognormal(median: 1_500, p99: 6_000)
    /// How the fix computes offsets.
    public var offsets: OffsetStrategy = .mixed
    /// Creates the default.
    public init() {}
}

/// The units a fix counts in when it moves the cursor and deletes the old word.
public enum OffsetStrategy: String, Sendable, Equatable, CaseIterable {
    /// UTF-16 units for cursor moves, grapheme clusters for deletions: each API in its own
    /// unit. Never corrupts.
    case mixed
    /// Grapheme clusters for everything: right for `deleteBackward()`, wrong for cursor
    /// moves once an emoji stands between the word and the cursor.
    case graphemes
    /// UTF-16 units for everything: right for cursor moves, wrong for `deleteBackward()` as
    /// soon as the word itself holds an emoji or any character outside the BMP.
    case utf16
}

/// A measured latency that budgets can apply to.
public enum LatencyMetric: String, Sendable, Equatable, CaseIterable {
    /// Touch to text inserted.
    case key
    /// Touch to the suggestion bar showing suggestions for that text.
    case suggestion
    /// Word finished (boundary key touched) to its local underline drawn.
    case localUnderline = "local-underline"
    /// Word finished to the cloud confirming its local underline.
    case cloudConfirmation = "cloud-confirmation"
    /// Word finished to the cloud's verdict on its local underline, confirmed or retracted.
    case underlineVerdict = "underline-verdict"
    /// Request sent to its answer.
    case requestRoundTrip = "request-round-trip"
    /// Dictation: mic tap to recording (a cold start opens the app first).
    case dictationTapToRecording = "dictation-tap-to-recording"
    /// Dictation: stop tap to the text inserted (the seed: 60–80 ms, which feels instant).
    case dictationStopToText = "dictation-stop-to-text"
}

/// A latency budget: a limit and the share of items allowed over it.
public struct Budget: Sendable, Equatable {
    /// What it applies to.
    public var metric: LatencyMetric
    /// The limit.
    public var limit: SimDuration
    /// Share of items allowed over the limit before `--check` fails the run.
    public var allowedShare: Double
    /// Creates a budget.
    public init(metric: LatencyMetric, limit: SimDuration, allowedShare: Double) {
        self.metric = metric
        self.limit = limit
        self.allowedShare = allowedShare
    }

    /// The seeds' budgets: 10 ms per key, 200 ms per suggestion, 100 ms from a dictation's
    /// stop tap to its text.
    public static let defaults = [
        Budget(metric: .key, limit: .milliseconds(10), allowedShare: 0.01),
        Budget(metric: .suggestion, limit: .milliseconds(200), allowedShare: 0.05),
        Budget(metric: .dictationStopToText, limit: .milliseconds(100), allowedShare: 0.05),
    ]
}
