import XCTest
@testable import Sim

final class TextEditTests: XCTestCase {
    /// What lets the underlines skip their fixed spans on most edits: a word that ends at or
    /// before an edit stays where it is, whatever the edit removed or inserted after it.
    func testAWordEndingAtOrBeforeAnEditStaysPut() {
        for seed in UInt64(0)..<500 {
            var random = RandomStream(seed: seed, replication: 0, name: "text-edit")
            let edit = TextEdit(atUTF8: random.nextInt(below: 60), removedUTF8: random.nextInt(below: 8),
                                insertedUTF8: random.nextInt(below: 8), retokenized: random.bernoulli(0.5))
            let length = 1 + random.nextInt(below: 10)
            let start = random.nextInt(below: 70)
            let moved = edit.moved(start: start, length: length)
            if start + length <= edit.atUTF8 {
                XCTAssertEqual(moved, start, "seed \(seed): \(edit), word at \(start) of \(length)")
            } else if start >= edit.atUTF8 + edit.removedUTF8 {
                XCTAssertEqual(moved, start + edit.deltaUTF8, "seed \(seed): \(edit), word at \(start) of \(length)")
            }
        }
    }
}
