import XCTest
import Sim
@testable import Scenarios

/// A trace timed again from its timeline is the trace a synthesis with the scaled profile
/// writes, event for event, for every pinned profile (rhythm, hesitations, slips of every
/// fate, picks, hidden keyboards, Cyrillic, dictations) over seeds and factors; and scaling a
/// typist to a speed through timelines gives what scaling by synthesising every round gave.
final class TypingTimelineTests: XCTestCase {
    /// The scripts: the pinning tests' bilingual text with dictations, and English messages.
    private static let scripts = [
        HumanTypistPinningTests.script,
        SynthScript(segments: [.typed(HumanTypistTests.messagesText)]),
    ]

    func testARetimedTraceIsTheScaledProfilesSynthesis() {
        var compared = 0
        for (name, profile) in HumanTypistPinningTests.profiles {
            for (index, script) in Self.scripts.enumerated() {
                for seed: UInt64 in [0, 5, 27] {
                    let typed = HumanTypist(profile: profile).session(typing: script, seed: seed, recordsTimeline: true)
                    XCTAssertEqual(typed.events, HumanTypist(profile: profile).synthesize(script, seed: seed),
                                   "\(name), script \(index), seed \(seed): recording a timeline changed the trace")
                    for factor in [1.0, 0.37, 0.93, 1.0625, 2.4] {
                        let scaled = profile.scaled(by: factor)
                        var session = HumanTypistSession(profile: scaled, seed: seed)
                        let times = session.eventTimes(of: typed.timeline!)
                        let retimed = HumanTypistSession.retimed(typed.events, at: times)
                        var statistics = TraceStatistics(header: TraceHeader())
                        for event in retimed { statistics.add(event) }
                        XCTAssertEqual(TypingSpeed(typed.events).wordsPerMinute { times[$0] }, statistics.wordsPerMinute)
                        let expected = HumanTypist(profile: scaled).synthesize(script, seed: seed)
                        XCTAssertEqual(retimed, expected, "\(name), script \(index), seed \(seed), factor \(factor)")
                        compared += 1
                    }
                }
            }
        }
        XCTAssertEqual(compared, HumanTypistPinningTests.profiles.count * 2 * 3 * 5)
    }

    /// The scaling as it was before timelines: every round synthesises the script again.
    private static func scaledBySynthesis(_ script: SynthScript, profile: TypistProfile, wordsPerMinute: Double,
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

    func testScalingToASpeedIsScalingBySynthesisingEveryRound() {
        var rounds = 0
        for (name, profile) in HumanTypistPinningTests.profiles {
            for (index, script) in Self.scripts.enumerated() {
                for (seed, speed) in [(UInt64(1), 12.0), (2, 36.2), (9, 55.0), (4, 140.0)] {
                    let fast = HumanTypist.scaledTrace(of: script, profile: profile, wordsPerMinute: speed, seed: seed)
                    let reference = Self.scaledBySynthesis(script, profile: profile, wordsPerMinute: speed, seed: seed)
                    let context = "\(name), script \(index), seed \(seed), \(speed) WPM"
                    XCTAssertEqual(fast.profile, reference.profile, context)
                    XCTAssertEqual(fast.events, reference.events, context)
                    if fast.profile != profile { rounds += 1 }
                }
            }
        }
        // Most cases are scaled at least once, so the retimed rounds are what is compared.
        XCTAssertGreaterThan(rounds, HumanTypistPinningTests.profiles.count * 2 * 3)
    }
}
