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
}
