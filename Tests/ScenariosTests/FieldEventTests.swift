import Foundation
import XCTest
import Sim
@testable import Scenarios

/// The `field` event through the trace tools: the rebuilt text, `trace stats` (words over
/// fields, pauses, errors left by alignment), the anonymizer and the validator.
final class FieldEventTests: XCTestCase {
    private func key(_ text: String) -> TraceEvent.Kind { .key(text: text, touchUp: nil, point: nil) }
    private let backspace = TraceEvent.Kind.backspace(touchUp: nil, point: nil)

    /// Types `text` one character every `stepMs`, starting at `start`.
    private func typing(_ text: String, from start: Double, stepMs: Double = 200) -> [TraceEvent] {
        text.enumerated().map { index, c in
            TraceEvent(time: SimTime(milliseconds: start + Double(index) * stepMs), kind: key(String(c)))
        }
    }

    func testAFieldEventReplacesTheRebuiltText() {
        var text = ReplayedText()
        for c in "Hi there." { text.apply(key(String(c))) }
        text.apply(.field(FieldChange(.cleared)))
        XCTAssertEqual(text.text, "")
        XCTAssertEqual(text.cursorOffset, 0)
        text.apply(key("O"))
        text.apply(.field(FieldChange(.opened, text: "Dear Ann, ")))
        XCTAssertEqual(text.cursorOffset, 10)
        text.apply(key("h"))
        text.apply(.cursorMove(offset: -2))
        text.apply(backspace)
        XCTAssertEqual(text.text, "Dear Ann h")
    }

    func testStatsCountWordsOverFieldsAndErrorsLeftByAlignment() {
        // Field 1 intends "Hi there." and types "Hi tehre." (one word wrong); field 2 opens
        // with "Re: " and intends "Re: see you soon", typed with "you" left out and "soon"
        // merged: "Re: see yousoon" (two word errors by alignment: "yousoon" for "you soon").
        var statistics = TraceStatistics(header: TraceHeader(intendedText: "Hi there."))
        var events = typing("Hi tehre.", from: 0)
        events.append(TraceEvent(time: SimTime(milliseconds: 4000), kind: .field(FieldChange(.opened, text: "Re: ",
                                                                                                intendedText: "Re: see you soon"))))
        events += typing("see yousoon", from: 6000)
        for event in events { statistics.add(event) }
        let s = statistics.finished()
        XCTAssertEqual(s.fieldCount, 2)
        XCTAssertEqual(s.words, 2 + 2, "the field's opening word is not counted")
        XCTAssertEqual(s.characters, 9 + 11)
        XCTAssertEqual(s.wordErrorsLeft, 1 + 2)
        XCTAssertEqual(s.intendedWordsCompared, 2 + 4)
        // Characters: "tehre" vs "there" is 2 substitutions; "yousoon" needs one space inserted.
        XCTAssertEqual(s.characterErrorsLeft, 2 + 1)
        XCTAssertEqual(s.charactersCompared, 9 + 16)
        // Gaps between edits: 200 ms while typing, 6000 - 1600 = 4400 ms across the field change.
        XCTAssertEqual(s.gapCounts, [1, 1, 1])
        XCTAssertEqual(s.longestGapNanos, 4_400_000_000)
        XCTAssertEqual(s.gapsPer100Words!.map { ($0 * 100).rounded() / 100 }, [25, 25, 25])
        XCTAssertEqual(s.finished().words, s.words, "finishing twice counts the last field once")
    }

    func testAFieldWithoutTypingOrIntendedTextIsNotCompared() {
        var statistics = TraceStatistics(header: TraceHeader(intendedText: "All of it"))
        statistics.add(TraceEvent(time: .zero, kind: .field(FieldChange(.cleared, intendedText: "Hi"))))
        for event in typing("Hi", from: 100) { statistics.add(event) }
        statistics.add(TraceEvent(time: SimTime(milliseconds: 900), kind: .field(FieldChange(.replaced, text: "x"))))
        for event in typing(" y", from: 1000) { statistics.add(event) }
        let s = statistics.finished()
        XCTAssertEqual(s.fieldCount, 2, "the empty first field is not counted")
        XCTAssertEqual(s.wordErrorsLeft, 0, "the empty first field and the field without an intended text are skipped")
        XCTAssertEqual(s.intendedWordsCompared, 1)
        XCTAssertEqual(s.wordErrorRate, 0)
        XCTAssertEqual(s.words, 1 + 1)
    }

    func testWordAlignmentCountsEachEditOnce() {
        XCTAssertEqual(WordAlignment.distance(typed: "the cat sat on the mat", intended: "the cat sat on the mat"), 0)
        XCTAssertEqual(WordAlignment.distance(typed: "thecat sat on the mat", intended: "the cat sat on the mat"), 2)
        XCTAssertEqual(WordAlignment.distance(typed: "the cat sat on mat", intended: "the cat sat on the mat"), 1)
        XCTAssertEqual(WordAlignment.distance(typed: "a the cat sat on the mat", intended: "the cat sat on the mat"), 1)
        XCTAssertEqual(WordAlignment.distance(typed: "", intended: "two words"), 2)
        XCTAssertEqual(WordAlignment.characterDistance(typed: "kitten", intended: "sitting"), 3)
    }

    func testTheAnonymizerScramblesAFieldsTexts() {
        var anonymizer = TraceAnonymizer(letterSeed: 5)
        let event = TraceEvent(time: .zero, kind: .field(FieldChange(.opened, text: "Dear Ann, ", intendedText: "Dear Ann, hi")))
        guard case .field(let field) = anonymizer.anonymize(event).kind else { return XCTFail("not a field event") }
        var text = TextAnonymizer(seed: 5)
        XCTAssertEqual(field.change, .opened)
        XCTAssertEqual(field.text, text.anonymize("Dear Ann, "))
        XCTAssertEqual(field.intendedText, text.anonymize("Dear Ann, hi"))
        XCTAssertNotEqual(field.text, "Dear Ann, ")
        // Word-keyed, as `trace anonymize` does: the same word is replaced alike in both texts.
        var words = TraceAnonymizer(seed: 5, traceDigest: "d")
        words.finishLearning()
        guard case .field(let keyed) = words.anonymize(event).kind else { return XCTFail("not a field event") }
        XCTAssertEqual(keyed.change, .opened)
        XCTAssertEqual(keyed.text.count, "Dear Ann, ".count)
        XCTAssertTrue(keyed.intendedText!.hasPrefix(keyed.text))
        XCTAssertFalse(keyed.text.contains("Dear") || keyed.text.contains("Ann"))
    }

    func testTheValidatorWarnsAboutTextOnAClearedField() throws {
        let directory = try TemporaryDirectory(prefix: "keysim-field")
        let path = directory.path("t.jsonl")
        let lines = [#"{"keysim":"trace","version":1}"#, #"{"t":0,"type":"field","change":"cleared","text":"x"}"#,
                     #"{"t":1,"type":"field","change":"opened","text":"x"}"#, #"{"t":2,"type":"field","change":"nope"}"#]
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data((lines.joined(separator: "\n") + "\n").utf8)))
        let result = TraceValidator.validate(path: path)
        XCTAssertEqual(result.problems.map(\.description), [
            "\(path):2:1: warning: a cleared field has no text; \"text\" is ignored (use \"opened\" or \"replaced\" for a field with text)",
            "\(path):4:32: error: unknown field change \"nope\" (expected cleared, replaced or opened)",
        ])
    }
}
