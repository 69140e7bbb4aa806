import XCTest
@testable import Report

/// The protobuf encoder against the examples of the protobuf encoding guide
/// (protobuf.dev/programming-guides/encoding) and against limits of each type.
final class ProtobufWriterTests: XCTestCase {
    func testVarintsAndTags() {
        var writer = ProtobufWriter()
        writer.uint(1, 150)  // the guide's first example: 08 96 01
        XCTAssertEqual(writer.bytes, [0x08, 0x96, 0x01])
        for (value, bytes) in [(UInt64(0), [UInt8(0x00)]), (1, [0x01]), (127, [0x7F]), (128, [0x80, 0x01]), (300, [0xAC, 0x02]),
                               (UInt64.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])] {
            var varint = ProtobufWriter()
            varint.appendVarint(value)
            XCTAssertEqual(varint.bytes, bytes, "\(value)")
        }
        var tag = ProtobufWriter()
        tag.appendTag(60, .lengthDelimited)  // TracePacket.track_descriptor: (60 << 3) | 2 = 482
        XCTAssertEqual(tag.bytes, [0xE2, 0x03])
    }

    func testSignedValues() {
        var writer = ProtobufWriter()
        writer.int(4, -1)  // int64 −1: two's complement, ten bytes
        XCTAssertEqual(writer.bytes, [0x20, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        XCTAssertEqual([0, -1, 1, -2, 2147483647, -2147483648].map(ProtobufWriter.zigzag), [0, 1, 2, 3, 4294967294, 4294967295])
        XCTAssertEqual(ProtobufWriter.zigzag(.min), .max)
        var sint = ProtobufWriter()
        sint.sint(1, -2)
        XCTAssertEqual(sint.bytes, [0x08, 0x03])
        var flag = ProtobufWriter()
        flag.bool(2, true)
        XCTAssertEqual(flag.bytes, [0x10, 0x01])
    }

    func testFixedWidthValues() {
        var writer = ProtobufWriter()
        writer.fixed64(47, 0x0102_0304_0506_0708)  // TrackEvent.flow_ids: tag (47 << 3) | 1 = 377
        XCTAssertEqual(writer.bytes, [0xF9, 0x02, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01])
        var double = ProtobufWriter()
        double.double(44, 1.5)  // 1.5 = 0x3FF8000000000000
        XCTAssertEqual(double.bytes, [0xE1, 0x02, 0, 0, 0, 0, 0, 0, 0xF8, 0x3F])
    }

    func testLengthDelimitedAndNested() {
        var writer = ProtobufWriter()
        writer.string(2, "testing")  // the guide's example: 12 07 74 65 73 74 69 6e 67
        XCTAssertEqual(writer.bytes, [0x12, 0x07, 0x74, 0x65, 0x73, 0x74, 0x69, 0x6E, 0x67])
        var outer = ProtobufWriter()
        outer.message(3) { $0.uint(1, 150) }  // the guide's embedded message: 1a 03 08 96 01
        XCTAssertEqual(outer.bytes, [0x1A, 0x03, 0x08, 0x96, 0x01])
        var unicode = ProtobufWriter()
        unicode.string(1, "→")
        XCTAssertEqual(unicode.bytes, [0x0A, 0x03, 0xE2, 0x86, 0x92], "UTF-8, length in bytes")
        var long = ProtobufWriter()
        long.lengthDelimited(1, [UInt8](repeating: 7, count: 200))
        XCTAssertEqual(Array(long.bytes.prefix(3)), [0x0A, 0xC8, 0x01])
        XCTAssertEqual(long.bytes.count, 203)
    }

    func testPackedRepeatedFields() {
        var writer = ProtobufWriter()
        writer.packedUInts(4, [3, 270, 86942])  // the guide's packed example: 22 06 03 8e 02 9e a7 05
        XCTAssertEqual(writer.bytes, [0x22, 0x06, 0x03, 0x8E, 0x02, 0x9E, 0xA7, 0x05])
        var fixed = ProtobufWriter()
        fixed.packedFixed64s(1, [1, 2])
        XCTAssertEqual(fixed.bytes, [0x0A, 0x10, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0])
        var empty = ProtobufWriter()
        empty.packedUInts(4, [])
        XCTAssertEqual(empty.bytes, [], "an empty packed field is left out")
    }
}
