import XCTest
@testable import Sim

/// Heap indices kept in a plain buffer owned by the test, as the event queue keeps them in
/// its slot table's tags.
private struct BufferPositions: HeapPositions {
    let indices: UnsafeMutablePointer<Int32>
    func moved(_ value: Int32, to index: Int) { indices[Int(value)] = Int32(index) }
    func index(of value: Int32) -> Int { Int(indices[Int(value)]) }
}

final class HeapTests: XCTestCase {
    /// A key with a unique low half, as every caller builds them.
    private func key(_ high: Int, _ sequence: Int) -> UInt128 { UInt128(high) << 64 | UInt128(sequence) }

    func testPopsInKeyOrderAndReadsTheMinimumUnderAnEmptyRoot() {
        var heap = Heap<String>()
        for (sequence, (high, name)) in [(30, "c"), (10, "a"), (20, "b"), (10, "a2")].enumerated() {
            heap.insert(name, key: key(high, sequence))
        }
        XCTAssertEqual(heap.minKey, key(10, 1))
        XCTAssertEqual(heap.removeMin().value, "a")
        // The pop left the root empty; the minimum is read from its children.
        XCTAssertEqual(heap.minKey, key(10, 3))
        heap.checkInvariants()
        XCTAssertEqual([heap.removeMin().value, heap.removeMin().value, heap.removeMin().value], ["a2", "b", "c"])
        XCTAssertTrue(heap.isEmpty)
        XCTAssertNil(heap.minKey)
        XCTAssertEqual(heap.minKeyOrMax, .max)
    }

    /// Random inserts, pops and clears against a sorted array, over many seeds; string
    /// values, so that every move of a value with a reference is exercised.
    func testRandomOperationsMatchASortedArray() {
        for seed in UInt64(1)...40 {
            var rng = TestRNG(state: seed)
            var heap = Heap<String>()
            var model: [(key: UInt128, value: String)] = []
            var sequence = 0
            for _ in 0..<800 {
                switch rng.below(20) {
                case 0..<11:
                    let k = key(rng.below(100), sequence)
                    sequence += 1
                    heap.insert("v\(sequence)", key: k)
                    model.append((k, "v\(sequence)"))
                case 11..<19:
                    guard !model.isEmpty else { continue }
                    let expected = model.indices.min { model[$0].key < model[$1].key }!
                    let popped = heap.removeMin()
                    XCTAssertEqual(popped.key, model[expected].key, "seed \(seed)")
                    XCTAssertEqual(popped.value, model[expected].value, "seed \(seed)")
                    model.remove(at: expected)
                default:
                    if rng.below(4) == 0 { heap.removeAll(); model.removeAll() }
                }
                XCTAssertEqual(heap.count, model.count, "seed \(seed)")
                XCTAssertEqual(heap.minKey, model.map(\.key).min(), "seed \(seed)")
                heap.checkInvariants()
            }
            var unordered: [UInt128] = []
            heap.forEachUnordered { key, _ in unordered.append(key) }
            XCTAssertEqual(unordered.sorted(), model.map(\.key).sorted(), "seed \(seed)")
            for expected in model.sorted(by: { $0.key < $1.key }) {
                XCTAssertEqual(heap.removeMin().value, expected.value, "seed \(seed)")
            }
            XCTAssertTrue(heap.isEmpty, "seed \(seed)")
        }
    }

    /// A heap that tracks positions: removing and re-keying any value, against a dictionary
    /// of keys, and the tracked positions always right (`checkInvariants(positions:)`).
    func testTrackedRemoveAndUpdateMatchADictionary() {
        let idsMax = 512
        let indices = UnsafeMutablePointer<Int32>.allocate(capacity: idsMax)
        defer { indices.deallocate() }
        let positions = BufferPositions(indices: indices)
        for seed in UInt64(1)...40 {
            var rng = TestRNG(state: seed)
            var heap = Heap<Int32>()
            var model: [Int32: UInt128] = [:]
            var freeIDs = Array((0..<Int32(idsMax)).reversed())
            var sequence = 0
            func nextKey() -> UInt128 { sequence += 1; return key(rng.below(300), sequence) }
            for _ in 0..<1_000 {
                switch rng.below(10) {
                case 0..<4:
                    guard let id = freeIDs.popLast() else { continue }
                    let k = nextKey()
                    heap.insert(id, key: k, positions: positions)
                    model[id] = k
                case 4, 5:
                    guard !model.isEmpty else { continue }
                    let popped = heap.removeMin(positions: positions)
                    let expected = model.min { $0.value < $1.value }!
                    XCTAssertEqual(popped.value, expected.key, "seed \(seed)")
                    XCTAssertEqual(popped.key, expected.value, "seed \(seed)")
                    model[popped.value] = nil
                    freeIDs.append(popped.value)
                case 6, 7:
                    guard let victim = model.keys.sorted().randomElement(using: &rng) else { continue }
                    XCTAssertEqual(heap.remove(victim, positions: positions), model[victim], "seed \(seed)")
                    model[victim] = nil
                    freeIDs.append(victim)
                default:
                    guard let moved = model.keys.sorted().randomElement(using: &rng) else { continue }
                    let k = nextKey()
                    heap.update(moved, key: k, positions: positions)
                    model[moved] = k
                    XCTAssertEqual(heap.key(at: positions.index(of: moved)), k, "seed \(seed)")
                }
                XCTAssertEqual(heap.count, model.count, "seed \(seed)")
                XCTAssertEqual(heap.minKey, model.values.min(), "seed \(seed)")
                heap.checkInvariants(positions: positions)
            }
            for (id, _) in model.sorted(by: { $0.value < $1.value }) {
                XCTAssertEqual(heap.removeMin(positions: positions).value, id, "seed \(seed)")
            }
            XCTAssertTrue(heap.isEmpty, "seed \(seed)")
        }
    }

    /// A copy is independent: mutating either side leaves the other as it was, also when
    /// the copy was taken with an empty root or just before the heap grows.
    func testCopiesAreIndependentValues() {
        for seed in UInt64(1)...10 {
            var rng = TestRNG(state: seed)
            var heap = Heap<String>()
            for sequence in 0..<(16 + rng.below(20)) { heap.insert("v\(sequence)", key: key(rng.below(50), sequence)) }
            if rng.below(2) == 0 { _ = heap.removeMin() }
            let snapshot = heap
            var drainedCopy = snapshot
            var expected: [String] = []
            while !drainedCopy.isEmpty { expected.append(drainedCopy.removeMin().value) }
            for sequence in 100..<400 { heap.insert("w\(sequence)", key: key(rng.below(50), sequence)) }
            _ = heap.removeMin()
            heap.removeAll()
            var again = snapshot
            var fromSnapshot: [String] = []
            while !again.isEmpty { fromSnapshot.append(again.removeMin().value) }
            XCTAssertEqual(fromSnapshot, expected, "seed \(seed)")
            snapshot.checkInvariants()
        }
    }

    /// Values with identity are released exactly once: popped, removed, cleared, or left in
    /// the heap (and its copies) when it goes.
    func testValuesAreReleasedExactlyOnce() {
        typealias Tracked = LifetimeCensus.Tracked
        let census = LifetimeCensus()
        do {
            var rng = TestRNG(state: 11)
            var heap = Heap<Tracked>()
            var copies: [Heap<Tracked>] = []
            for sequence in 0..<600 {
                switch rng.below(10) {
                case 0..<6: heap.insert(Tracked(census), key: key(rng.below(80), sequence))
                case 6..<9: if !heap.isEmpty { _ = heap.removeMin() }
                default: if rng.below(3) == 0 { copies.append(heap) } else if rng.below(8) == 0 { heap.removeAll() }
                }
            }
            XCTAssertGreaterThan(census.alive, 0)
            copies.removeAll()
            XCTAssertEqual(census.alive, heap.count, "only the heap's own values are left")
        }
        XCTAssertEqual(census.alive, 0, "every value released with the heap")
    }
}
