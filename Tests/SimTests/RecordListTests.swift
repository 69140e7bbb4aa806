import Dispatch
import Synchronization
import XCTest
@testable import Sim

final class RecordListTests: XCTestCase {
    /// 1 KiB records: a full chunk (one 2 MiB block) holds 2,048 of them, so a few thousand
    /// appends cross chunk boundaries.
    struct Wide: Equatable, BitwiseCopyable {
        var value: Int
        var padding = InlineArray<127, Int64>(repeating: 0)
        init(_ value: Int) {
            self.value = value
            padding[0] = Int64(value)
            padding[126] = Int64(-value)
        }
        static func == (a: Wide, b: Wide) -> Bool { a.value == b.value && a.padding[0] == b.padding[0] && a.padding[126] == b.padding[126] }
    }

    func testWideRecordsFillSeveralChunksInOrder() {
        XCTAssertEqual(MemoryLayout<Wide>.stride, 1024)
        var list = RecordList<Wide>()
        let count = 2_048 * 3 + 17
        for i in 0..<count { list.append(Wide(i)) }
        XCTAssertEqual(list.count, count)
        XCTAssertEqual(list.storage.chunks.count, 4, "three full chunks and part of a fourth")
        XCTAssertEqual(list.storage.fullCapacity, 2_048)
        for i in [0, 1, 2_047, 2_048, 2_049, 4_095, 4_096, count - 1] { XCTAssertEqual(list[i], Wide(i)) }
        var expected = 0
        for record in list {
            XCTAssertEqual(record, Wide(expected))
            expected += 1
        }
        XCTAssertEqual(expected, count)
        XCTAssertEqual(list.map(\.value), Array(0..<count))
        XCTAssertEqual(list.last, Wide(count - 1))
    }

    func testSmallRecordsStayInOneGrowingChunkUntilItIsFull() {
        var list = RecordList<Int>()
        XCTAssertTrue(list.isEmpty)
        XCTAssertEqual(Array(list), [])
        for i in 0..<100_000 { list.append(i) }
        XCTAssertEqual(list.storage.fullCapacity, 262_144, "2 MiB of 8-byte records")
        XCTAssertEqual(list.storage.chunks.count, 1)
        XCTAssertEqual(list.reduce(0, +), 100_000 * 99_999 / 2)
        for i in 100_000..<300_000 { list.append(i) }
        XCTAssertEqual(list.storage.chunks.count, 2)
        XCTAssertTrue(list.elementsEqual(0..<300_000))
        XCTAssertEqual(list[262_143], 262_143)
        XCTAssertEqual(list[262_144], 262_144)
    }

    func testCopiesAreIndependent() {
        var original = RecordList<Wide>()
        for i in 0..<2_100 { original.append(Wide(i)) }
        var copy = original
        XCTAssertEqual(copy, original)
        copy.append(Wide(-1))
        XCTAssertEqual(original.count, 2_100)
        XCTAssertEqual(copy.count, 2_101)
        XCTAssertEqual(copy.last, Wide(-1))
        XCTAssertNotEqual(copy, original)
        original.append(Wide(7))
        XCTAssertEqual(original.last, Wide(7))
        XCTAssertEqual(copy[2_100], Wide(-1))
        XCTAssertTrue(copy.prefix(2_100).elementsEqual(original.prefix(2_100)))
        // A copy of a copy made mid-chunk keeps appending where the original left off.
        var third = copy
        for i in 0..<5_000 { third.append(Wide(10_000 + i)) }
        XCTAssertEqual(third.count, 7_101)
        XCTAssertEqual(third[2_101], Wide(10_000))
        XCTAssertEqual(copy.count, 2_101)
    }

    func testLiteralsEqualityAndDescription() {
        let list: RecordList<Int> = [3, 1, 2]
        XCTAssertEqual(list, RecordList([3, 1, 2]))
        XCTAssertNotEqual(list, [3, 1])
        XCTAssertEqual(list.description, "[3, 1, 2]")
        XCTAssertEqual(list.sorted(), [1, 2, 3])
        XCTAssertEqual(RecordList<Int>().count, 0)
    }

    // MARK: - Record blocks

    /// The addresses of a list's full chunks (chunk 0 counts once it is full-sized).
    private func blockAddresses<T>(_ list: RecordList<T>) -> Set<UnsafeMutableRawPointer> {
        let storage = list.storage
        return Set(storage.chunks.enumerated().filter { $0.offset > 0 || storage.firstCapacity == storage.fullCapacity }
            .map { UnsafeMutableRawPointer($0.element) })
    }

    func testDroppedListsHandTheirBlocksToTheNextList() {
        let arena = RecordArena()
        var first = RecordList<Wide>(arena: arena)
        for i in 0..<2_048 * 4 { first.append(Wide(i)) }
        let used = blockAddresses(first)
        XCTAssertEqual(used.count, 4)
        XCTAssertEqual(arena.retainedCount, 0)
        XCTAssertEqual(arena.outstandingCount, 4)
        first = RecordList(arena: arena)
        XCTAssertEqual(arena.retainedCount, 4, "the four full chunks wait for reuse")
        XCTAssertEqual(arena.outstandingCount, 0)

        // Another element type takes the same blocks, and reads back only what it wrote.
        var second = RecordList<Int>(arena: arena)
        for i in 0..<262_144 * 4 { second.append(~i) }
        XCTAssertEqual(blockAddresses(second), used)
        XCTAssertEqual(arena.retainedCount, 0)
        XCTAssertTrue(second.elementsEqual((0..<262_144 * 4).lazy.map { ~$0 }))
        XCTAssertEqual(first.count, 0)
        arena.checkInvariants()
    }

    func testAListWithoutAnArenaLeavesNoBlocksBehind() {
        let arena = RecordArena()
        var plain = RecordList<Wide>()
        for i in 0..<2_048 * 3 { plain.append(Wide(i)) }
        plain = RecordList()
        XCTAssertEqual(arena.retainedCount + arena.outstandingCount, 0, "another arena is untouched")
        XCTAssertEqual(plain.count, 0)
    }

    func testAtMostTheRetainedLimitOfBlocksWait() {
        let arena = RecordArena(retainedLimit: 6)
        var lists: [RecordList<Wide>] = []
        for _ in 0..<3 {
            var list = RecordList<Wide>(arena: arena)
            for i in 0..<2_048 * 4 { list.append(Wide(i)) }
            lists.append(list)
        }
        XCTAssertEqual(arena.outstandingCount, 12)
        lists.removeAll()
        XCTAssertEqual(arena.retainedCount, 6)
        XCTAssertEqual(arena.outstandingCount, 0)
        arena.checkInvariants()
        arena.releaseRetained()
        XCTAssertEqual(arena.retainedCount, 0)
    }

    func testCopiesTakeBlocksOfTheirOwn() {
        let arena = RecordArena()
        var original = RecordList<Wide>(arena: arena)
        for i in 0..<2_048 * 2 + 5 { original.append(Wide(i)) }
        var copy = original
        copy.append(Wide(-1))
        XCTAssertTrue(blockAddresses(copy).isDisjoint(with: blockAddresses(original)))
        original = RecordList()
        // The original's blocks went back; the copy, and a list that reuses them, are intact.
        var reuser = RecordList<Wide>(arena: arena)
        for i in 0..<2_048 * 2 { reuser.append(Wide(1_000_000 + i)) }
        XCTAssertTrue(copy.prefix(2_048 * 2 + 5).map(\.value).elementsEqual(0..<2_048 * 2 + 5))
        XCTAssertEqual(copy.last, Wide(-1))
        XCTAssertTrue(reuser.map(\.value).elementsEqual(1_000_000..<1_000_000 + 2_048 * 2))
        arena.checkInvariants()
    }

    func testListsOnSeveralThreadsNeverShareABlock() {
        let arena = RecordArena()
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<6 {
                // Lengths differ by thread and round, so blocks change hands in every order.
                let count = 2_048 * (1 + (thread + round) % 3) + thread * 100
                let base = (thread << 40) | (round << 32)
                var list = RecordList<Wide>(arena: arena)
                for i in 0..<count { list.append(Wide(base | i)) }
                if !list.elementsEqual((0..<count).lazy.map { Wide(base | $0) }) { failures.withLock { $0 += 1 } }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, 0)
        XCTAssertEqual(arena.outstandingCount, 0)
        XCTAssertLessThanOrEqual(arena.retainedCount, arena.retainedLimit)
        arena.checkInvariants()
    }

    /// Random appends, copies and drops of lists sharing one small arena, against plain
    /// arrays: every list reads back its reference after every step, no two live lists
    /// share a block, no waiting block is in a live list, and the arena's invariants hold.
    func testListsOverOneArenaMatchArraysOverSeeds() {
        for seed in 0..<6 {
            var rng = RandomStream(seed: UInt64(seed), replication: 0, name: "test.arena")
            let arena = RecordArena(retainedLimit: 1 + rng.nextInt(below: 5))
            var lists: [RecordList<Wide>] = []
            var references: [[Wide]] = []
            for step in 0..<20 {
                switch rng.nextInt(below: 4) {
                case 0 where !lists.isEmpty:
                    let index = rng.nextInt(below: lists.count)
                    lists.remove(at: index)
                    references.remove(at: index)
                case 1 where !lists.isEmpty:
                    let index = rng.nextInt(below: lists.count)
                    lists.append(lists[index])
                    references.append(references[index])
                default:
                    if lists.isEmpty || rng.nextInt(below: 3) == 0 {
                        lists.append(RecordList(arena: arena))
                        references.append([])
                    }
                    let index = rng.nextInt(below: lists.count)
                    for _ in 0..<rng.nextInt(below: 2_048 + 600) {
                        let value = Wide(rng.nextInt(below: 1 << 30))
                        lists[index].append(value)
                        references[index].append(value)
                    }
                }
                arena.checkInvariants()
                for (list, reference) in zip(lists, references) {
                    XCTAssertTrue(list.elementsEqual(reference), "seed \(seed) step \(step)")
                }
                var owners: [UnsafeMutableRawPointer: ObjectIdentifier] = [:]
                for list in lists {
                    for block in blockAddresses(list) {
                        let owner = ObjectIdentifier(list.storage)
                        XCTAssertTrue(owners[block] == nil || owners[block] == owner, "seed \(seed) step \(step): a block in two lists")
                        owners[block] = owner
                    }
                }
                XCTAssertEqual(arena.outstandingCount, owners.count, "seed \(seed) step \(step): the arena counts the blocks lists hold")
            }
            lists.removeAll()
            XCTAssertEqual(arena.outstandingCount, 0, "seed \(seed): every block came back")
            XCTAssertLessThanOrEqual(arena.retainedCount, arena.retainedLimit)
        }
    }
}
