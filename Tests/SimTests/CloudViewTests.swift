import XCTest
@testable import Sim

/// `CloudView` against a plain list of the tokens the cloud saw, compared from the first
/// token every time: random edits anywhere in the text (the view hears only `lastEdit`),
/// comparisons, sends and failures, over many seeds.
final class CloudViewTests: XCTestCase {
    private static let pieces = ["a", "b", "ab", " ", " ", "  ", ".", ",", "é", "e\u{301}", "\u{301}", "👍", "🏽", "\n", "\u{00A0}"]

    /// The text's tokens, as bytes: content is compared byte for byte (`==` on strings would
    /// take canonically equivalent ones for equal).
    private func tokens(_ text: TextBuffer) -> [[UInt8]] {
        (0..<text.wordCount).map { text.tokenRange($0).map { Array(text.utf8[$0]) } ?? [] }
    }

    func testAgreesWithComparingEveryTokenFromTheFirst() {
        for seed in 0..<80 {
            var rng = RandomStream(seed: UInt64(seed), replication: 0, name: "cloud-view")
            var text = TextBuffer()
            var view = CloudView()
            var seen: [[UInt8]] = []
            var comparisons = 0
            for step in 0..<300 {
                let action = rng.nextInt(below: 100)
                switch action {
                case 0..<45: text.insert(Self.pieces[rng.nextInt(below: Self.pieces.count)])
                case 45..<60: text.deleteBackward()
                case 60..<65: text.replaceCurrentWord(with: "word")
                case 65..<68: text.replaceAll(with: text.text.replacingOccurrences(of: "a", with: "b"), cursorUTF8: 0)
                case 68..<78: text.moveCursor(byCharacters: rng.nextInt(below: 7) - 3)
                case 78..<95:
                    let finished = rng.nextInt(below: text.wordCount + 1)
                    let now = tokens(text)
                    var expected = 0
                    while expected < min(finished, seen.count) && now[expected] == seen[expected] { expected += 1 }
                    let first = view.firstDifference(in: text, finishedTokens: finished)
                    XCTAssertEqual(first, expected, "seed \(seed) step \(step): \(text.text.debugDescription)")
                    if first != expected { return }
                    comparisons += 1
                    if first < finished && rng.nextInt(below: 2) == 0 {
                        view.saw(text, tokens: first..<finished, ranges: (first..<finished).map(text.tokenRange))
                        seen = Array(now[..<finished])
                    } else {
                        view.compared(agreeing: first, text: text)
                    }
                default:
                    let ordinal = rng.nextInt(below: seen.count + 2)
                    view.forget(fromToken: ordinal)
                    seen = Array(seen.prefix(ordinal))
                }
                if action < 78 { view.follow(text.lastEdit) }
                XCTAssertEqual(view.tokens.map { Array($0.utf8) }, seen, "seed \(seed) step \(step)")
            }
            XCTAssertGreaterThan(comparisons, 20, "seed \(seed)")
        }
    }

    func testAFieldsOpeningTextCountsAsSeen() {
        var view = CloudView()
        view.reset(to: TextBuffer("See you  at\nnoon"))
        XCTAssertEqual(view.tokens, ["See", "you", "at", "noon"])
        XCTAssertEqual(view.firstDifference(in: TextBuffer("See  you at noon tomorrow"), finishedTokens: 5), 4)
    }
}
