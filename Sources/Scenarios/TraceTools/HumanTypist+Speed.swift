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
    /// round measures the trace of the profile scaled so far; the round that meets the speed
    /// is the trace, so a fleet's session or a population's trace costs no synthesis more
    /// than its rounds.
    ///
    /// Only the first round types the script; the others time its trace again with the
    /// scaled typing intervals (`TypingTimeline`), the same trace a synthesis with the scaled
    /// profile writes, for the cost of the typing draws.
    public static func scaledTrace(of script: SynthScript, profile: TypistProfile, wordsPerMinute: Double,
                                   seed: UInt64) -> (profile: TypistProfile, events: [TraceEvent]) {
        let typed = HumanTypist(profile: profile).session(typing: script, seed: seed, recordsTimeline: true)
        let timeline = typed.timeline!
        // Each further round only times the trace again; its events are built once, at the end.
        func times(of scaled: TypistProfile) -> [Int64] {
            var session = HumanTypistSession(profile: scaled, seed: seed)
            return session.eventTimes(of: timeline)
        }
        let speed = TypingSpeed(typed.events)
        var scaled = profile
        var retimed: [Int64]?
        func trace() -> [TraceEvent] { retimed.map { HumanTypistSession.retimed(typed.events, at: $0) } ?? typed.events }
        for round in 0..<6 {
            if round > 0 { retimed = times(of: scaled) }
            let measured = retimed.map { times in speed.wordsPerMinute { times[$0] } }
                ?? speed.wordsPerMinute { typed.events[$0].time.nanoseconds }
            guard let measured, measured > 0 else {
                return (scaled, trace())
            }
            let ratio = measured / wordsPerMinute
            if abs(ratio - 1) < 0.01 { return (scaled, trace()) }
            scaled = scaled.scaled(by: ratio)
        }
        retimed = times(of: scaled)
        return (scaled, trace())
    }
}
