import Foundation
import XCTest
import Sim
@testable import Scenarios

/// Anonymisation keeps the class and script of every letter, everything that is not a
/// letter or digit, and the consistency of a trace's texts; it depends only on the seed.
final class TraceAnonymizerTests: XCTestCase {
    private func shape(_ text: String) -> [String] {
        text.map { c -> String in
            if TextAnonymizer.isEmoji(c) || !(c.isLetter || c.isNumber) { return String(c) }
            let scalar = c.unicodeScalars.first!
            let marks = c.unicodeScalars.dropFirst().map { String($0.value, radix: 16) }.joined(separator: "+")
            let kind: String
            switch scalar.value {
            case 0x61...0x7A: kind = "latin-lower"
            case 0x41...0x5A: kind = "latin-upper"
            case 0x30...0x39: kind = "digit"
            case 0x430...0x44F, 0x451: kind = "ru-lower"
            case 0x410...0x42F, 0x401: kind = "ru-upper"
            case 0xAC00...0xD7A3: kind = (scalar.value - 0xAC00) % 28 == 0 ? "hangul-lv" : "hangul-lvt"
            default: kind = "\(scalar.value >> 7)-\(scalar.properties.generalCategory)"
            }
            return kind + marks
        }
    }

    func testEveryLetterKeepsItsClassAndEverythingElseStays() {
        let text = "Hello, Wörld! Привет, ЁЖИК ёж. Call 555-0199 at 7:30 👍🏽 1️⃣ 👩‍👩‍👧 e\u{301}e\u{301} Ωμέγα 日本語 한국어 — “ok”"
        var anonymizer = TextAnonymizer(seed: 42)
        let result = anonymizer.anonymize(text)
        XCTAssertNotEqual(result, text)
        XCTAssertEqual(shape(result), shape(text))
        XCTAssertEqual(result.count, text.count)
        XCTAssertEqual(result.unicodeScalars.count, text.unicodeScalars.count)
        for kept in ["👍🏽", "1️⃣", "👩‍👩‍👧", "—", "“ok”".first.map(String.init)!, ", ", "-", ":"] {
            XCTAssertTrue(result.contains(kept), kept)
        }
        XCTAssertEqual(result.unicodeScalars.filter { $0 == "\u{301}" }.count, 2, "both combining accents are kept")
    }

    func testTheMappingIsABijectionFixedBySeedAndConsistentAcrossCase() {
        var a = TextAnonymizer(seed: 7), b = TextAnonymizer(seed: 7), c = TextAnonymizer(seed: 8)
        let alphabet = "abcdefghijklmnopqrstuvwxyz"
        let mapped = a.anonymize(alphabet)
        XCTAssertEqual(Set(mapped).count, 26)
        XCTAssertEqual(a.anonymize(alphabet.uppercased()), mapped.uppercased())
        XCTAssertEqual(b.anonymize(alphabet), mapped)
        XCTAssertNotEqual(c.anonymize(alphabet), mapped)
        let russian = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
        XCTAssertEqual(Set(a.anonymize(russian)).count, 33)
        XCTAssertEqual(a.anonymize(russian.uppercased()), a.anonymize(russian).uppercased())
        XCTAssertEqual(Set(a.anonymize("0123456789")).count, 10)
        XCTAssertEqual(a.anonymize("hello hello"), b.anonymize("hello") + " " + b.anonymize("hello"))
    }

    func testAnAnonymisedTraceStillTypesAConsistentText() throws {
        var options = TypistModel.Options(wordsPerMinute: 50)
        options.typoRate = 0.1
        let script = SynthScript(segments: [
            .typed("Meet Дима at 9? Café e\u{301} 👍🏽 "),
            .dictation(audio: "clips/a.wav", transcript: "Sure, at nine", lengthNanos: 1_000_000_000),
        ])
        var events: [TraceEvent] = []
        TypistModel(options: options).synthesize(script, seed: 3) { events.append($0) }
        events.insert(TraceEvent(time: events[5].time, kind: .suggestionPicked(text: "Meeting")), at: 6)
        events.insert(TraceEvent(time: events[7].time, kind: .paste(text: " Дима 2")), at: 8)
        let header = TraceHeader(intendedText: script.intendedText, source: "test")

        var anonymizer = TraceAnonymizer(letterSeed: 99)
        let anonymousHeader = anonymizer.anonymize(header)
        let anonymous = events.map { anonymizer.anonymize($0) }
        XCTAssertEqual(anonymousHeader.source, "anonymized", "the source is free text: dropped")
        XCTAssertEqual(anonymous.map(\.time), events.map(\.time), "timing kept")

        func rebuild(_ events: [TraceEvent]) -> String {
            var text = ReplayedText()
            for event in events { text.apply(event.kind) }
            return text.text
        }
        var text = TextAnonymizer(seed: 99)
        XCTAssertEqual(rebuild(anonymous), text.anonymize(rebuild(events)))
        XCTAssertEqual(anonymousHeader.intendedText, text.anonymize(header.intendedText!))
        XCTAssertNotEqual(rebuild(anonymous), rebuild(events))
        for (original, changed) in zip(events, anonymous) {
            switch (original.kind, changed.kind) {
            case let (.key(_, up1, p1), .key(_, up2, p2)):
                XCTAssertEqual(up1, up2)
                XCTAssertEqual(p1, p2)
            case let (.dictationStart(.wavFile(path1, _)), .dictationStart(.wavFile(path2, _))):
                XCTAssertEqual(path1, path2, "audio paths stay")
            default:
                XCTAssertEqual(original.kind.wireName, changed.kind.wireName)
            }
        }
    }
}
