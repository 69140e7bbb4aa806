import XCTest
@testable import Sim

final class SlotTableTests: XCTestCase {
    /// Random inserts, removals, in-place changes and clears against a dictionary plus a
    /// plain model of the free list (last freed, first taken; then never-used slots lowest
    /// first), over many seeds: the table must hand out exactly the predicted slots, with
    /// the predicted generations.
    func testRandomOperationsMatchAReferenceModel() {
        for seed in UInt64(1)...40 {
            var rng = TestRNG(state: seed)
            var table = SlotTable<String>()
            var model: [Int32: String] = [:]
            var freed: [Int32] = []
            var fresh: Int32 = 0
            var generations: [Int32: UInt32] = [:]
            for step in 0..<1_000 {
                switch rng.below(20) {
                case 0..<9:
                    let expected = freed.popLast() ?? { defer { fresh += 1 }; return fresh }()
                    let slot = table.insert("s\(step)")
                    XCTAssertEqual(slot, expected, "seed \(seed): the slot handed out")
                    model[slot] = "s\(step)"
                case 9..<16:
                    guard let victim = model.keys.sorted().randomElement(using: &rng) else { continue }
                    XCTAssertEqual(table.remove(victim), model[victim], "seed \(seed)")
                    model[victim] = nil
                    freed.append(victim)
                    generations[victim, default: 0] += 1
                    XCTAssertFalse(table.contains(victim), "seed \(seed)")
                case 16..<19:
                    guard let changed = model.keys.sorted().randomElement(using: &rng) else { continue }
                    table[changed] += "!"
                    model[changed]! += "!"
                default:
                    guard rng.below(5) == 0 else { continue }
                    table.removeAll()
                    for slot in model.keys { generations[slot, default: 0] += 1 }
                    model.removeAll()
                    freed.removeAll()
                    fresh = 0
                }
                XCTAssertEqual(table.count, model.count, "seed \(seed)")
                table.checkInvariants()
            }
            for (slot, value) in model {
                XCTAssertEqual(table[slot], value, "seed \(seed)")
                XCTAssertTrue(table.contains(slot, generation: generations[slot, default: 0]), "seed \(seed)")
                XCTAssertFalse(table.contains(slot, generation: generations[slot, default: 0] &+ 1), "seed \(seed)")
            }
            var visited: [Int32: String] = [:]
            table.forEach { slot, value in visited[slot] = value }
            XCTAssertEqual(visited, model, "seed \(seed)")
        }
    }

    /// A removed slot's old (slot, generation) no longer names a value, even once the slot
    /// holds another one: what makes a `TimerHandle` safe to keep.
    func testGenerationsTellAReusedSlotFromItsOldValue() {
        var table = SlotTable<Int>()
        let first = table.insert(1)
        let firstGeneration = table.generation(of: first)
        XCTAssertTrue(table.contains(first, generation: firstGeneration))
        XCTAssertEqual(table.remove(first), 1)
        let reused = table.insert(2)
        XCTAssertEqual(reused, first, "the slot freed last is taken first")
        XCTAssertFalse(table.contains(first, generation: firstGeneration))
        XCTAssertTrue(table.contains(reused, generation: table.generation(of: reused)))
        XCTAssertEqual(table.tag(of: reused), 0, "a new value's tag starts at zero")
        XCTAssertFalse(table.contains(-1))
        XCTAssertFalse(table.contains(Int32(table.capacity)))
    }

    /// A copy is independent: mutating either side leaves the other as it was, also across
    /// growth; values with identity are released exactly once.
    func testCopiesAreIndependentAndValuesReleasedOnce() {
        typealias Tracked = LifetimeCensus.Tracked
        let census = LifetimeCensus()
        do {
            var table = SlotTable<Tracked>()
            let slots = (0..<16).map { table.insert(Tracked(census, id: $0)) }
            let snapshot = table
            for id in 16..<100 { _ = table.insert(Tracked(census, id: id)) }
            for slot in slots.prefix(8) { _ = table.remove(slot) }
            XCTAssertEqual(snapshot.count, 16)
            for (id, slot) in slots.enumerated() { XCTAssertEqual(snapshot[slot].id, id) }
            snapshot.checkInvariants()
            table.checkInvariants()
            XCTAssertEqual(census.alive, 100, "the snapshot keeps the 8 the table removed")
            table.removeAll()
            XCTAssertTrue(table.isEmpty)
            XCTAssertEqual(census.alive, 16)
        }
        XCTAssertEqual(census.alive, 0)
    }

    /// An empty table holds no buffers (every table starts so): it still copies, grows from
    /// either copy independently, and releases what the grown copy held.
    func testEmptyTablesHoldNothingAndGrowFromAnyCopy() {
        typealias Tracked = LifetimeCensus.Tracked
        let census = LifetimeCensus()
        do {
            let empty = SlotTable<Tracked>()
            var grown = empty
            XCTAssertEqual(empty.capacity, 0)
            XCTAssertFalse(empty.contains(0))
            empty.checkInvariants()
            let slots = (0..<5).map { grown.insert(Tracked(census, id: $0)) }
            XCTAssertEqual(slots.map { grown[$0].id }, Array(0..<5))
            XCTAssertTrue(empty.isEmpty, "the empty original is untouched by its copy's growth")
            XCTAssertEqual(census.alive, 5)
            var cleared = grown
            cleared.removeAll()
            cleared.checkInvariants()
            XCTAssertEqual(census.alive, 5, "the grown copy keeps its values")
            var heap = Heap<Tracked>()
            let emptyHeap = heap
            heap.insert(Tracked(census, id: 9), key: 3)
            XCTAssertTrue(emptyHeap.isEmpty)
            XCTAssertNil(emptyHeap.minKey)
            XCTAssertEqual(heap.removeMin().value.id, 9)
            XCTAssertEqual(census.alive, 5)
        }
        XCTAssertEqual(census.alive, 0)
    }
}
