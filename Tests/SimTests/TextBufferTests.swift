import XCTest
@testable import Sim

/// The byte-backed `TextBuffer` against the String-backed reference it replaced: random
/// edits over text that mixes ASCII with everything that makes grapheme clusters hard
/// (combining marks, skin tones, ZWJ families, flags, CR LF, a prepended mark, no-break
/// spaces), every answer compared after every edit.
final class TextBufferTests: XCTestCase {
    private static let pieces = [
        "a", "b", "e", "z", "Q", "7", " ", " ", " ", ".", ",", "!", "?", "'", "(", ")", "-", "\t", "\r", "\n", "\r\n",
        "é", "e\u{301}", "\u{301}", "👍", "🏽", "👩‍👩‍👧", "\u{200D}", "🇫", "🇷", "\u{00A0}", "\u{0600}", "ж", "中", "…",
    ]

    private func randomText(_ rng: inout RandomStream, pieces count: Int) -> String {
        (0..<count).map { _ in Self.pieces[rng.nextInt(below: Self.pieces.count)] }.joined()
    }

    func testAgreesWithTheStringBackedReferenceOnRandomEdits() {
        for seed in 0..<60 {
            var rng = RandomStream(seed: UInt64(seed), replication: 0, name: "text-buffer")
            var buffer = TextBuffer()
            var reference = ReferenceTextBuffer()
            for step in 0..<250 {
                let action = rng.nextInt(below: 100)
                let what: String
                let before = buffer.utf8
                switch action {
                case 0..<55:
                    // Mostly one piece, as a key types; now and then a paste.
                    let inserted = randomText(&rng, pieces: rng.nextInt(below: 8) == 0 ? 1 + rng.nextInt(below: 6) : 1)
                    buffer.insert(inserted)
                    reference.insert(inserted)
                    what = "insert \(inserted.debugDescription)"
                case 55..<80:
                    buffer.deleteBackward()
                    reference.deleteBackward()
                    what = "delete"
                case 80..<88:
                    let word = randomText(&rng, pieces: 1 + rng.nextInt(below: 4))
                    buffer.replaceCurrentWord(with: word)
                    reference.replaceCurrentWord(with: word)
                    what = "replace word \(word.debugDescription)"
                default:
                    let text = randomText(&rng, pieces: rng.nextInt(below: 20))
                    buffer.replaceAll(with: text)
                    reference.replaceAll(with: text)
                    what = "replace all \(text.debugDescription)"
                }
                let context = "seed \(seed) step \(step) (\(what)) text \(reference.text.debugDescription)"
                compare(buffer, reference, &rng, context)
                // What anchors and the cloud's view follow: the old bytes with `lastEdit` applied are the new ones.
                let edit = buffer.lastEdit
                XCTAssertEqual(Array(before[..<edit.atUTF8]) + buffer.utf8[edit.atUTF8..<(edit.atUTF8 + edit.insertedUTF8)]
                                   + before[(edit.atUTF8 + edit.removedUTF8)...], buffer.utf8, "lastEdit, \(context)")
                if buffer.text != reference.text { return }
            }
        }
    }

    private func compare(_ buffer: TextBuffer, _ reference: ReferenceTextBuffer, _ rng: inout RandomStream, _ context: String) {
        XCTAssertEqual(buffer.text, reference.text, context)
        XCTAssertEqual(buffer.count, reference.count, context)
        XCTAssertEqual(buffer.version, reference.version, context)
        XCTAssertEqual(buffer.tokenStarts, reference.tokenStarts, context)
        XCTAssertEqual(buffer.lastCharacter, reference.text.last, context)
        XCTAssertEqual(buffer.characterBeforeLast, reference.characterBeforeLast, context)
        XCTAssertEqual(buffer.endsToken, reference.endsToken, context)
        XCTAssertEqual(buffer.endsSentence, reference.endsSentence, context)
        XCTAssertEqual(buffer.endsWord, reference.endsWord, context)
        XCTAssertEqual(buffer.justEndedSentence, reference.justEndedSentence, context)
        let text = reference.text
        let boundaries = Set(text.indices.map { text.utf8.distance(from: text.startIndex, to: $0) })
        for ordinal in Set([reference.wordCount - 1, reference.wordCount - 2, rng.nextInt(below: max(1, reference.wordCount))]) {

            let token = buffer.token(ordinal)
            // A token can start inside a cluster: a joiner or a combining mark typed after a
            // space starts a token by itself but joins the space. The String-backed buffer
            // trapped on such a token (it trimmed the space's cluster off behind the token's
            // start) and cut the token before it short; the byte-backed one answers both on
            // the token's own text. Compare the others.
            if let start = token?.start, !boundaries.contains(start) { continue }
            if ordinal >= 0, ordinal + 1 < reference.wordCount, !boundaries.contains(reference.tokenStarts[ordinal + 1]) { continue }
            let expected = reference.token(ordinal)
            XCTAssertEqual(token?.start, expected?.start, "token \(ordinal), \(context)")
            XCTAssertEqual(token.map { String($0.text) }, expected.map { String($0.text) }, "token \(ordinal), \(context)")
            let expectedWord = expected.map { TextBuffer.word(in: $0.text, tokenStart: $0.start) }
            let word = buffer.wordRange(ofToken: ordinal)
            XCTAssertEqual(word?.lowerBound, expectedWord?.start, "word \(ordinal), \(context)")
            XCTAssertEqual(word.map { buffer.string(utf8: $0) }, expectedWord.map { String($0.text) }, "word \(ordinal), \(context)")
            if let expectedWord {
                // The word where it stands, and the same word one byte off.
                let text = String(expectedWord.text)
                XCTAssertEqual(buffer.hasWord(text, at: expectedWord.start), reference.hasWord(text, at: expectedWord.start),
                               "hasWord \(ordinal), \(context)")
                XCTAssertEqual(buffer.hasWord(text, at: expectedWord.start + 1), reference.hasWord(text, at: expectedWord.start + 1),
                               "hasWord \(ordinal) + 1, \(context)")
            }
        }
        let offset = rng.nextInt(below: buffer.utf8.count + 1)
        if reference.tokenStarts.allSatisfy(boundaries.contains) {
            XCTAssertEqual(buffer.tokenOrdinal(atOrAfterUTF8: offset), reference.tokenOrdinal(atOrAfterUTF8: offset),
                           "tokenOrdinal \(offset), \(context)")
        }
        let word = randomText(&rng, pieces: 1 + rng.nextInt(below: 2))
        let start = rng.nextInt(below: buffer.utf8.count + 1)
        XCTAssertEqual(buffer.hasWord(word, at: start), reference.hasWord(word, at: start),
                       "hasWord \(word.debugDescription) at \(start), \(context)")
    }

    func testOneASCIIByteIsAppendedInPlaceUnlessItCouldJoinTheLastCluster() {
        var buffer = TextBuffer()
        XCTAssertTrue(buffer.insertASCII(0x61))
        XCTAssertFalse(buffer.insertASCII(0x0A), "an LF may complete a CR LF pair")
        XCTAssertFalse(buffer.insertASCII(0xC3), "not ASCII")
        buffer.insert("\u{0600}")   // a prepended mark joins what follows it
        XCTAssertFalse(buffer.insertASCII(0x62))
        buffer.insert("b")
        XCTAssertEqual(buffer.count, 2)
        XCTAssertEqual(buffer.text, "a\u{0600}b")
        XCTAssertEqual(buffer.version, 3)
    }

    /// The byte-by-byte common prefix and suffix `replaceAll` takes for plain ASCII are the
    /// character-by-character ones: random pairs of texts sharing pieces, ASCII pieces only
    /// (LF and the rest of white space included, CR never).
    func testPlainASCIIAffixesAreTheCharacterAffixes() {
        let ascii = Self.pieces.filter { TextBuffer.isPlainASCII($0.utf8) }
        XCTAssertFalse(ascii.contains("\r") || ascii.contains("\r\n") || ascii.contains("é"))
        for seed in UInt64(0)..<300 {
            var rng = RandomStream(seed: seed, replication: 0, name: "plain-ascii-affixes")
            func text(_ count: Int) -> String { (0..<count).map { _ in ascii[rng.nextInt(below: ascii.count)] }.joined() }
            let shared = text(rng.nextInt(below: 6)), tail = text(rng.nextInt(below: 6))
            let old = shared + text(rng.nextInt(below: 4)) + tail
            let new = shared + text(rng.nextInt(below: 4)) + tail
            let affixes = TextBuffer.commonAffixesUTF8(ofPlainASCII: Array(old.utf8), new)
            XCTAssertEqual(affixes.prefix, TextBuffer.commonPrefixUTF8(old, new), "seed \(seed): \(old.debugDescription) → \(new.debugDescription)")
            XCTAssertEqual(affixes.suffix, TextBuffer.commonSuffixUTF8(old, new), "seed \(seed): \(old.debugDescription) → \(new.debugDescription)")
        }
    }
}
