import Sim

/// A population of people typing: each replication draws one session from it, so that the
/// replications of a run differ the way people do, not only the way the model's random
/// draws do. Either typists (presets or fitted profiles, with weights, speeds and texts),
/// each session synthesised by the human typist, or recorded traces, one picked per
/// replication. The scenario format is in docs/scenario-format.md ("Populations").
///
/// Every draw comes from the stream `population.<entry>.<key>` of (seed, replication): the
/// same replication draws the same session under every policy (common random numbers), and
/// two replications draw independently. The stream is keyed by the population's content
/// (`key`), not by how its files are named.
public struct TracePopulation: Sendable, Equatable {
    /// A typist of the population and what it types.
    public struct Typist: Sendable, Equatable {
        /// The typist as written: a preset's name or a profile file's path.
        public var name: String
        /// The profile.
        public var profile: TypistProfile
        /// The relative weight of this typist among the population's (any positive number).
        public var weight: Double
        /// The speed each session is scaled to, if any.
        public var wordsPerMinute: Speed?
        /// The texts a session of this typist types, one drawn per session.
        public var texts: [Text]
    }

    /// A typist's speed across sessions.
    public enum Speed: Sendable, Equatable {
        /// Every session at this net speed.
        case fixed(Double)
        /// Each session's speed drawn from a lognormal with this mean and standard deviation,
        /// rounded to 0.1 WPM and held within the typist's range (5 to 250 WPM).
        case lognormal(mean: Double, sd: Double)
    }

    /// A text to type.
    public struct Text: Sendable, Equatable {
        /// The file, resolved relative to the scenario; its dictation clips are relative to its folder.
        public var path: String
        /// Its script.
        public var script: SynthScript
    }

    /// What the population is made of.
    public enum Members: Sendable, Equatable {
        /// Typists, drawn by weight.
        case typists([Typist])
        /// Recorded trace files, drawn uniformly.
        case traces([String])
    }

    /// Its members.
    public var members: Members
    /// The first 16 hex digits of a SHA-256 over the population's content (profiles,
    /// weights, speeds, texts, trace contents): its streams' key.
    public var key: String
    /// Its 0-based place in the scenario's `traces`: two equal populations in one list draw
    /// apart.
    public var index: Int

    /// The most members a population may have.
    public static let membersMax = 10_000

    /// "population 1 (3 typists, 4 texts)" or "population 2 (12 traces in ../recordings)".
    public var label: String {
        switch members {
        case .typists(let typists):
            let texts = Set(typists.flatMap { $0.texts.map(\.path) }).count
            return "population \(index + 1) (\(Self.count(typists.count, "typist")), \(Self.count(texts, "text")))"
        case .traces(let files):
            return "population \(index + 1) (\(Self.count(files.count, "trace")))"
        }
    }

    static func count(_ n: Int, _ singular: String) -> String { "\(n) \(singular)\(n == 1 ? "" : "s")" }
}
