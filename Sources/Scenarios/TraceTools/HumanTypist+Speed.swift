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
        let typist = HumanTypist(profile: profile)
        return scaledTrace(of: script, messages: typist.messages(of: script), profile: profile, wordsPerMinute: wordsPerMinute,
                           seed: seed)
    }

    /// `scaledTrace(of:profile:wordsPerMinute:seed:)` of a script already split into its
    /// `messages` (scaling leaves how a profile splits a script alone).
    static func scaledTrace(of script: SynthScript, messages: [SynthScript], profile: TypistProfile, wordsPerMinute: Double,
                            seed: UInt64) -> (profile: TypistProfile, events: [TraceEvent]) {
        var typed = HumanTypist(profile: profile).session(typing: script, messages: messages, seed: seed, recordsTimeline: true)
        // Each further round only times the trace again, from the standard normals the first
        // drew; its events are built once, at the end, from the first's (moved, not copied).
        var timeline = typed.timeline.take()!
        let events = typed.events
        typed.events = []
        let speed = TypingSpeed(events)
        var scaled = profile
        var retimed: [Int64]?
        // Six rounds measure the trace and scale the profile; a seventh only times the trace
        // of the last scaling.
        for round in 0...6 {
            if round > 0 { retimed = timeline.eventTimes(of: scaled) }
            guard round < 6 else { break }
            let measured = retimed.map { times in speed.wordsPerMinute { times[$0] } }
                ?? speed.wordsPerMinute { events[$0].time.nanoseconds }
            guard let measured, measured > 0 else { break }
            let ratio = measured / wordsPerMinute
            if abs(ratio - 1) < 0.01 { break }
            scaled = scaled.scaled(by: ratio)
        }
        guard let retimed else { return (scaled, events) }
        return (scaled, HumanTypistSession.retimed(consume events, at: retimed))
    }
}
