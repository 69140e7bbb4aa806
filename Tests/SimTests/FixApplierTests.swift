import XCTest
@testable import Sim

final class FixApplierTests: XCTestCase {
    func start(of word: String, in text: String) -> Int {
        text.utf8.distance(from: text.utf8.startIndex, to: text.range(of: word)!.lowerBound.samePosition(in: text.utf8)!)
    }

    func testLatinAndCyrillicNeverShowTheTrap() {
        for text in ["I thnik so", "я дуамю так"] {
            let word = text.contains("thnik") ? "thnik" : "дуамю"
            let fix = text.contains("thnik") ? "think" : "думаю"
            for strategy in OffsetStrategy.allCases {
                let outcome = FixApplier.apply(fix, replacing: word, at: start(of: word, in: text), in: text, strategy: strategy)
                XCTAssertFalse(outcome.corrupted, "\(strategy) on \(text)")
            }
        }
    }

    func testAnEmojiInTheWordBreaksTheUTF16Strategy() {
        let text = "so gr8👍 thanks"
        let word = "gr8👍"
        let at = start(of: word, in: text)
        let utf16 = FixApplier.apply("great👍", replacing: word, at: at, in: text, strategy: .utf16)
        XCTAssertTrue(utf16.corrupted)
        XCTAssertEqual(utf16.text, "sogreat👍 thanks", "deleteBackward ran 5 times for 4 clusters and ate the space")
        XCTAssertEqual(FixApplier.apply("great👍", replacing: word, at: at, in: text, strategy: .mixed).text, "so great👍 thanks")
    }

    func testAnEmojiAfterTheWordBreaksTheGraphemeStrategy() {
        let text = "I thnik so 😀 ok"
        let at = start(of: "thnik", in: text)
        let graphemes = FixApplier.apply("think", replacing: "thnik", at: at, in: text, strategy: .graphemes)
        XCTAssertTrue(graphemes.corrupted, graphemes.text)
        let mixed = FixApplier.apply("think", replacing: "thnik", at: at, in: text, strategy: .mixed)
        XCTAssertEqual(mixed.text, "I think so 😀 ok")
        XCTAssertFalse(mixed.corrupted)
    }

    func testMixedStrategyNeverCorruptsOverManyTexts() {
        var rng = TestRNG(state: 99)
        let pieces = ["a", "b", "ж", "é", "e\u{301}", "👍", "👍🏽", "👩‍👩‍👧", "🇫🇷", " ", "."]
        for seed in 0..<300 {
            var words: [String] = []
            for _ in 0..<(2 + rng.below(6)) {
                words.append((0..<(1 + rng.below(5))).map { _ in pieces[rng.below(9)] }.joined())
            }
            let text = words.joined(separator: " ")
            let index = rng.below(words.count)
            let at = words[..<index].reduce(0) { $0 + $1.utf8.count + 1 }
            let outcome = FixApplier.apply("fix", replacing: words[index], at: at, in: text, strategy: .mixed)
            XCTAssertFalse(outcome.corrupted, "seed \(seed): \(text) [\(words[index])]")
        }
    }
}
