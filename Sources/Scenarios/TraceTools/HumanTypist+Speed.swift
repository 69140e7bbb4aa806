import Sim

extension HumanTypist {
    /// `profile` with its typing intervals scaled so that the trace of `script` types at
    /// `wordsPerMinute` as `trace stats` measures it (pauses over 5 s left out), within 1 %
    /// or after six rounds, whichever comes first.
    public static func profile(_ profile: TypistProfile, scaledToWordsPerMinute wordsPerMinute: Double,
                               script: SynthScript, seed: UInt64) -> TypistProfile {
        scaledTrace(of: script, profile: profile, wordsPerMinute: wordsPerMinute, seed: seed).profile
    }

    /// The trace of `script` typed with `profile` scaled to `wordsPerMinute` (as
    /// `profile(_:scaledToWordsPerMinute:script:seed:)` scales it), and that profile. Each
    /// round synthesises the script once; the round that meets the speed is the trace, so
    /// a fleet's session or a population's trace costs one synthesis less than scaling
    /// first and typing after.
    public static func scaledTrace(of script: SynthScript, profile: TypistProfile, wordsPerMinute: Double,
                                   seed: UInt64) -> (profile: TypistProfile, events: [TraceEvent]) {
        var scaled = profile
        for _ in 0..<6 {
            let events = HumanTypist(profile: scaled).synthesize(script, seed: seed)
            guard let measured = TraceStatistics.wordsPerMinute(of: events), measured > 0 else { return (scaled, events) }
            let ratio = measured / wordsPerMinute
            if abs(ratio - 1) < 0.01 { return (scaled, events) }
            scaled = scaled.scaled(by: ratio)
        }
        return (scaled, HumanTypist(profile: scaled).synthesize(script, seed: seed))
    }
}
