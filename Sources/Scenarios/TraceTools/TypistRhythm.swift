/// The rhythm of a typist inside words and from one tap to the next, beyond the intervals of
/// `TypistProfile`'s contexts: the within-word interval's median multiplied by where the key
/// falls in the word, by the kind of letter pair and by the pair itself, and every typing
/// interval coupled to the one before it. Optional in a profile: without it the typist draws
/// as it always did. `keysim trace fit` measures it; the model and its sources are in
/// `docs/trace-format.md`, "The within-word rhythm".
public struct TypistRhythm: Sendable, Equatable {
    /// The correlation of consecutive typing intervals' normal scores (a Gaussian copula with
    /// an AR(1) latent chain), −0.9…0.9; 0 draws each interval on its own.
    public var serialCorrelation: Double
    /// The within-word median's multiplier by position in the word (second letter, inside,
    /// the word's end), in the order of `KeyPair.Position.allCases`.
    public var positionMultipliers: [Double]
    /// The within-word median's multiplier by kind of letter pair (repeated, same finger,
    /// same hand, alternating hands, unmapped), in the order of `KeyPair.DigraphClass.allCases`.
    public var classMultipliers: [Double]
    /// The within-word median's multiplier for frequent letter pairs (lower-case, two
    /// letters), on top of their kind's.
    public var digraphMultipliers: [String: Double]

    /// The names of the positions, as profile files spell them.
    public static let positionNames = KeyPair.Position.allCases.map(\.rawValue)
    /// The names of the kinds of letter pair, as profile files spell them.
    public static let classNames = KeyPair.DigraphClass.allCases.map(\.rawValue)
    /// The allowed range of a multiplier.
    public static let multiplierRange = 0.05...20.0
    /// The allowed range of `serialCorrelation`.
    public static let serialCorrelationRange = -0.9...0.9

    /// A rhythm; every multiplier not given is 1.
    /// - Precondition: the arrays are empty or have one entry per position and per kind.
    public init(serialCorrelation: Double = 0, positionMultipliers: [Double] = [], classMultipliers: [Double] = [],
                digraphMultipliers: [String: Double] = [:]) {
        precondition(Self.serialCorrelationRange.contains(serialCorrelation), "serial correlation out of range")
        self.serialCorrelation = serialCorrelation
        self.positionMultipliers = positionMultipliers.isEmpty
            ? Array(repeating: 1, count: KeyPair.Position.allCases.count) : positionMultipliers
        self.classMultipliers = classMultipliers.isEmpty
            ? Array(repeating: 1, count: KeyPair.DigraphClass.allCases.count) : classMultipliers
        precondition(self.positionMultipliers.count == KeyPair.Position.allCases.count, "one multiplier per position")
        precondition(self.classMultipliers.count == KeyPair.DigraphClass.allCases.count, "one multiplier per kind of pair")
        self.digraphMultipliers = digraphMultipliers
    }

    /// Whether any multiplier differs from 1.
    public var hasMultipliers: Bool {
        positionMultipliers.contains { $0 != 1 } || classMultipliers.contains { $0 != 1 } || !digraphMultipliers.isEmpty
    }

    /// The multiplier of the within-word interval before the key of `pair`.
    func multiplier(of pair: KeyPair) -> Double {
        var factor = positionMultipliers[KeyPair.Position.allCases.firstIndex(of: pair.position)!]
        if let kind = pair.digraphClass { factor *= classMultipliers[KeyPair.DigraphClass.allCases.firstIndex(of: kind)!] }
        if let digraph = pair.digraph, let own = digraphMultipliers[digraph] { factor *= own }
        return factor
    }
}
