import XCTest
@testable import Sim

/// The text model under the underlines: chips that follow their words, words checked when
/// finished, ground truth by alignment, requests by content, the cursor, hiding and fields.
/// Every case steps through `KeyboardHarness`, which asserts after every event that every
/// open chip's word stands in the text at its offset.
final class UnderlineTextModelTests: XCTestCase {
    private func key(_ ms: Double, _ text: String) -> TraceEvent {
        TraceEvent(time: SimTime(milliseconds: ms), kind: .key(text: text, touchUp: nil, point: nil))
    }
    private func backspace(_ ms: Double) -> TraceEvent { TraceEvent(time: SimTime(milliseconds: ms), kind: .backspace(touchUp: nil, point: nil)) }
    private func event(_ ms: Double, _ kind: TraceEvent.Kind) -> TraceEvent { TraceEvent(time: SimTime(milliseconds: ms), kind: kind) }

    /// Types `typed`, one character every 100 ms from `fromMs`, then runs to the end.
    private func run(_ typed: String, intended: String, config: KeyboardConfig = .exact) throws -> KeyboardHarness {
        var harness = KeyboardHarness(config, intendedText: intended)
        try harness.type(typed, fromMs: 0)
        _ = harness.finish()
        return harness
    }

    func testEditingAnUnderlinedWordClosesItsChipAndChecksTheWordAgain() throws {
        var harness = KeyboardHarness(.exact, intendedText: "the cat sat.")
        try harness.type("teh ", fromMs: 0)
        harness.advance(to: SimTime(milliseconds: 350))
        XCTAssertEqual(harness.simulation.underlines.chips.values.map(\.word), ["teh"], "'teh' is underlined when finished")
        for ms in [400.0, 500, 600] { try harness.feed(backspace(ms)) }   // the space, then "h", then "e"
        try harness.type("he cat sat.", fromMs: 700)
        _ = harness.finish()
        XCTAssertEqual(harness.text, "the cat sat.")
        let chips = harness.sink.underlines
        XCTAssertEqual(chips.map(\.outcome), [.edited], "the chip closed when its word was edited, and no other chip opened")
        XCTAssertEqual(chips.first?.end.milliseconds, 502, "at the backspace that took its 'h' (touched 500, landed 502)")
        XCTAssertEqual(harness.simulation.underlines.counters.errorWordsFinished, 1, "'teh' was an error; 'the', 'cat', 'sat' were not")
        XCTAssertTrue(harness.simulation.underlines.chips.isEmpty)
    }

    func testABackspaceFinishesNothing() throws {
        var harness = KeyboardHarness(.exact, intendedText: "the cat")
        try harness.type("teh c", fromMs: 0)
        try harness.feed(backspace(600))   // back to "teh ": ends in a word and a space, but nothing was typed
        _ = harness.finish()
        XCTAssertEqual(harness.sink.tasks.filter { $0.kind == KeyboardWork.check.code }.count, 1, "only the space after 'teh' checked it")
        XCTAssertEqual(harness.simulation.underlines.counters.reflaggedWords, 0)
    }

    func testAMergedWordIsOneErrorAndTheWordsAfterItAreRight() throws {
        let harness = try run("see you at the eventon Monday ", intended: "see you at the event on Monday")
        let chips = harness.sink.underlines
        XCTAssertEqual(chips.count, 1, "only the merged word is an error: alignment, not position")
        XCTAssertEqual(chips.first?.wordOrdinal, 4)
        XCTAssertTrue(chips.first?.trueError == true)
    }

    func testASplitWordIsAnErrorAndTheRestIsRight() throws {
        let harness = try run("some thing new here ", intended: "something new here")
        let words = harness.sink.underlines.map { ($0.wordOrdinal, $0.trueError) }
        XCTAssertEqual(words.map(\.0), [0, 1], "'some' and 'thing' are wrong; 'new' and 'here' are right")
        XCTAssertTrue(words.allSatisfy(\.1))
    }

    func testAnExtraAndAMissingWordAffectOnlyThemselves() throws {
        let harness = try run("I really think so and you ", intended: "I think so and you too")
        XCTAssertEqual(harness.sink.underlines.map(\.wordOrdinal), [1], "'really' is extra; everything after it is right")
    }

    func testEditsLandAtTheCursorAndTheDebounceReadsTheTextBeforeIt() throws {
        var config = KeyboardConfig.exact
        config.debounce = .seedDefault
        var harness = KeyboardHarness(config, intendedText: "Hiz.")
        try harness.type("Hi. ", fromMs: 0)
        harness.advance(to: SimTime(milliseconds: 1200))
        XCTAssertEqual(harness.sink.requests.map(\.trigger), [.sentenceEnd])
        try harness.feed(event(2000, .cursorMove(offset: -2)))
        try harness.feed(key(2100, "z"))
        XCTAssertEqual(harness.text, "Hi. ", "the key has not landed yet")
        harness.advance(to: SimTime(milliseconds: 2102))
        XCTAssertEqual(harness.text, "Hiz. ")
        XCTAssertEqual(harness.simulation.io.text.cursorUTF8, 3, "the cursor moved past the inserted letter")
        try harness.feed(event(2500, .cursorMove(offset: 2)))
        _ = harness.finish()
        // Before the cursor: "Hiz", not a sentence end: the 2 s timer, armed at 2102 ms.
        XCTAssertEqual(harness.sink.requests.map(\.trigger), [.sentenceEnd, .idle])
        XCTAssertEqual(harness.sink.requests.last?.sent.milliseconds, 4102)
        XCTAssertEqual(harness.sink.requests.last?.words, 1, "only 'Hiz' changed")
        XCTAssertEqual(harness.sink.tasks.filter { $0.kind == KeyboardWork.check.code }.count, 2,
                       "'Hi' when its '.' was typed, 'Hiz' when the cursor left it")
    }

    func testAFixMovesTheCursorToTheWordsEndAndBack() throws {
        var config = KeyboardConfig.exact
        config.underlines.acceptanceRate = 1
        config.underlines.acceptanceDelay = .constant(1000)
        var harness = KeyboardHarness(config, intendedText: "I think so")
        try harness.type("I thik so ", fromMs: 0)
        try harness.feed(event(1000, .cursorMove(offset: -3)))   // "I thik |so "
        XCTAssertEqual(harness.simulation.io.text.cursorUTF8, 7)
        harness.advance(to: SimTime(milliseconds: 4000))
        XCTAssertEqual(harness.sink.fixes.map(\.applied), [true], "confirmed at 1652 ms, accepted a second later")
        XCTAssertEqual(harness.text, "I think so ")
        XCTAssertEqual(harness.simulation.io.text.cursorUTF8, 8, "back where it was, moved by the letter the fix added")
        _ = harness.finish()
    }

    func testHidingTheKeyboardCancelsThePendingRequestByDefault() throws {
        func requests(_ rule: PendingWorkRule) throws -> [Double] {
            var config = KeyboardConfig.exact
            config.cloud.whenHidden = rule
            var harness = KeyboardHarness(config)
            try harness.type("hello ", fromMs: 0)
            try harness.feed(event(700, .keyboardHidden))
            _ = harness.finish()
            return harness.sink.requests.map(\.sent.milliseconds)
        }
        XCTAssertEqual(try requests(.cancel), [], "the 400 ms timer armed at 502 ms never fires")
        XCTAssertEqual(try requests(.send), [700], "sent at once on hiding")
        XCTAssertEqual(try requests(.keep), [902], "the timer runs on")
    }

    func testAFieldChangeClosesTheOldFieldsChipsAndTheNewFieldHasItsOwnTruth() throws {
        var harness = KeyboardHarness(.exact, intendedText: "the cat")
        try harness.type("teh ", fromMs: 0)
        harness.advance(to: SimTime(milliseconds: 350))
        XCTAssertEqual(harness.simulation.underlines.chips.count, 1)
        try harness.feed(event(360, .field(FieldChange(.cleared, intendedText: "hi there"))))
        XCTAssertTrue(harness.simulation.underlines.chips.isEmpty)
        XCTAssertEqual(harness.text, "")
        try harness.type("hi tehre ", fromMs: 1000)
        _ = harness.finish()
        XCTAssertEqual(harness.sink.underlines.map(\.outcome), [.fieldChanged, .open])
        XCTAssertEqual(harness.sink.underlines.last?.wordOrdinal, 1, "'tehre' is wrong against the new field's text")
        XCTAssertTrue(harness.sink.underlines.last?.trueError == true)
        XCTAssertTrue(harness.sink.requests.allSatisfy { $0.sent.milliseconds > 360 }, "the old field's pending request was cancelled")
    }

    /// The text an accepted fix wrote is the old field's: after a field change, the same
    /// mistake at the same place in the new field gets its fix accepted too.
    func testAFieldChangeForgetsTheOldFieldsFixedText() throws {
        var config = KeyboardConfig.exact
        config.underlines.acceptanceRate = 1
        config.underlines.acceptanceDelay = .constant(1000)
        var harness = KeyboardHarness(config, intendedText: "I think so")
        try harness.type("I thik so ", fromMs: 0)
        harness.advance(to: SimTime(milliseconds: 4000))
        XCTAssertEqual(harness.text, "I think so ")
        XCTAssertEqual(harness.simulation.underlines.fixedSpans.map(\.start), [5], "the letter the fix wrote")
        try harness.feed(event(4100, .field(FieldChange(.opened, text: "I thik so ", intendedText: "I think so I think so"))))
        XCTAssertTrue(harness.simulation.underlines.fixedSpans.isEmpty, "the old field's fixed text is gone with it")
        try harness.type("I thik so ", fromMs: 5000)
        harness.advance(to: SimTime(milliseconds: 9000))
        _ = harness.finish()
        XCTAssertEqual(harness.sink.fixes.map(\.applied), [true, true])
        XCTAssertEqual(harness.text, "I thik so I think so ")
    }

    func testAFieldOpenedWithTextKeepsItUnsent() throws {
        var harness = KeyboardHarness(.exact)
        try harness.feed(event(0, .field(FieldChange(.opened, text: "Dear Sam, "))))
        try harness.type("thanks ", fromMs: 100)
        _ = harness.finish()
        XCTAssertEqual(harness.text, "Dear Sam, thanks ")
        XCTAssertEqual(harness.sink.requests.map(\.words), [1], "only 'thanks' is new to the cloud")
    }

    /// Random keys, spaces, punctuation, backspaces and cursor moves: after every event every
    /// open chip's word is in the text at its offset (the harness checks it).
    func testNoOpenChipEverSitsOnChangedText() throws {
        var config = KeyboardConfig.exact
        config.checker.falsePositiveRate = 0.5
        config.cloud.falsePositiveRate = 0.3
        config.underlines.acceptanceRate = 0.5
        config.underlines.acceptanceDelay = .constant(50)
        config.debounce = .fixed(delay: .milliseconds(150))
        for seed in UInt64(1)...30 {
            var random = RandomStream(seed: seed, replication: 0, name: "edits")
            var harness = KeyboardHarness(config, seed: seed, intendedText: "the quick brown fox jumps over the lazy dog")
            var time = 0.0
            for _ in 0..<300 {
                time += 20 + random.nextDouble() * 200
                let roll = random.nextDouble()
                let kind: TraceEvent.Kind
                switch roll {
                case ..<0.55: kind = .key(text: String(Array("etaoinshrdlu")[random.nextInt(below: 12)]), touchUp: nil, point: nil)
                case ..<0.7: kind = .key(text: " ", touchUp: nil, point: nil)
                case ..<0.75: kind = .key(text: [".", ",", "!"][random.nextInt(below: 3)], touchUp: nil, point: nil)
                case ..<0.88: kind = .backspace(touchUp: nil, point: nil)
                case ..<0.97: kind = .cursorMove(offset: random.nextInt(below: 9) - 4)
                default: kind = .suggestionPicked(text: "fox")
                }
                try harness.feed(TraceEvent(time: SimTime(milliseconds: time), kind: kind))
            }
            _ = harness.finish()
            XCTAssertTrue(harness.steps > 300, "seed \(seed)")
        }
    }
}
