import Foundation
import XCTest
import Sim
@testable import Scenarios

/// `trace anonymize`: nothing of the text survives that matching touch points to the layout,
/// frequency analysis or a known trace could recover; what the simulation needs stays.
final class WordAnonymizerTests: XCTestCase {
    private func anonymize(_ header: TraceHeader, _ events: [TraceEvent], seed: UInt64, digest: String)
        -> (TraceHeader, [TraceEvent]) {
        var anonymizer = TraceAnonymizer(seed: seed, traceDigest: digest, language: header.language)
        for event in events { anonymizer.learn(event) }
        anonymizer.finishLearning()
        let newHeader = anonymizer.anonymize(header)
        return (newHeader, events.map { anonymizer.anonymize($0) })
    }

    private func typed(_ text: String, from start: Double = 0) -> [TraceEvent] {
        text.enumerated().map { i, c in
            let point = KeyboardLayout.qwerty.key(for: c).map { TouchPoint(x: $0.center.x + 3, y: $0.center.y - 2) }
            return TraceEvent(time: SimTime(milliseconds: start + 100 * Double(i)), kind: .key(text: String(c), touchUp: nil, point: point))
        }
    }

    private func rebuild(_ events: [TraceEvent]) -> String {
        var text = ReplayedText()
        for event in events { text.apply(event.kind) }
        return text.text
    }

    private func words(_ text: String) -> [String] { text.split(whereSeparator: { !$0.isLetter }).map(String.init) }

    func testTypedWordsStillMatchOrMissTheWordsMeant() throws {
        // "teh" typed for "the", corrected later to "the"; "cat" right first time.
        var events = typed("teh cat ")
        events.append(TraceEvent(time: SimTime(milliseconds: 900), kind: .backspace(touchUp: nil, point: nil)))
        events += typed("sat", from: 1000)
        let header = TraceHeader(intendedText: "the cat sat", source: "test")
        let (newHeader, anonymous) = anonymize(header, events, seed: 1, digest: "d1")
        let typedWords = words(rebuild(anonymous)), meant = words(newHeader.intendedText!)
        XCTAssertEqual(typedWords.map(\.count), [3, 6])            // "teh", "catsat"
        XCTAssertEqual(meant.map(\.count), [3, 3, 3])
        XCTAssertNotEqual(typedWords[0], meant[0], "the typo stays a typo")
        XCTAssertEqual(anonymous.map(\.time), events.map(\.time))
        // A word typed as meant is replaced as the meant word is.
        let (again, plain) = anonymize(TraceHeader(intendedText: "Hello there, hello", source: "t"), typed("Hello there, hello"), seed: 1, digest: "d1")
        XCTAssertEqual(rebuild(plain), again.intendedText)
        XCTAssertEqual(words(again.intendedText!).map(\.count), [5, 5, 5])
        XCTAssertTrue(again.intendedText!.first!.isUppercase && again.intendedText!.contains(", "))
    }

    func testNoLetterMappingCarriesFromWordToWordOrTraceToTrace() throws {
        let text = "the quick brown fox jumps over the lazy dog and then the fox sleeps"
        let header = TraceHeader(intendedText: text, source: "t")
        let (a, _) = anonymize(header, typed(text), seed: 7, digest: "trace-a")
        let (b, _) = anonymize(header, typed(text), seed: 7, digest: "trace-b")
        let (a2, _) = anonymize(header, typed(text), seed: 7, digest: "trace-a")
        XCTAssertEqual(a.intendedText, a2.intendedText, "the same seed and trace give the same output")
        XCTAssertNotEqual(a.intendedText, b.intendedText, "another trace, another key")
        // Where "e" stands in the original, many different letters stand in the copy.
        let original = Array(text), copy = Array(a.intendedText!)
        let images = Set(original.indices.filter { original[$0] == "e" }.map { copy[$0] })
        XCTAssertGreaterThan(images.count, 4)
        // Repeated letters inside a word do not show: "sleeps" keeps no double letter more
        // often than chance; at least the per-position draws differ from a permutation.
        let knownA = zip(words(text), words(a.intendedText!)).map { $0 }
        let knownB = Dictionary(zip(words(text), words(b.intendedText!)), uniquingKeysWith: { x, _ in x })
        XCTAssertTrue(knownA.contains { knownB[$0.0] != $0.1 }, "a known trace does not decode another")
    }

    func testTouchPointsMoveWithTheirLetterToItsKey() throws {
        let text = "keystrokes are sensitive"
        let (_, anonymous) = anonymize(TraceHeader(intendedText: text, source: "t"), typed(text), seed: 3, digest: "d")
        for event in anonymous {
            guard case let .key(letter, _, point?) = event.kind else { continue }
            let key = try XCTUnwrap(KeyboardLayout.qwerty.key(for: Character(letter)))
            XCTAssertEqual(point.x, key.center.x + 3, accuracy: 1e-9, letter)
            XCTAssertEqual(point.y, key.center.y - 2, accuracy: 1e-9, letter)
        }
        XCTAssertNotEqual(rebuild(anonymous), text)
    }

    func testSuggestionsPastesAndTranscriptsFollowTheSameWords() throws {
        var events = typed("hel")
        events.append(TraceEvent(time: SimTime(milliseconds: 400), kind: .suggestionPicked(text: "hello")))
        events.append(TraceEvent(time: SimTime(milliseconds: 500), kind: .paste(text: " world 42")))
        events.append(TraceEvent(time: SimTime(milliseconds: 600), kind: .dictationStart(audio: .inline(
            onset: .zero, length: .milliseconds(10), transcript: " hello world"))))
        events.append(TraceEvent(time: SimTime(milliseconds: 700), kind: .dictationStop))
        let header = TraceHeader(intendedText: "hello world 42 hello world", source: "t")
        let (newHeader, anonymous) = anonymize(header, events, seed: 11, digest: "d")
        XCTAssertEqual(rebuild(anonymous), newHeader.intendedText)
        XCTAssertEqual(words(newHeader.intendedText!).count, 4)
        XCTAssertFalse(newHeader.intendedText!.contains("hello"))
    }
}
