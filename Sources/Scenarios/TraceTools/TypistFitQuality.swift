import Sim

/// How well a fitted profile reproduces its recordings: the recordings' figures beside those
/// of a resynthesis of the same texts by the fitted typist, `factor` times over (each time
/// with its own seed), with the two-sample Kolmogorov–Smirnov distance of their interval
/// distributions and whether the two can be told apart (`Fidelity`).
public struct TypistFitQuality: Sendable {
    /// The figures compared.
    public struct Figures: Sendable, Equatable {
        /// Net words per minute of typing (`trace stats`).
        public var wordsPerMinute: Double?
        /// Gaps between edits over 400 ms, 1 s and 2 s per 100 words.
        public var gapsPer100Words: [Double]?
        /// Characters left wrong per character compared.
        public var characterErrorRate: Double?
        /// Words left wrong per intended word compared.
        public var wordErrorRate: Double?
        /// Backspaces per tap.
        public var backspaceRate: Double?
        /// Words typed.
        public var words: Int

        /// The figures of a set of traces' statistics, pooled.
        public init(_ statistics: [TraceStatistics]) {
            let typing = statistics.reduce(Int64(0)) { $0 + $1.typingNanos }
            let net = statistics.reduce(0) { $0 + $1.netCharacters }
            wordsPerMinute = typing > 0 ? Double(net) / 5 / (Double(typing) / 60e9) : nil
            words = statistics.reduce(0) { $0 + $1.words }
            let counts = statistics.reduce([0, 0, 0]) { sum, s in zip(sum, s.gapCounts).map { $0 + $1 } }
            gapsPer100Words = words > 0 ? counts.map { Double($0) * 100 / Double(words) } : nil
            let compared = statistics.reduce(0) { $0 + $1.charactersCompared }
            characterErrorRate = compared > 0 ? Double(statistics.reduce(0) { $0 + $1.characterErrorsLeft }) / Double(compared) : nil
            let intended = statistics.reduce(0) { $0 + $1.intendedWordsCompared }
            wordErrorRate = intended > 0 ? Double(statistics.reduce(0) { $0 + $1.wordErrorsLeft }) / Double(intended) : nil
            let taps = statistics.reduce(0) { $0 + $1.keyTaps + $1.backspaceTaps }
            backspaceRate = taps > 0 ? Double(statistics.reduce(0) { $0 + $1.backspaceTaps }) / Double(taps) : nil
        }
    }

    /// The recordings' figures.
    public var recording: Figures
    /// The resynthesis' figures.
    public var resynthesis: Figures
    /// The KS distance of the within-word intervals; `nil` when either side has none.
    public var withinWordDistance: Double?
    /// The KS distance of all intervals within messages.
    public var allIntervalsDistance: Double?
    /// How much longer the resynthesis is than the recordings.
    public var factor: Int
    /// Whether the resynthesis can be told from the recordings (the KS test of within-word
    /// intervals, intervals over 400 ms, lag-1 correlation).
    public var fidelity: Fidelity

    /// Resynthesises the texts `recorded` measured with `profile`, `factor` times over, and
    /// compares.
    public static func evaluate(_ recorded: TypistFitter, profile: TypistProfile, factor: Int = 10,
                                seed: UInt64 = 1) -> TypistFitQuality {
        precondition(factor >= 1, "the resynthesis is at least as long as the recording")
        var recorded = recorded
        recorded.finish()
        let typist = HumanTypist(profile: profile)
        // One trace per repetition, each with its own seed: a field as long as the recording's,
        // not `factor` times longer, so that the errors left are compared field by field. What
        // the recording dictated is dictated again, not typed.
        var segments: [SynthScript.Segment] = []
        for (index, script) in recorded.scripts.enumerated() {
            if index > 0 { segments.append(.typed("\n")) }
            segments += script.segments
        }
        let script = SynthScript(segments: segments)
        var resynthesised = TypistFitter()
        for repetition in 0..<factor {
            resynthesised.begin(TraceHeader(intendedText: typist.intendedText(of: script)))
            for event in typist.synthesize(script, seed: seed &+ UInt64(repetition)) { resynthesised.add(event) }
        }
        resynthesised.finish()
        let allContexts = TypistProfile.Context.allCases.filter { $0 != .messageStart }
        return TypistFitQuality(
            recording: Figures(recorded.statistics), resynthesis: Figures(resynthesised.statistics),
            withinWordDistance: KolmogorovSmirnov.distance(recorded.samples(.withinWord), resynthesised.samples(.withinWord)),
            allIntervalsDistance: KolmogorovSmirnov.distance(allContexts.flatMap { recorded.samples($0) },
                                                             allContexts.flatMap { resynthesised.samples($0) }),
            factor: factor, fidelity: Fidelity(recorded: recorded, resynthesised: resynthesised))
    }
}
