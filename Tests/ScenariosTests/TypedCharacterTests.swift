import XCTest
import Sim
@testable import Scenarios

/// The typist's shortcuts give the answers of what they stand for: `TypedCharacter`'s split,
/// properties and keys those of `Array(text)`, `Character` and `Planner.key`; the typist's
/// line split that of `split(separator: "\n")`; `ReplayedText`'s kept clusters those of its
/// text, through random edits of random text (several seeds, the failing one printed).
final class TypedCharacterTests: XCTestCase {
    /// Pieces that make the hard cases: ASCII, CR LF, a line feed before a combining mark,
    /// letters with combining marks, precomposed and decomposed й, ё, ъ, Latin-1 and Latin
    /// Extended letters, Greek, a Kelvin sign, emoji with a skin tone and a ZWJ, flags, a
    /// prepended Arabic number sign, Hangul jamo, controls and other white space.
    static let pieces = ["a", "Z", "q", " ", "\n", "\r", "\r\n", "\t", "\u{0B}", "\u{1C}", "\u{85}", "\u{A0}", "\u{2003}",
                         ".", ",", "!", "?", "…", ";", ":", "7", "0", "½", "²", "e\u{301}", "é", "É", "ß", "ÿ", "Ÿ", "ő", "ǅ",
                         "й", "и\u{306}", "Й", "ё", "Ё", "ъ", "Ъ", "ж", "ї", "ԯ", "ω", "Ω", "\u{212A}", "\u{301}", "\u{200D}",
                         "👍", "👍🏽", "👩‍👩‍👧", "🇺🇸", "🇩", "\u{600}", "\u{1100}", "\u{1161}", "©", "@", "\"", "\\", "€", "中"]

    private static func randomText(_ random: inout RandomStream, length: Int) -> String {
        (0..<length).map { _ in pieces[random.nextInt(below: pieces.count)] }.joined()
    }

    func testTypedCharactersAnswerAsTheCharacterAndThePlannerDo() {
        for seed: UInt64 in 0..<40 {
            var random = RandomStream(seed: seed, replication: 0, name: "test.typedCharacter")
            let text = Self.randomText(&random, length: 60)
            let typed = TypedCharacter.characters(of: text)
            XCTAssertEqual(typed.map(\.character), Array(text), "seed \(seed)")
            for (c, expected) in zip(typed, Array(text)) {
                XCTAssertEqual(c.properties, TypedCharacter.Properties(of: expected), "seed \(seed): \(expected.unicodeScalars.map(\.value))")
                XCTAssertEqual(TypedCharacter(expected).properties, c.properties, "seed \(seed)")
                for (layout, onRussian) in [(KeyboardLayout.qwerty, false), (.russian, true)] {
                    let fast = c.key(onRussian: onRussian), slow = Planner.key(for: expected, letterLayout: layout)
                    XCTAssertTrue(fast.key == slow.key && fast.longPress == slow.longPress && fast.letterLayer == slow.letterLayer
                                  && fast.symbols == slow.symbols, "seed \(seed): \(expected) on \(layout.name)")
                }
            }
            XCTAssertEqual(HumanTypist.lines(of: text), text.split(separator: "\n", omittingEmptySubsequences: false), "seed \(seed)")
        }
        XCTAssertEqual(HumanTypist.lines(of: ""), [""])
        XCTAssertEqual(HumanTypist.lines(of: "a\r\nb\n\nc\n"), ["a\r\nb", "", "c", ""])
        XCTAssertEqual(TypedCharacter.characters(of: "a\r\n\u{301}b\n\u{301}").map(\.character), ["a", "\r\n", "\u{301}", "b", "\n", "\u{301}"])
    }

    func testSlipsLandOnTheNeighboursTheLayoutGives() {
        for layout in [KeyboardLayout.qwerty, .russian, .symbols] {
            for key in layout.characterKeys + [layout.space, layout.backspace] {
                var random = RandomStream(seed: 9, replication: 0, name: "test.neighbours")
                var reference = random
                for draw in 0..<12 {
                    // The draw as written before the neighbours were kept: weights summed, one
                    // integer below their total, walked in order.
                    let neighbours = layout.neighbours(of: key)
                    let total = neighbours.reduce(0) { $0 + $1.weight }
                    var expected: KeyboardLayout.Key?
                    if total > 0 {
                        var left = reference.nextInt(below: total)
                        expected = neighbours.first { left -= $0.weight; return left < 0 }?.key
                    }
                    XCTAssertEqual(Planner.pickNeighbour(of: key, on: layout, &random), expected, "\(layout.name) \(key.label) draw \(draw)")
                }
            }
        }
    }

    func testTheTextKeepsTheClustersBeforeItsCursorThroughEveryEdit() {
        for seed: UInt64 in 0..<40 {
            var random = RandomStream(seed: seed, replication: 1, name: "test.typedCharacter")
            var text = ReplayedText()
            for step in 0..<300 {
                switch random.nextInt(below: 10) {
                case 0..<6:
                    let inserted = Self.pieces[random.nextInt(below: Self.pieces.count)]
                    text.insert(inserted)
                case 6:
                    text.deleteBackward()
                case 7:
                    text.moveCursor(by: random.nextInt(below: 7) - 3)
                case 8:
                    text.replaceWordBeforeCursor(with: Self.randomText(&random, length: 3))
                default:
                    if random.nextInt(below: 10) == 0 { text.replaceField(with: Self.randomText(&random, length: 4)) }
                }
                let before = text.textBeforeCursor
                XCTAssertEqual(text.characterBeforeCursor, before.last, "seed \(seed) step \(step)")
                XCTAssertEqual(text.lastNonSpaceBeforeCursor, before.last { !$0.isWhitespace }, "seed \(seed) step \(step)")
                XCTAssertEqual(text.propertiesBeforeCursor, before.last.map(TypedCharacter.Properties.init(of:)), "seed \(seed) step \(step)")
            }
        }
    }
}
