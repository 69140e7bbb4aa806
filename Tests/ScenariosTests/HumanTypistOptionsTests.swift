import Foundation
import XCTest
import Sim
@testable import Scenarios

/// What `trace synth --typist` takes over from the simple typist: the slip rate
/// (`--typo-rate`), the touch spread (`--touch-spread`), the start language (`--language`)
/// with switches between scripts, keys off the keyboard, and dictation lines. Seed loops with
/// tolerances, like the typist's other tests.
final class HumanTypistOptionsTests: XCTestCase {
    private func script(_ text: String) -> SynthScript { SynthScript(segments: [.typed(text)]) }

    private func fitted(_ profile: TypistProfile, _ script: SynthScript, seed: UInt64) -> TypistProfile {
        let typist = HumanTypist(profile: profile)
        var fitter = TypistFitter()
        fitter.begin(TraceHeader(intendedText: typist.intendedText(of: script)))
        for event in typist.synthesize(script, seed: seed) { fitter.add(event) }
        fitter.finish()
        return fitter.fit(name: "fitted").profile
    }

    func testTheSlipRateComesOutAsSetAndZeroMeansNoSlips() {
        // 868 words, about 3,600 letters: 72 slips at 2 %, a standard error of 12 %.
        let text = Array(repeating: HumanTypistTests.messagesText, count: 2).joined(separator: "\n")
        for rate in [0.02, 0.06, 0.12] {
            var profile = TypistProfile.email
            profile.errors.slipRate = rate
            for seed: UInt64 in 1...3 {
                let fit = fitted(profile, script(text), seed: seed)
                XCTAssertEqual(fit.errors.slipRate, rate, accuracy: rate * 0.3, "rate \(rate), seed \(seed)")
            }
        }
        var clean = TypistProfile.chat
        clean.errors.slipRate = 0
        for seed: UInt64 in 1...5 {
            let events = HumanTypist(profile: clean).synthesize(script(HumanTypistTests.messagesText), seed: seed)
            XCTAssertFalse(events.contains { if case .backspace = $0.kind { return true } else { return false } }, "seed \(seed)")
            // Every key's text is the letter meant: a touch over a key boundary is the only typo left.
            var statistics = TraceStatistics(header: TraceHeader())
            for event in events { statistics.add(event) }
            XCTAssertEqual(statistics.finished().characterErrorsLeft, 0, "seed \(seed)")
        }
    }

    func testTouchesScatterByTheSetSpreadOnTheKeyMeant() {
        for spread in [0.0, 5, 8] {
            var profile = TypistProfile.chat
            profile.touchSpreadPoints = spread
            profile.errors.slipRate = 0
            for seed: UInt64 in 1...3 {
                var dx: [Double] = [], dy: [Double] = []
                for event in HumanTypist(profile: profile).synthesize(script(HumanTypistTests.messagesText), seed: seed) {
                    guard case let .key(text, up, point) = event.kind, let letter = text.first, letter.isLetter else { continue }
                    XCTAssertNotNil(up, "a touch is held")
                    let centre = KeyboardLayout.qwerty.key(for: Character(text.lowercased()))!.center
                    guard let point else { return XCTFail("a letter without a touch point") }
                    dx.append(point.x - centre.x)
                    dy.append(point.y - centre.y)
                }
                for deviations in [dx, dy] {
                    let mean = deviations.reduce(0, +) / Double(deviations.count)
                    let sd = (deviations.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(deviations.count)).squareRoot()
                    XCTAssertEqual(mean, 0, accuracy: max(0.05, spread * 0.1), "spread \(spread), seed \(seed)")
                    XCTAssertEqual(sd, spread, accuracy: max(0.05, spread * 0.08), "spread \(spread), seed \(seed)")
                }
            }
        }
    }

    func testScriptsSwitchTheLanguageFromTheStartLanguageAndEmojiHaveNoTouch() {
        let text = "Ok 👋 Да, всё.\nДима says hi 👍🏽\nПока!"
        var profile = TypistProfile.chat
        profile.errors.slipRate = 0
        profile.suggestions.pickRate = 0
        profile.touchSpreadPoints = 0
        for (start, expected) in [("en", ["ru", "en", "ru"]), ("en-GB", ["ru", "en-GB", "ru"]), ("ru", ["en", "ru", "en", "ru"])] {
            profile.language = start
            for seed: UInt64 in 1...4 {
                let events = HumanTypist(profile: profile).synthesize(script(text), seed: seed)
                let switches = events.compactMap { event -> String? in
                    if case .languageSwitch(let tag) = event.kind { return tag } else { return nil }
                }
                XCTAssertEqual(switches, expected, "start \(start), seed \(seed)")
                var language = start
                for event in events {
                    switch event.kind {
                    case .languageSwitch(let tag):
                        language = tag
                    case let .key(typed, _, point):
                        let letter = typed.first!
                        if letter.isLetter {
                            // Each letter on the layer of the language the keyboard is in, at the key's centre.
                            let layout: KeyboardLayout = TypingLanguages.isCyrillicLanguage(language) ? .russian : .qwerty
                            let key = Planner.key(for: Character(typed.lowercased()), letterLayout: layout).key
                            XCTAssertNotNil(key, "'\(typed)' in \(language), start \(start), seed \(seed)")
                            XCTAssertEqual(point, key?.center, "'\(typed)' in \(language), seed \(seed)")
                        } else if typed == "👋" || typed == "👍🏽" {
                            XCTAssertNil(point, "an emoji is not a key of the layout")
                        }
                    default:
                        break
                    }
                }
            }
        }
    }

    func testEachDictationIsAMessageOfItsOwnWithItsClip() {
        let clip: Int64 = 2_000_000_000
        let dictated = SynthScript(segments: [
            .typed("Running late, sorry.\n"),
            .dictation(audio: "clips/a.wav", transcript: "I will be there soon.", lengthNanos: clip),
            .typed("\nOrder for me?"),
        ])
        for seed: UInt64 in 1...5 {
            let typist = HumanTypist(profile: .chat)
            let events = typist.synthesize(dictated, seed: seed)
            let fields = events.compactMap { event -> FieldChange? in
                if case .field(let field) = event.kind { return field } else { return nil }
            }
            XCTAssertEqual(fields.compactMap(\.intendedText), ["Running late, sorry.", "I will be there soon.", "Order for me?"],
                           "seed \(seed)")
            let start = events.firstIndex { if case .dictationStart = $0.kind { return true } else { return false } }!
            XCTAssertEqual(events[start].kind, .dictationStart(audio: .wavFile(path: "clips/a.wav", transcript: "I will be there soon.")))
            XCTAssertEqual(events[start + 1].kind, .dictationStop)
            // The stop tap 0.4–0.9 s after the clip ends, as for the simple typist.
            let held = (events[start + 1].time - events[start].time).nanoseconds - clip
            XCTAssertTrue((400_000_000...900_000_000).contains(held), "seed \(seed): stop \(held) ns after the clip")
            XCTAssertEqual(typist.intendedText(of: dictated), "Running late, sorry.\nI will be there soon.\nOrder for me?")
        }
    }
}
