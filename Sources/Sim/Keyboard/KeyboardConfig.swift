/// Everything the keyboard model needs to know, with the seed keyboard's numbers as defaults.
public struct KeyboardConfig: Sendable, Equatable {
    /// The extension's main thread: key handling runs here.
    public var mainThread = ExecutorConfig(name: "main")
    /// Time the main thread spends handling one key (touch event to `insertText`).
    public var keyHandlingCost: Distribution = .lognormal(median: 2.5, p99: 8)
    /// When to send text to the cloud checker.
    public var debounce: DebouncePolicy = .seedDefault
    /// Network round trip to the cloud (milliseconds).
    public var networkRoundTrip: Distribution = .lognormal(median: 60, p99: 400)
    /// Time the cloud LLM takes to answer (the seed: about 300 ms).
    public var cloudService: Distribution = .lognormal(median: 300, p99: 900)
    /// Touch-to-inserted budget per key (the seed: 10 ms).
    public var keyLatencyBudget: SimDuration = .milliseconds(10)
    /// The share of keys allowed over `keyLatencyBudget` before `--check` fails a run.
    public var keyBudgetAllowedShare: Double = 0.01
    /// Touch-to-suggestions budget (the seed: 200 ms).
    public var suggestionLatencyBudget: SimDuration = .milliseconds(200)

    /// The seed keyboard.
    public init() {}
}

/// The random streams of the keyboard model, by name. A new component takes a new name,
/// so existing components keep their draws (common random numbers).
public enum KeyboardStream {
    /// Key handling costs.
    public static let keyHandling = "keyboard.key-handling"
    /// Network round trips.
    public static let network = "network.round-trip"
    /// Cloud service times.
    public static let cloud = "cloud.service"
}
