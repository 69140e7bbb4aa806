import XCTest
import Scenarios
import Sim
@testable import TraceRecorder

/// `TraceRecorder` keeps its own small JSON writer, since a keyboard extension embeds it
/// without keysim's modules; these tests hold it to keysim's `JSONWriter` (in the trace
/// line's style: U+2028 and U+2029 as themselves) byte for byte.
final class JSONLineWriterTests: XCTestCase {
    /// The bytes of `{"v":…}` from each writer, the value written by `recorder` and `shared`.
    private func assertSameBytes(_ label: String, recorder: (inout JSONLineWriter.Writer) -> Void,
                                 shared: (inout JSONWriter) -> Void, file: StaticString = #filePath, line: UInt = #line) {
        var small = JSONLineWriter.Writer(bytes: [])
        small.open()
        small.key("v")
        recorder(&small)
        small.close()
        var keysim = JSONWriter(layout: .compact, escapesLineSeparators: false)
        keysim.beginObject()
        keysim.key("v")
        shared(&keysim)
        keysim.endObject()
        XCTAssertEqual(String(decoding: small.bytes, as: UTF8.self), String(decoding: keysim.bytes, as: UTF8.self), label,
                       file: file, line: line)
        XCTAssertEqual(small.bytes, keysim.bytes, label, file: file, line: line)
    }

    private func assertSameString(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        assertSameBytes(text.debugDescription, recorder: { $0.string(text) }, shared: { $0.string(text) }, file: file, line: line)
    }

    func testStringsWithEveryEscapeClass() {
        let controls = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
        for text in ["", "plain", "\"quoted\"", "back\\slash", "a/b", "line\nbreak\r\n\ttab", "\u{8}\u{C}", controls,
                     "\u{7F} delete", "\u{2028}\u{2029} separators", "é日👍🏽 👩‍👩‍👧", "e\u{301} combining",
                     "\u{FEFF}bom", "\u{10FFFF}", "end\\"] {
            assertSameString(text)
        }
    }

    func testRandomStrings() {
        let pool: [Unicode.Scalar] = (0..<0x80).compactMap { Unicode.Scalar($0) }
            + ["é", "ß", "日", "\u{2028}", "\u{2029}", "\u{85}", "\u{A0}", "👍", "\u{1F3FD}", "\u{200D}", "\u{FFFD}"]
        for seed: UInt64 in 1...200 {
            var random = RandomStream(seed: seed, replication: 0, name: "json-writer")
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int(random.nextUInt64() % 40) { scalars.append(pool[Int(random.nextUInt64() % UInt64(pool.count))]) }
            let text = String(scalars)
            var small = JSONLineWriter.Writer(bytes: [])
            small.string(text)
            var keysim = JSONWriter(escapesLineSeparators: false)
            keysim.string(text)
            XCTAssertEqual(small.bytes, keysim.bytes, "seed \(seed): \(text.debugDescription)")
        }
    }

    func testMillisecondsAtTheEdges() {
        for nanos: Int64 in [0, 1, 9, 10, 999_999, 1_000_000, 1_000_001, 1_500_000, 123_456_789, 1 << 53, (1 << 53) - 1,
                             -1, -1_500_000, .max, .min, .max - 1, .min + 1] {
            assertSameBytes("\(nanos) ns", recorder: { $0.milliseconds(nanos) }, shared: { $0.milliseconds(nanoseconds: nanos) })
        }
        for seed: UInt64 in 1...200 {
            var random = RandomStream(seed: seed, replication: 0, name: "json-writer")
            let nanos = Int64(bitPattern: random.nextUInt64()) >> (random.nextUInt64() % 64)
            assertSameBytes("seed \(seed): \(nanos) ns", recorder: { $0.milliseconds(nanos) }, shared: { $0.milliseconds(nanoseconds: nanos) })
        }
    }

    func testCoordinatesAndIntegersAtTheEdges() {
        for x in [0, -0.0, 12.5, 40, 329.9, 1e-05, 1e16, -1e300, 0.1 + 0.2, .leastNonzeroMagnitude, .leastNormalMagnitude,
                  .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .ulpOfOne] {
            assertSameBytes("\(x)", recorder: { $0.raw(x.description) }, shared: { $0.double(x) })
        }
        for seed: UInt64 in 1...200 {
            var random = RandomStream(seed: seed, replication: 0, name: "json-writer")
            let x = Double(bitPattern: random.nextUInt64())
            guard x.isFinite else { continue }
            assertSameBytes("seed \(seed): \(x)", recorder: { $0.raw(x.description) }, shared: { $0.double(x) })
        }
        for n in [0, 1, -1, Int(Int32.max), Int(Int32.min), .max, .min] {
            assertSameBytes("\(n)", recorder: { $0.raw(String(n)) }, shared: { $0.integer(n) })
        }
    }

    func testObjectsOfSeveralMembers() {
        var small = JSONLineWriter.Writer(bytes: Array("prefix ".utf8))
        small.open()
        small.key("t"); small.milliseconds(1_500_000)
        small.key("type"); small.string("key")
        small.key("text"); small.string("\"\n")
        small.close()
        var keysim = JSONWriter(escapesLineSeparators: false, bytes: Array("prefix ".utf8))
        keysim.beginObject()
        keysim.key("t"); keysim.milliseconds(nanoseconds: 1_500_000)
        keysim.key("type"); keysim.string("key")
        keysim.key("text"); keysim.string("\"\n")
        keysim.endObject()
        XCTAssertEqual(String(decoding: small.bytes, as: UTF8.self), #"prefix {"t":1.5,"type":"key","text":"\"\n"}"#)
        XCTAssertEqual(small.bytes, keysim.bytes)
    }
}
