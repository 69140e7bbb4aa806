import XCTest
@testable import Sim

final class WordAlignerTests: XCTestCase {
    /// A word of 4–9 letters made from `random`.
    private func word(_ random: inout RandomStream) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return String((0..<(4 + random.nextInt(below: 6))).map { _ in letters[random.nextInt(below: 26)] })
    }

    private func distance(typed: [String], intended: [String]) -> Int {
        var aligner = WordAligner(intendedText: intended.joined(separator: " "))
        if !typed.isEmpty { _ = aligner.verdict(ofWord: typed.count - 1) { typed[$0] } }
        return aligner.totalDistance
    }

    /// Texts corrupted by a known number of substitutions, insertions, deletions, merges and
    /// splits, each at least three words from the next: the alignment finds that number.
    func testTheAlignmentFindsTheNumberOfCorruptions() {
        for seed in UInt64(1)...200 {
            var random = RandomStream(seed: seed, replication: 0, name: "aligner")
            let intended = (0..<40).map { _ in word(&random) }
            let count = 1 + random.nextInt(below: 6)
            var typed = intended
            // Corrupt from the end so earlier positions stay valid; 6 words apart.
            var position = typed.count - 2
            var kinds: [String] = []
            for _ in 0..<count {
                switch random.nextInt(below: 5) {
                case 0: typed[position] = "q" + word(&random); kinds.append("substitution")
                case 1: typed.insert("x" + word(&random), at: position); kinds.append("insertion")
                case 2: typed.remove(at: position); kinds.append("deletion")
                case 3: typed[position] += typed.remove(at: position + 1); kinds.append("merge")
                default:
                    let w = typed[position], cut = w.index(w.startIndex, offsetBy: 2)
                    typed[position] = String(w[..<cut])
                    typed.insert(String(w[cut...]), at: position + 1)
                    kinds.append("split")
                }
                position -= 6
            }
            XCTAssertEqual(distance(typed: typed, intended: intended), count, "seed \(seed): \(kinds)")
        }
    }

    func testVerdictsOnOneTypedWordAtATime() {
        var aligner = WordAligner(intendedText: "see you at the event on Monday.")
        let typed = ["see", "you", "at", "the", "eventon", "Monday"]
        XCTAssertEqual(aligner.verdict(ofWord: 4) { typed[$0] }, .wrong(intended: "event on"), "a merge, with its fix")
        XCTAssertEqual(aligner.verdict(ofWord: 5) { typed[$0] }, .correct)
        XCTAssertEqual(aligner.verdict(ofWord: 0) { typed[$0] }, .correct)
        XCTAssertEqual(aligner.totalDistance, 1)
        aligner.invalidate(fromWord: 4)
        let fixed = ["see", "you", "at", "the", "event", "on", "Monday"]
        XCTAssertEqual(aligner.verdict(ofWord: 6) { fixed[$0] }, .correct)
        XCTAssertEqual(aligner.totalDistance, 0)
    }

    /// A verdict is the alignment's as it stood when the word was aligned: the words typed
    /// up to it, against any prefix of the intended words.
    func testAVerdictIsTheAlignmentWhenTheWordWasFinished() {
        var aligner = WordAligner(intendedText: "I think so")
        let typed = ["I", "really", "thnik", "so"]
        XCTAssertEqual(aligner.verdict(ofWord: 3) { typed[$0] }, .correct)
        XCTAssertEqual(aligner.verdict(ofWord: 1) { typed[$0] }, .wrong(intended: "think"), "'I really' alone: 'really' for 'think'")
        XCTAssertNotEqual(aligner.verdict(ofWord: 2) { typed[$0] }, .correct)
        XCTAssertEqual(aligner.totalDistance, 2, "one extra word, one substitution")
        var again = WordAligner(intendedText: "I think so")
        XCTAssertEqual(again.verdict(ofWord: 0) { typed[$0] }, .correct)
    }

    /// The flat-row aligner gives the verdicts and distances of the row-per-array one it
    /// replaced (`ReferenceWordAligner`), through words typed, finished in any order and
    /// edited again: texts from a small vocabulary (repeated words, merges and splits that
    /// spell intended words), strays longer than the band, and invalidations anywhere.
    func testVerdictsMatchTheReferenceAligner() {
        let vocabulary = ["a", "an", "the", "on", "event", "eventon", "some", "thing", "something", "we", "ek",
                          "week", "see", "you", "q", "Monday.", "x"]
        for seed in UInt64(1)...300 {
            var random = RandomStream(seed: seed, replication: 0, name: "aligner-reference")
            let intended = (0..<(random.nextInt(below: 40))).map { _ in vocabulary[random.nextInt(below: vocabulary.count)] }
            let text = intended.joined(separator: random.bernoulli(0.2) ? "  " : " ")
            var aligner = WordAligner(intendedText: text)
            var reference = ReferenceWordAligner(intendedText: text)
            // Typed: the intended words with random corruptions, sometimes a long stray run.
            var typed: [String] = []
            func retype(from start: Int) {
                typed.removeSubrange(min(start, typed.count)...)
                var index = start
                while typed.count < intended.count + 10 && index < intended.count + 5 {
                    switch random.nextInt(below: 12) {
                    case 0: typed.append(vocabulary[random.nextInt(below: vocabulary.count)])
                    case 1: if index + 1 < intended.count { typed.append(intended[index] + intended[index + 1]); index += 1 }
                    case 2:
                        if index < intended.count, intended[index].count > 1 {
                            let word = intended[index], cut = word.index(after: word.startIndex)
                            typed.append(String(word[..<cut]))
                            typed.append(String(word[cut...]))
                        }
                    case 3: break
                    case 4: if random.bernoulli(0.2) { for _ in 0..<12 { typed.append("stray") } }
                    default: if index < intended.count { typed.append(intended[index]) }
                    }
                    index += 1
                }
            }
            retype(from: 0)
            for step in 0..<40 where !typed.isEmpty {
                if random.bernoulli(0.25) {
                    let from = random.nextInt(below: typed.count + 1)
                    aligner.invalidate(fromWord: from)
                    reference.invalidate(fromWord: from)
                    retype(from: from)
                    continue
                }
                guard !typed.isEmpty else { break }
                let ordinal = random.nextInt(below: typed.count)
                let expected = reference.verdict(ofWord: ordinal) { typed[$0] }
                XCTAssertEqual(aligner.verdict(ofWord: ordinal) { typed[$0] }, expected,
                               "seed \(seed) step \(step): word \(ordinal) of \(typed) against \(intended)")
                XCTAssertEqual(aligner.alignedWordCount, reference.alignedWordCount, "seed \(seed) step \(step)")
                XCTAssertEqual(aligner.totalDistance, reference.totalDistance, "seed \(seed) step \(step)")
            }
        }
    }

    /// An intended text's words and their numbers are those the split on `Substring`s and
    /// two look-ups a word gave (`referenceIntendedWords`): ASCII text with punctuation,
    /// every kind of white space and runs of it, and text that is not ASCII.
    func testIntendedWordsMatchTheReference() {
        let pieces = ["see", "you", "at", "the", "event", "on", "Monday", ".", ",", "!", "'", "(", ")", "...", "-", "$5",
                      " ", " ", "  ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "café", "e\u{301}", "👍", "\u{00A0}", "ж"]
        for seed in UInt64(0)..<400 {
            var random = RandomStream(seed: seed, replication: 0, name: "intended-words")
            let asciiOnly = random.bernoulli(0.6)
            let choices = asciiOnly ? pieces.filter { $0.utf8.allSatisfy { $0 < 0x80 } } : pieces
            let text = (0..<random.nextInt(below: 30)).map { _ in choices[random.nextInt(below: choices.count)] }.joined()
            let words = WordAligner.IntendedWords(text), reference = referenceIntendedWords(text)
            XCTAssertEqual(words.intended.map { Array($0.utf8) }, reference.intended.map { Array($0.utf8) }, "seed \(seed): \(text.debugDescription)")
            XCTAssertEqual(words.ids, reference.ids, "seed \(seed): \(text.debugDescription)")
            XCTAssertEqual(words.lengths, reference.intended.map { Int32($0.utf8.count) }, "seed \(seed)")
            for (word, id) in zip(reference.intended, reference.ids) { XCTAssertEqual(words.idOf[word], id, "seed \(seed)") }
        }
    }
}
