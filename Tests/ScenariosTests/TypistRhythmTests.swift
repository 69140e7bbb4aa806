import Foundation
import XCTest
import Sim
@testable import Scenarios

/// The typist's rhythm: letter pairs classed by keys and fingers, profile files that carry
/// it and round-trip, draws that leave every other stream alone, and a fit that gives back
/// the rhythm a trace was synthesised with.
final class TypistRhythmTests: XCTestCase {
    private func text(_ typed: String) -> ReplayedText {
        var text = ReplayedText()
        text.insert(typed)
        return text
    }

    private func key(_ c: String) -> TraceEvent.Kind { .key(text: c, touchUp: nil, point: nil) }

    func testLetterPairsAreClassedByKeyFingerAndHand() {
        XCTAssertEqual(KeyPair.digraphClass("e", "e"), .repeated)
        XCTAssertEqual(KeyPair.digraphClass("E", "e"), .repeated, "case does not change the key")
        XCTAssertEqual(KeyPair.digraphClass("e", "d"), .sameFinger, "e and d: the left middle finger")
        XCTAssertEqual(KeyPair.digraphClass("r", "g"), .sameFinger, "the left index finger takes two columns")
        XCTAssertEqual(KeyPair.digraphClass("a", "s"), .sameHand)
        XCTAssertEqual(KeyPair.digraphClass("t", "h"), .alternating)
        XCTAssertEqual(KeyPair.digraphClass("п", "р"), .alternating, "ЙЦУКЕН: п left index, р right index")
        XCTAssertEqual(KeyPair.digraphClass("ф", "я"), .sameFinger, "ЙЦУКЕН: the left little finger")
        XCTAssertEqual(KeyPair.digraphClass("a", "1"), .unmapped)
        XCTAssertEqual(KeyPair.digraphClass("a", "я"), .unmapped, "two scripts")
        XCTAssertEqual(KeyPair.digraphClass("é", "t"), .unmapped)

        XCTAssertEqual(KeyPair.of(key("h"), text: text("so t")), KeyPair(position: .second, digraphClass: .alternating, digraph: "th"))
        XCTAssertEqual(KeyPair.of(key("R"), text: text("so the")), KeyPair(position: .inside, digraphClass: .sameHand, digraph: "er"))
        XCTAssertEqual(KeyPair.of(key(" "), text: text("so ther")), KeyPair(position: .end, digraphClass: nil, digraph: nil))
        XCTAssertEqual(KeyPair.of(key(","), text: text("so ther")), KeyPair(position: .end, digraphClass: nil, digraph: nil))
        XCTAssertEqual(KeyPair.of(key("9"), text: text("4")), KeyPair(position: .second, digraphClass: .unmapped, digraph: nil))
        XCTAssertNil(KeyPair.of(key("t"), text: text("so ")), "not within a word")
        XCTAssertNil(KeyPair.of(.backspace(touchUp: nil, point: nil), text: text("so t")))
    }

    /// The copying preset with a rhythm and a within-word hesitation.
    static var rhythmic: TypistProfile {
        var profile = TypistProfile.copying
        profile.name = "rhythmic"
        profile[.withinWord].hesitation = .init(share: 0.06, medianMs: 650, sigma: 0.3)
        profile.rhythm = TypistRhythm(serialCorrelation: 0.35, positionMultipliers: [1.2, 1, 0.85],
                                      classMultipliers: [0.7, 1.4, 1.1, 0.9, 1], digraphMultipliers: ["th": 0.8, "he": 1.25])
        return profile
    }

    func testAProfileWithARhythmRoundTripsAndBadRhythmsAreErrors() throws {
        let profile = Self.rhythmic
        let text = profile.json5Text
        for fragment in ["    withinWord: { medianMs: 233, sigma: 0.45, pauseProbability: 0.002, hesitation: { share: 0.06, medianMs: 650, sigma: 0.3 } },",
                         "    serialCorrelation: 0.35,", "    positions: { second: 1.2, inside: 1, end: 0.85 },",
                         "    digraphClasses: { repeated: 0.7, sameFinger: 1.4, sameHand: 1.1, alternating: 0.9, unmapped: 1 },",
                         "      \"he\": 1.25, \"th\": 0.8,"] {
            XCTAssertTrue(text.contains(fragment), "missing '\(fragment)' in:\n\(text)")
        }
        XCTAssertEqual(try TypistProfile.parse(text, path: "r.json5"), profile)
        XCTAssertFalse(TypistProfile.copying.json5Text.contains("rhythm"), "a profile without one writes none")
        XCTAssertFalse(TypistProfile.copying.json5Text.contains("hesitation"))

        let partial = try TypistProfile.parse("{ preset: \"chat\", rhythm: { positions: { end: 0.9 } } }", path: "p.json5")
        XCTAssertEqual(partial.rhythm, TypistRhythm(positionMultipliers: [1, 1, 0.9]))
        XCTAssertTrue(partial.drawsWithRhythm)
        for preset in TypistProfile.presetNames {
            XCTAssertFalse(TypistProfile.preset(named: preset)!.drawsWithRhythm, "\(preset) draws as it always did")
        }

        let cases: [(String, String)] = [
            ("{ preset: \"chat\", rhythm: { serialCorrelation: 0.95 } }",
             "t.json5:1:48: error: rhythm.serialCorrelation: must be between -0.9 and 0.9 (got 0.95)"),
            ("{ preset: \"chat\", rhythm: { digraphs: { \"Th\": 0.9 } } }",
             "t.json5:1:47: error: rhythm.digraphs.Th: a letter pair is two lower-case letters, such as \"th\""),
            ("{ preset: \"chat\", rhythm: { positions: { middle: 2 } } }",
             "t.json5:1:50: error: rhythm.positions.middle: unknown field 'middle'; known fields: end, inside, second"),
            ("{ preset: \"chat\", contexts: { wordStart: { medianMs: 300, sigma: 0.5, pauseProbability: 0, hesitation: { share: 0.7, medianMs: 600, sigma: 0.3 } } } }",
             "t.json5:1:113: error: contexts.wordStart.hesitation.share: must be between 0 and 0.5 (got 0.7)"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try TypistProfile.parse(text, path: "t.json5"), text) { error in
                XCTAssertEqual("\(error)", message, text)
            }
        }
    }

    func testTheRhythmMovesOnlyTheTypingIntervals() {
        // Slips, suggestions, touches and holds come from their own streams: a rhythm changes
        // when each edit comes, not what it is or where it is touched.
        let script = SynthScript(segments: [.typed(HumanTypistTests.messagesText)])
        var plain = Self.rhythmic
        plain.rhythm = nil
        plain[.withinWord].hesitation = nil
        for seed: UInt64 in 1...3 {
            let rhythmic = HumanTypist(profile: Self.rhythmic).synthesize(script, seed: seed)
            XCTAssertEqual(rhythmic, HumanTypist(profile: Self.rhythmic).synthesize(script, seed: seed), "seed \(seed): deterministic")
            let before = HumanTypist(profile: plain).synthesize(script, seed: seed)
            XCTAssertEqual(rhythmic.map { Self.withoutTimes($0.kind) }, before.map { Self.withoutTimes($0.kind) }, "seed \(seed)")
            XCTAssertNotEqual(rhythmic.map(\.time), before.map(\.time), "seed \(seed)")
        }
    }

    /// An event without its touch-up time (which moves with the touch-down).
    private static func withoutTimes(_ kind: TraceEvent.Kind) -> TraceEvent.Kind {
        switch kind {
        case let .key(text, _, point): .key(text: text, touchUp: nil, point: point)
        case let .backspace(_, point): .backspace(touchUp: nil, point: point)
        default: kind
        }
    }

    func testFittingASynthesisedRhythmGivesItBack() {
        // 870 words: about 3,600 within-word intervals, a standard error of about 0.02 for the
        // serial correlation and 3 % for a kind's multiplier.
        let text = Array(repeating: HumanTypistTests.messagesText, count: 2).joined(separator: "\n")
        let script = SynthScript(segments: [.typed(text)])
        var truth = Self.rhythmic
        // Frequent pairs a quarter faster or slower than their kind.
        let pairs = ["th", "he", "in", "er", "an", "re", "on", "at", "en", "nd", "ti", "es", "or", "te", "ed", "is"]
        truth.rhythm!.digraphMultipliers = Dictionary(uniqueKeysWithValues: pairs.enumerated().map { ($1, $0 % 2 == 0 ? 0.8 : 1.25) })
        let typist = HumanTypist(profile: truth)
        for seed: UInt64 in 1...2 {
            var fitter = TypistFitter()
            fitter.begin(TraceHeader(intendedText: typist.intendedText(of: script)))
            for event in typist.synthesize(script, seed: seed) { fitter.add(event) }
            let fit = fitter.fit(name: "back").profile
            guard let rhythm = fit.rhythm, let hesitation = fit[.withinWord].hesitation else {
                return XCTFail("seed \(seed): no rhythm or hesitation fitted: \(fit.json5Text)")
            }
            XCTAssertEqual(rhythm.serialCorrelation, 0.35, accuracy: 0.06, "seed \(seed)")
            // The multipliers are centred differently from the truth's (the fit's median is
            // the mean log interval): compare the medians of each position and kind.
            func median(_ profile: TypistProfile, _ position: Int, _ kind: Int?) -> Double {
                let r = profile.rhythm!
                return profile[.withinWord].interval.medianMs * r.positionMultipliers[position] * (kind.map { r.classMultipliers[$0] } ?? 1)
            }
            for kind in 0..<4 {
                // Three standard errors of the kind's mean log interval, and a little for the
                // position's and the pairs' own effects.
                let n = fitter.records.filter { $0.pair?.digraphClass == KeyPair.DigraphClass.allCases[kind] }.count
                let tolerance = 3 * 0.45 / Double(n).squareRoot() + 0.03
                for position in 0..<2 {
                    XCTAssertEqual(log(median(fit, position, kind)), log(median(truth, position, kind)), accuracy: tolerance,
                                   "seed \(seed): \(TypistRhythm.positionNames[position]), \(TypistRhythm.classNames[kind]) (\(n) pairs)")
                }
            }
            XCTAssertEqual(median(fit, 2, nil), median(truth, 2, nil), accuracy: 0.06 * median(truth, 2, nil), "seed \(seed): the word's end")
            XCTAssertEqual(fit[.withinWord].interval.sigma, 0.45, accuracy: 0.05, "seed \(seed)")
            XCTAssertEqual(hesitation.share, 0.06, accuracy: 0.025, "seed \(seed)")
            XCTAssertEqual(hesitation.medianMs, 650, accuracy: 120, "seed \(seed)")
            // Shrunk towards their kind's, the pairs' own multipliers mostly keep their side of
            // 1 (a pair seen 20 times has a standard error of 0.1 against an effect of ±0.22),
            // and the slow pairs come out slower than the fast ones.
            XCTAssertFalse(rhythm.digraphMultipliers.isEmpty, "seed \(seed): the pairs' effects are kept")
            var rightSide = 0, slow = 0.0, fast = 0.0
            for (pair, multiplier) in truth.rhythm!.digraphMultipliers {
                let fitted = log(rhythm.digraphMultipliers[pair] ?? 1)
                if (fitted < 0) == (multiplier < 1) { rightSide += 1 }
                if multiplier < 1 { fast += fitted / 8 } else { slow += fitted / 8 }
            }
            XCTAssertGreaterThanOrEqual(rightSide, 12, "seed \(seed): pairs on the side of 1 of their truth")
            XCTAssertGreaterThan(slow - fast, 0.15, "seed \(seed): the slow pairs' mean log multiplier over the fast ones' (truth 0.45)")
        }
    }
}
