import Foundation
import XCTest
import Sim
@testable import Scenarios

/// The human typist and its profiles: deterministic traces that validate, messages sent with
/// the field cleared, slips left at the profile's rate, profile files that round-trip and
/// report their errors with file, line and column.
final class HumanTypistTests: XCTestCase {
    static let root = PackageRoot.url

    static var messagesText: String {
        try! String(contentsOf: root.appendingPathComponent("traces/text/english-messages.txt"), encoding: .utf8)
    }

    private let chatText = "Hi! Are you coming tonight?\nI can bring the salad, or dessert if you prefer.\nSee you at eight then."

    private func script(_ text: String) -> SynthScript { SynthScript(segments: [.typed(text)]) }

    private func statistics(_ events: [TraceEvent], intended: String?) -> TraceStatistics {
        var statistics = TraceStatistics(header: TraceHeader(intendedText: intended))
        for event in events { statistics.add(event) }
        return statistics.finished()
    }

    func testTheSameSeedGivesTheSameTraceAndEachMessageIsAFieldOfItsOwn() {
        let typist = HumanTypist(profile: .chat)
        let events = typist.synthesize(script(chatText), seed: 4)
        XCTAssertEqual(events, typist.synthesize(script(chatText), seed: 4))
        XCTAssertNotEqual(events, typist.synthesize(script(chatText), seed: 5))
        XCTAssertTrue(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time }, "time in order")
        let fields = events.compactMap { event -> FieldChange? in
            if case .field(let field) = event.kind { return field }
            return nil
        }
        let lines = chatText.split(separator: "\n").map(String.init)
        XCTAssertEqual(fields, [FieldChange(.opened, intendedText: lines[0]), FieldChange(.cleared, intendedText: lines[1]),
                                FieldChange(.cleared, intendedText: lines[2]), FieldChange(.cleared)])
        XCTAssertEqual(events.first?.kind, .keyboardShown)
        XCTAssertEqual(events.last?.kind, .keyboardHidden)
        XCTAssertEqual(typist.intendedText(of: script(chatText)), chatText)
    }

    func testEveryMessageIsTypedAsMeantWithoutSlips() {
        var profile = TypistProfile.chat
        profile.errors.slipRate = 0
        profile.suggestions.pickRate = 0.5
        for seed: UInt64 in 0..<10 {
            let events = HumanTypist(profile: profile).synthesize(script(chatText), seed: seed)
            let s = statistics(events, intended: nil)
            XCTAssertEqual(s.fieldCount, 3, "seed \(seed)")
            // Each field, typed without slips, is its intended text: nothing left wrong.
            var compared = TraceStatistics(header: TraceHeader())
            for event in events { compared.add(event) }
            XCTAssertEqual(compared.finished().characterErrorsLeft, 0, "seed \(seed)")
            XCTAssertEqual(compared.finished().intendedWordsCompared, TextCounts.words(chatText), "seed \(seed)")
        }
    }

    func testSlipsLeftAndCorrectionsComeAtTheProfilesRates() {
        let text = Self.messagesText
        var profile = TypistProfile.copying
        profile.errors = .init(slipRate: 0.08, noticedInWordShare: 0.4, noticedAfterWordShare: 0.3, cursorFixShare: 0.5)
        let events = HumanTypist(profile: profile).synthesize(script(text), seed: 9)
        let s = statistics(events, intended: nil)
        let cursorMoves = events.filter { if case .cursorMove = $0.kind { return true } else { return false } }.count
        XCTAssertGreaterThan(cursorMoves, 10, "slips fixed by moving the cursor back and forth")
        // Slips left: 0.08 × 0.3 of the letters (about 80 % of the characters) stay wrong.
        XCTAssertEqual(s.characterErrorRate!, 0.08 * 0.3 * 0.8, accuracy: 0.008)
    }

    func testPresetsTypeAtTheirDocumentedSpeedAndPause() {
        let text = Self.messagesText
        let copying = statistics(HumanTypist(profile: .copying).synthesize(script(text), seed: 1), intended: nil)
        XCTAssertEqual(copying.wordsPerMinute!, 36.2, accuracy: 2.5, "Palin et al.'s mean speed")
        XCTAssertEqual(copying.characterErrorRate!, 0.023, accuracy: 0.008, "Palin et al.'s uncorrected errors")
        let chat = statistics(HumanTypist(profile: .chat).synthesize(script(text), seed: 1), intended: nil)
        XCTAssertGreaterThan(chat.gapsPer100Words![2], copying.gapsPer100Words![2], "chat pauses to compose")
        XCTAssertGreaterThan(chat.longestGapNanos, 5_000_000_000, "a reply read between messages")
        let email = HumanTypist(profile: .email).synthesize(script(text), seed: 1)
        XCTAssertEqual(email.filter { if case .field = $0.kind { return true } else { return false } }.count, 2,
                       "an email is one field, opened and sent")
    }

    func testScalingReachesTheRequestedSpeed() {
        let text = Self.messagesText
        let scaled = HumanTypist.profile(.chat, scaledToWordsPerMinute: 50, script: script(text), seed: 3)
        let s = statistics(HumanTypist(profile: scaled).synthesize(script(text), seed: 3), intended: nil)
        XCTAssertEqual(s.wordsPerMinute!, 50, accuracy: 0.5)
    }

    func testProfilesRoundTripThroughTheirFileAndStartFromPresets() throws {
        for name in TypistProfile.presetNames {
            let preset = TypistProfile.preset(named: name)!
            XCTAssertEqual(try TypistProfile.parse(preset.json5Text, path: "p.json5"), preset, name)
        }
        let custom = try TypistProfile.parse("""
        { preset: "chat", name: "sloppy", errors: { slipRate: 0.1 }, messages: { hideProbability: 1 } }
        """, path: "sloppy.json5")
        var expected = TypistProfile.chat
        expected.name = "sloppy"
        expected.errors.slipRate = 0.1
        expected.messages.hideProbability = 1
        XCTAssertEqual(custom, expected)
    }

    func testBadProfilesAreErrorsWithFileLineAndColumn() {
        let cases: [(String, String)] = [
            ("{ preset: \"chat\",\n  errors: { slipRate: 0.9 } }", "t.json5:2:23: error: errors.slipRate: must be between 0 and 0.5 (got 0.9)"),
            ("{ preset: \"texting\" }", "t.json5:1:11: error: preset: unknown value 'texting'; expected one of: chat, email, copying"),
            ("{ preset: \"chat\", contexts: { withinWord: { medianMs: 200, sigma: 0.4, pauseProbability: 0, mean: 3 } } }",
             "t.json5:1:99: error: contexts.withinWord.mean: unknown field 'mean'; known fields: hesitation, medianMs, pauseProbability, sigma"),
            ("{ preset: \"chat\", pauses: { maxMs: 500 } }", "t.json5:1:36: error: pauses.maxMs: must be greater than thresholdMs (1000)"),
            ("{ name: \"x\" }", "t.json5:1:1: error: missing required field 'contexts'"),
            ("{ name: ", "t.json5:1:9: error: unexpected end of file, expected a value"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try TypistProfile.parse(text, path: "t.json5"), text) { error in
                XCTAssertEqual("\(error)", message, text)
            }
        }
    }
}
