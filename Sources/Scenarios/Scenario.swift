import Sim

/// A validated scenario: which traces to replay, how often, against which keyboard model.
public struct Scenario: Sendable, Equatable {
    /// A short name for reports.
    public var name: String
    /// What the scenario shows, for humans.
    public var description: String
    /// The scenario file it came from, as the user named it.
    public var path: String
    /// The seed of every random stream.
    public var seed: UInt64
    /// How many replications `run` does unless told otherwise.
    public var replications: Int
    /// What each replication replays: trace files (resolved relative to the scenario file)
    /// and populations, each drawing a session of its own per replication.
    public var traceEntries: [TraceEntry]
    /// The policy overlay applied, if any.
    public var policy: String?
    /// Names of the policies the file defines, sorted.
    public var policyNames: [String]
    /// How much of what a run measured its report keeps (scenario field `detail`).
    public var detail: ReportDetail = .default
    /// The keyboard model.
    public var keyboard: KeyboardConfig
    /// The configuration tree after policies and `--set` overrides, for hashing and display.
    public var resolvedConfig: ConfigValue
    /// The rules of `keysim gate` from the file's `gates` section (after policies and
    /// overrides); they do not change what a run measures, so `resolvedConfig` leaves them out.
    public var gates: [GateRule] = []
    /// The scenario's fleet (`keysim fleet`), nil when the file has no `fleet` section.
    public var fleet: FleetConfig?

    /// How each entry of `traces` is named: a file's path, a population's label. Set, it
    /// makes every entry a trace file.
    public var traces: [String] {
        get { traceEntries.map(\.label) }
        set { traceEntries = newValue.map(TraceEntry.file) }
    }

    /// Whether some entry of `traces` is a population.
    public var hasPopulation: Bool { traceEntries.contains { $0.file == nil } }

    /// The most replications one run may ask for.
    public static let replicationsMax = 100_000
}
