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

    /// On ASCII text and word without a CR, `apply` replaces the word byte by byte: what the
    /// text proxy's moves and deletions do character by character (`applyByCharacters`),
    /// for every strategy, and for fixes of any text (emoji and CR LF included).
    func testThePlainASCIIShortcutIsTheCharacterPath() {
        let words = ["I", "thnik", "so", "teh", "a", "", "don't", "e-mail", "x"]
        let fixes = ["think", "the", "", "great👍", "e\u{301}", "a\r\nb", "👩‍👩‍👧", "so"]
        let separators = [" ", "  ", ". ", "\n", "\t", ", "]
        for seed in UInt64(0)..<300 {
            var rng = RandomStream(seed: seed, replication: 0, name: "fix-applier-ascii")
            let count = 1 + rng.nextInt(below: 8)
            var text = "", starts: [(start: Int, word: String)] = []
            for _ in 0..<count {
                let word = words[rng.nextInt(below: words.count)]
                starts.append((text.utf8.count, word))
                text += word + separators[rng.nextInt(below: separators.count)]
            }
            let (start, word) = starts[rng.nextInt(below: starts.count)]
            let fix = fixes[rng.nextInt(below: fixes.count)]
            for strategy in OffsetStrategy.allCases {
                let fast = FixApplier.apply(fix, replacing: word, at: start, in: text, strategy: strategy)
                let full = FixApplier.applyByCharacters(fix, replacing: word, at: start, in: text, strategy: strategy)
                let context = "seed \(seed): \(word.debugDescription) → \(fix.debugDescription) in \(text.debugDescription), \(strategy)"
                XCTAssertEqual(Array(fast.text.utf8), Array(full.text.utf8), context)
                XCTAssertEqual(fast.corrupted, full.corrupted, context)
            }
        }
    }
}
