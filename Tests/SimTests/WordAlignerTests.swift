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

    func testAnExtraWordHasNoFixAndASubstitutionHasOne() {
        var aligner = WordAligner(intendedText: "I think so")
        let typed = ["I", "really", "thnik", "so"]
        XCTAssertEqual(aligner.verdict(ofWord: 3) { typed[$0] }, .correct)
        XCTAssertEqual(aligner.verdict(ofWord: 1) { typed[$0] }, .wrongWithoutFix)
        XCTAssertEqual(aligner.verdict(ofWord: 2) { typed[$0] }, .wrong(intended: "think"))
    }
}
