/// One entry of a scenario's `traces`: a trace file replayed as it is, or a population from
/// which each replication draws a session of its own.
public enum TraceEntry: Sendable, Equatable {
    /// A trace file, resolved relative to the scenario.
    case file(String)
    /// A population of typists or of recorded traces.
    case population(TracePopulation)

    /// How reports and messages name the entry: the file's path, or the population's label.
    public var label: String {
        switch self {
        case .file(let path): path
        case .population(let population): population.label
        }
    }

    /// The population's content key (`TracePopulation.key`), when the entry is one.
    public var populationKey: String? {
        if case .population(let population) = self { population.key } else { nil }
    }

    /// The trace file, when the entry is one.
    public var file: String? {
        if case .file(let path) = self { path } else { nil }
    }
}
