import XCTest
import Sim
@testable import Scenarios

/// The human typist's shortcuts for its speed give the answers of what they stand for: a
/// context's index its place in `allCases`, a blank message's test `allSatisfy(\.isWhitespace)`,
/// an ASCII key typed as a byte the same text as its string (and the clusters before the
/// cursor that are one ASCII byte kept as that byte), and a trace timed again from the
/// standard normals its first typing drew the times of fresh streams.
final class TypistShortcutTests: XCTestCase {
    func testAContextsIndexIsItsPlaceInAllCases() {
        for (place, context) in TypistProfile.Context.allCases.enumerated() {
            XCTAssertEqual(context.index, place, "\(context)")
        }
    }

    func testABlankTextIsOneOfWhiteSpaceOnly() {
        let white = [" ", "\n", "\r", "\r\n", "\t", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{2003}", "\u{301}", "\u{200D}"]
        let pieces = white + TypedCharacterTests.pieces
        var blanks = 0
        for seed: UInt64 in 0..<400 {
            var random = RandomStream(seed: seed, replication: 0, name: "test.blank")
            // Mostly white space, so that both answers come up.
            let length = random.nextInt(below: 6)
            let text = (0..<length).map { _ in
                random.nextInt(below: 5) == 0 ? pieces[random.nextInt(below: pieces.count)] : white[random.nextInt(below: 5)]
            }.joined()
            XCTAssertEqual(HumanTypist.isBlank(text), text.allSatisfy(\.isWhitespace), "seed \(seed): \(text.unicodeScalars.map(\.value))")
            if HumanTypist.isBlank(text) { blanks += 1 }
        }
        XCTAssertGreaterThan(blanks, 20)
        XCTAssertLessThan(blanks, 380)
    }

    func testAnASCIIKeyTypedAsItsByteIsTypedAsItsString() {
        for seed: UInt64 in 0..<40 {
            var random = RandomStream(seed: seed, replication: 2, name: "test.typedCharacter")
            var byString = ReplayedText()
            var byByte = ReplayedText()
            for step in 0..<300 {
                let piece = TypedCharacterTests.pieces[random.nextInt(below: TypedCharacterTests.pieces.count)]
                switch random.nextInt(below: 10) {
                case 0..<7:
                    byString.insert(piece)
                    let typed = TypedCharacter(Character(piece))
                    let isASCII = piece.utf8.count == 1 && piece.utf8.first! < 0x80
                    XCTAssertEqual(typed.asciiByte, isASCII ? piece.utf8.first : nil, "seed \(seed): \(piece.unicodeScalars.map(\.value))")
                    if let byte = typed.asciiByte { byByte.insert(ascii: byte, piece) } else { byByte.insert(piece) }
                case 7:
                    byString.deleteBackward()
                    byByte.deleteBackward()
                case 8:
                    let offset = random.nextInt(below: 7) - 3
                    byString.moveCursor(by: offset)
                    byByte.moveCursor(by: offset)
                default:
                    byString.replaceWordBeforeCursor(with: piece)
                    byByte.replaceWordBeforeCursor(with: piece)
                }
                let context = "seed \(seed) step \(step)"
                XCTAssertEqual(byByte.text, byString.text, context)
                XCTAssertEqual(byByte.cursorOffset, byString.cursorOffset, context)
                XCTAssertEqual(byByte.characterBeforeCursor, byString.characterBeforeCursor, context)
                XCTAssertEqual(byByte.lastNonSpaceBeforeCursor, byString.lastNonSpaceBeforeCursor, context)
                XCTAssertEqual(byByte.propertiesBeforeCursor, byString.propertiesBeforeCursor, context)
                // A cluster that is one ASCII byte is kept as that byte (TypingContext reads it).
                func asciiByte(_ c: Character?) -> UInt8? { c.flatMap { $0.utf8.count == 1 ? $0.utf8.first : nil } }
                for text in [byByte, byString] {
                    let before = text.textBeforeCursor
                    XCTAssertEqual(text.asciiBeforeCursor, asciiByte(before.last), context)
                    XCTAssertEqual(text.lastNonSpaceASCII, asciiByte(before.last { !$0.isWhitespace }), context)
                }
            }
        }
        // Every ASCII character split from a text knows its byte.
        let ascii = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        for c in TypedCharacter.characters(of: ascii) {
            XCTAssertEqual(c.asciiByte.map { Character(Unicode.Scalar($0)) }, c.character)
        }
    }

    /// A layout's key for a character is the first character key whose label is the
    /// character in lower case (the search `key(for:)` stood for), over every scalar the
    /// typist's tables hold and the hard cases.
    func testALayoutsKeyIsTheFirstWithTheLowerCasedLabel() {
        let characters = (0..<0x530).compactMap { Unicode.Scalar(UInt32($0)).map(Character.init) }
            + TypedCharacterTests.pieces.map { Character($0) } + ["\u{212A}", "İ", "ẞ", "ǈ"]
        for layout in [KeyboardLayout.qwerty, .russian, .symbols] {
            for c in characters {
                let expected = c == " " ? layout.space : c == "\n" ? layout.returnKey
                    : layout.characterKeys.first { $0.label == String(c).lowercased() }
                XCTAssertEqual(layout.key(for: c), expected, "\(layout.name): \(c.unicodeScalars.map(\.value))")
            }
        }
    }

    /// Timing a recorded trace again from the standard normals its typing drew (as every round
    /// of scaling a typist does) gives the times of a fresh session of the scaled profile, also
    /// for a typist so slow that it redraws more intervals over the pause threshold than the
    /// recording did (and so continues the recorded timing stream).
    func testTimingFromTheRecordedNormalsIsTimingFromFreshStreams() {
        var extended = 0
        for (name, profile) in HumanTypistPinningTests.profiles {
            for seed: UInt64 in [3, 8] {
                let script = HumanTypistPinningTests.script
                let typed = HumanTypist(profile: profile).session(typing: script, seed: seed, recordsTimeline: true)
                var timeline = typed.timeline!
                let recorded = timeline.normals.count
                for factor in [1.0, 0.37, 0.8, 1.9, 2.4, 4.0] {
                    let scaled = profile.scaled(by: factor)
                    var fresh = HumanTypistSession(profile: scaled, seed: seed)
                    XCTAssertEqual(timeline.eventTimes(of: scaled), fresh.eventTimes(of: typed.timeline!),
                                   "\(name), seed \(seed), factor \(factor)")
                }
                if timeline.normals.count > recorded { extended += 1 }
            }
        }
        XCTAssertGreaterThan(extended, 0, "a slow typist continues the recorded timing stream")
    }
}
