import Foundation
import XCTest
import Sim
@testable import Scenarios

/// Scaling a typist to a speed, the fast way: the words-per-minute figure read straight from
/// the events is `TraceStatistics`'s, and the scaled trace is the one the scaled profile types.
final class TypingSpeedTests: XCTestCase {
    private static func text(_ name: String) -> String {
        try! String(contentsOf: PackageRoot.url.appendingPathComponent("traces/text/\(name)"), encoding: .utf8)
    }

    /// Scripts with messages, hides between them, slips, picks and a dictation.
    private static let scripts: [SynthScript] = [
        SynthScript(segments: [.typed(text("chat-session.txt"))]),
        SynthScript(segments: [.typed(text("short-messages.txt"))]),
        SynthScript(segments: [.typed("Hi! Are you coming tonight?\nOk"),
                               .dictation(audio: "clip.wav", transcript: "see you at eight", lengthNanos: 2_000_000_000),
                               .typed(" then.\nПривет, как дела?")]),
    ]

    private func statisticsSpeed(_ events: [TraceEvent]) -> Double? {
        var statistics = TraceStatistics(header: TraceHeader())
        for event in events { statistics.add(event) }
        return statistics.wordsPerMinute
    }

    func testTheSpeedReadFromTheEventsIsTheStatisticsSpeed() {
        var compared = 0
        for name in TypistProfile.presetNames {
            var profile = TypistProfile.preset(named: name)!
            profile.messages.hideProbability = 0.5
            for (index, script) in Self.scripts.enumerated() {
                for seed in UInt64(0)..<8 {
                    let events = HumanTypist(profile: profile).synthesize(script, seed: seed)
                    let expected = statisticsSpeed(events)
                    XCTAssertNotNil(expected, "\(name), script \(index), seed \(seed)")
                    XCTAssertEqual(TraceStatistics.wordsPerMinute(of: events), expected, "\(name), script \(index), seed \(seed)")
                    compared += 1
                }
            }
        }
        XCTAssertEqual(compared, 72)
        XCTAssertNil(TraceStatistics.wordsPerMinute(of: []))
        XCTAssertNil(TraceStatistics.wordsPerMinute(of: [TraceEvent(time: .zero, kind: .key(text: "a", touchUp: nil, point: nil))]))
    }

    func testTheScaledTraceIsWhatTheScaledProfileTypesAtTheSpeedAsked() {
        for name in TypistProfile.presetNames {
            let profile = TypistProfile.preset(named: name)!
            for (index, script) in Self.scripts.enumerated() {
                for (seed, speed) in [(UInt64(1), 22.0), (2, 36.2), (3, 71.5)] {
                    let scaled = HumanTypist.scaledTrace(of: script, profile: profile, wordsPerMinute: speed, seed: seed)
                    let context = "\(name), script \(index), seed \(seed), \(speed) WPM"
                    XCTAssertEqual(scaled.events, HumanTypist(profile: scaled.profile).synthesize(script, seed: seed), context)
                    XCTAssertEqual(scaled.profile, HumanTypist.profile(profile, scaledToWordsPerMinute: speed, script: script, seed: seed), context)
                    // Six rounds meet the speed within 1 %, or come close on a short script.
                    XCTAssertEqual(statisticsSpeed(scaled.events)! / speed, 1, accuracy: 0.05, context)
                }
            }
        }
    }
}
