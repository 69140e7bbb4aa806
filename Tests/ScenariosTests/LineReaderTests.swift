import Foundation
import XCTest

@testable import Scenarios

final class LineReaderTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory(prefix: "keysim-lines") }
    override func tearDown() { directory = nil }

    // MARK: - Line splitting

    func testLinesNumbersAndLastLineWithoutNewline() throws {
        let path = try write("a.jsonl", "first\nsecond\n\nlast without newline")
        XCTAssertEqual(try readAll(path), [(1, "first"), (2, "second"), (3, ""), (4, "last without newline")].map(Line.init))
    }

    func testCRLFAndLoneCarriageReturns() throws {
        let path = try write("crlf.jsonl", "one\r\ntwo\r\n\r\nin\rside\r\nlast\r")
        XCTAssertEqual(try readAll(path), [(1, "one"), (2, "two"), (3, ""), (4, "in\rside"), (5, "last")].map(Line.init))
    }

    func testEmptyFileAndLoneNewline() throws {
        let empty = try write("empty.jsonl", "")
        let reader = try LineReader(path: empty)
        XCTAssertNil(try reader.nextLine())
        XCTAssertNil(try reader.nextLine(), "the end stays the end")
        XCTAssertEqual(reader.lineNumber, 0)
        XCTAssertEqual(try readAll(try write("nl.jsonl", "\n")), [Line(1, "")])
        XCTAssertEqual(try readAll(try write("nl2.jsonl", "\n\n")), [Line(1, ""), Line(2, "")])
    }

    func testByteOrderMarkIsSkippedOnlyAtTheStart() throws {
        let bom = "\u{FEFF}"
        let path = try write("bom.jsonl", bom + "{\"a\":1}\n" + bom + "x\n")
        let lines = try readAll(path, validatesUTF8: true)
        XCTAssertEqual(lines, [Line(1, "{\"a\":1}"), Line(2, bom + "x")])
        XCTAssertEqual(try readAll(try write("bomonly.jsonl", bom)), [])
        // The first two bytes of a mark are not a mark: they stay as the line's content.
        let partial = directory.path("partial.jsonl")
        try Data([0xEF, 0xBB]).write(to: URL(fileURLWithPath: partial))
        let reader = try LineReader(path: partial, validatesUTF8: false)
        XCTAssertEqual(try reader.nextLine().map { Array($0.bytes) }, [0xEF, 0xBB])
        XCTAssertNil(try reader.nextLine())
    }

    func testRandomLinesAcrossEveryChunkBoundary() throws {
        for seed: UInt64 in 1...12 {
            var generator = SplitMix(seed: seed)
            var expected: [String] = []
            var text = ""
            let alphabet = Array("abcйц😀 {}\":,\t")
            for index in 0..<(200 + Int(generator.next() % 200)) {
                let length = Int(generator.next() % 40)
                let line = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
                text += line
                expected.append(line)
                // Sometimes the last line has no line ending; an empty one then is no line.
                if index > 0 && generator.next() % 50 == 0 { break }
                text += generator.next() % 4 == 0 ? "\r\n" : "\n"
            }
            if expected.last == "" && !text.hasSuffix("\n") { expected.removeLast() }
            let bytes = Array(text.utf8)
            for (sourceChunk, readerChunk) in [(1, 1), (3, 7), (64, 5), (1 << 16, 1 << 16), (5, 4096)] {
                let reader = LineReader(source: MemorySource(bytes, path: "mem.jsonl", chunk: sourceChunk),
                                        lineLengthMax: 200, chunkSize: readerChunk)
                var got: [String] = []
                while let line = try reader.nextLine() {
                    XCTAssertEqual(line.number, got.count + 1)
                    got.append(String(decoding: line.bytes, as: UTF8.self))
                }
                XCTAssertEqual(got, expected, "seed \(seed), chunks \(sourceChunk)/\(readerChunk)")
            }
        }
    }

    // MARK: - Compressed input

    func testCompressedFileWith200kLinesReadsWithFlatMemory() throws {
        let lineCount = 200_000
        let path = directory.path("big.jsonl.zst")
        let file = try AtomicFileWriter(path: path)
        let compressor = try ZstdCompressor(destination: file, level: 1)
        // Lines of ~200 bytes: 40 MB of text that must never be held at once.
        let padding = String(repeating: "p", count: 160)
        for number in 1...lineCount {
            try compressor.write("{\"seq\":\(number),\"kind\":\"key\",\"pad\":\"\(padding)\"}\n")
        }
        try compressor.finish()
        try file.commit()

        let rssBefore = residentBytes()
        let reader = try LineReader(path: path)
        let capacity = reader.bufferCapacity
        var count = 0
        var byteTotal = 0
        while let line = try reader.nextLine() {
            count += 1
            XCTAssertEqual(line.number, count)
            byteTotal += line.bytes.count + 1
            if count % 49_999 == 1 {
                XCTAssertEqual(String(decoding: line.bytes, as: UTF8.self),
                               "{\"seq\":\(count),\"kind\":\"key\",\"pad\":\"\(padding)\"}")
            }
        }
        XCTAssertEqual(count, lineCount)
        XCTAssertGreaterThan(byteTotal, 38_000_000)
        XCTAssertEqual(reader.bufferCapacity, capacity, "the buffer never grows")
        XCTAssertLessThan(capacity, 2 << 20)
        if let rssBefore, let rssAfter = residentBytes() {
            XCTAssertLessThan(rssAfter - rssBefore, 16 << 20, "reading 40 MB must keep memory flat")
        }
    }

    func testTruncatedCompressedFileReportsTheLastLineRead() throws {
        // Enough lines for many zstd blocks (a block holds up to 128 KiB of text and decodes
        // only when whole), so the cut falls after some complete blocks.
        let lineCount = 40_000
        let original = (1...lineCount).map { "{\"seq\":\($0),\"text\":\"line \($0) ✓\"}\n" }.joined()
        let compressed = try compressToBytes(original)
        let path = directory.path("cut.jsonl.zst")
        try Data(compressed.prefix(compressed.count * 6 / 10)).write(to: URL(fileURLWithPath: path))
        let reader = try LineReader(path: path)
        var lastNumber = 0
        do {
            while let line = try reader.nextLine() {
                lastNumber = line.number
                XCTAssertEqual(String(decoding: line.bytes, as: UTF8.self), "{\"seq\":\(line.number),\"text\":\"line \(line.number) ✓\"}")
            }
            XCTFail("a cut stream must not end cleanly")
        } catch {
            XCTAssertEqual(error.kind, .truncated)
            XCTAssertGreaterThan(lastNumber, 1_000)
            XCTAssertLessThan(lastNumber, lineCount)
            XCTAssertEqual(error.line, lastNumber)
            XCTAssertEqual(error.description, "\(path):\(lastNumber):1: error: truncated zstd stream (the file ends inside a frame)")
        }
        XCTAssertThrowsError(try reader.nextLine(), "a stream error is final")
    }

    func testCorruptCompressedFileIsReported() throws {
        let original = (1...5_000).map { "{\"seq\":\($0)}\n" }.joined()
        var compressed = try compressToBytes(original)
        let middle = compressed.count / 2
        for offset in middle..<(middle + 8) { compressed[offset] ^= 0x5A }
        let path = directory.path("bad.jsonl.zst")
        try Data(compressed).write(to: URL(fileURLWithPath: path))
        let reader = try LineReader(path: path)
        XCTAssertThrowsError(try { while try reader.nextLine() != nil {} }()) { error in
            guard let error = error as? InputError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .corrupt, error.description)
            XCTAssertTrue(error.description.hasPrefix(path + ":"), error.description)
            XCTAssertTrue(error.message.hasPrefix("corrupt zstd data: "), error.message)
        }
    }

    func testPlainFileNamedWithoutZstIsNotDecompressed() throws {
        let compressed = try compressToBytes("x\n")
        let path = directory.path("looks-compressed.jsonl")
        try Data(compressed).write(to: URL(fileURLWithPath: path))
        // Raw zstd bytes are not UTF-8 text: the first line is reported, not decoded.
        XCTAssertThrowsError(try readAll(path)) { error in
            XCTAssertEqual((error as? InputError)?.kind, .invalidUTF8)
        }
    }

    // MARK: - Errors

    func testMissingFileAndDirectory() throws {
        let missing = directory.path("traces/none.jsonl")
        XCTAssertThrowsError(try LineReader(path: missing)) { error in
            XCTAssertEqual((error as? InputError)?.kind, .noSuchFile)
            XCTAssertEqual("\(error)", "\(missing): error: no such file")
        }
        XCTAssertThrowsError(try LineReader(path: directory.path("none.jsonl.zst"))) { error in
            XCTAssertEqual((error as? InputError)?.kind, .noSuchFile)
        }
        XCTAssertThrowsError(try LineReader(path: directory.url.path)) { error in
            XCTAssertEqual((error as? InputError)?.kind, .unreadable)
            XCTAssertEqual((error as? InputError)?.message, "is a directory, not a file")
        }
    }

    func testLineTooLongIsReportedAndSkipped() throws {
        // Limit 16: 16 bytes (plus CRLF) pass, 17 fail, however the bytes arrive.
        let text = "ok\n" + String(repeating: "a", count: 16) + "\r\n" + String(repeating: "b", count: 17) + "\n"
            + String(repeating: "c", count: 100) + "\nafter\nend"
        for chunk in [1, 4, 64] {
            let reader = LineReader(source: MemorySource(Array(text.utf8), path: "t.jsonl", chunk: chunk),
                                    lineLengthMax: 16, chunkSize: chunk)
            XCTAssertEqual(try reader.nextLine().map { Line($0.number, $0.bytes) }, Line(1, "ok"))
            XCTAssertEqual(try reader.nextLine().map { Line($0.number, $0.bytes) }, Line(2, String(repeating: "a", count: 16)))
            for expectedLine in [3, 4] {
                XCTAssertThrowsError(try reader.nextLine(), "chunk \(chunk)") { error in
                    guard let error = error as? InputError else { return XCTFail("\(error)") }
                    XCTAssertEqual(error.kind, .lineTooLong)
                    XCTAssertEqual(error.description, "t.jsonl:\(expectedLine):17: error: line is longer than the limit of 16 bytes")
                }
            }
            XCTAssertEqual(try reader.nextLine().map { Line($0.number, $0.bytes) }, Line(5, "after"), "chunk \(chunk)")
            XCTAssertEqual(try reader.nextLine().map { Line($0.number, $0.bytes) }, Line(6, "end"))
            XCTAssertNil(try reader.nextLine())
        }
    }

    func testOverlongLastLineWithoutNewline() throws {
        let reader = LineReader(source: MemorySource(Array("fine\n0123456789".utf8), path: "m", chunk: 100), lineLengthMax: 8)
        XCTAssertNotNil(try reader.nextLine())
        XCTAssertThrowsError(try reader.nextLine()) { error in
            XCTAssertEqual((error as? InputError)?.kind, .lineTooLong)
            XCTAssertEqual((error as? InputError)?.line, 2)
        }
        XCTAssertNil(try reader.nextLine())
    }

    func testInvalidUTF8ReportsLineAndByteColumn() throws {
        var bytes = Array("{\"a\":1}\n".utf8)
        bytes += Array("{\"w\":\"ёж".utf8) + [0xFF] + Array("\"}\n".utf8)  // ёж is 4 bytes: 0xFF is byte 11
        bytes += Array("{\"b\":2}\n".utf8)
        let path = directory.path("bad-utf8.jsonl")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try LineReader(path: path)
        XCTAssertEqual(try reader.nextLine()?.number, 1)
        XCTAssertThrowsError(try reader.nextLine()) { error in
            guard let error = error as? InputError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .invalidUTF8)
            XCTAssertEqual(error.line, 2)
            XCTAssertEqual(error.column, 11)
            XCTAssertEqual(error.description, "\(path):2:11: error: invalid UTF-8 (byte 0xFF)")
        }
        XCTAssertEqual(try reader.nextLine().map { Line($0.number, $0.bytes) }, Line(3, "{\"b\":2}"), "reading goes on")

        let unchecked = try LineReader(path: path, validatesUTF8: false)
        _ = try unchecked.nextLine()
        XCTAssertEqual(try unchecked.nextLine()?.bytes.count, 13, "without validation the raw bytes come through")
    }

    func testConsumerErrorsUseTheCurrentLine() throws {
        let path = try write("scenario.jsonl", "{}\n{\"t\": -1}\n")
        let reader = try LineReader(path: path)
        XCTAssertEqual(reader.error("no line yet").description, "\(path): error: no line yet")
        _ = try reader.nextLine()
        _ = try reader.nextLine()
        let error = reader.error("time must not be negative", column: 7)
        XCTAssertEqual(error.description, "\(path):2:7: error: time must not be negative")
        XCTAssertEqual(error.kind, .invalidContent)
        XCTAssertEqual(InputError(.corrupt, file: "f", line: 3, message: "m").description, "f:3:1: error: m")
        XCTAssertEqual(InputError(.corrupt, file: "f", column: 3, message: "m").description, "f: error: m",
                       "a column without a line is not shown")
    }

    func testForEachLine() throws {
        let path = try write("each.jsonl", "a\nbb\nccc\n")
        var lengths: [Int] = []
        try LineReader(path: path).forEachLine { number, bytes in
            XCTAssertEqual(number, lengths.count + 1)
            lengths.append(bytes.count)
        }
        XCTAssertEqual(lengths, [1, 2, 3])
    }

    // MARK: - UTF-8 validation

    func testValidateUTF8KnownCases() {
        let cases: [([UInt8], Int?)] = [
            ([], nil),
            (Array("plain ascii that is longer than eight bytes".utf8), nil),
            (Array("Привет 👩‍👩‍👧 中文 é".utf8), nil),
            ([0xF4, 0x8F, 0xBF, 0xBF], nil),  // U+10FFFF, the last code point
            ([0xEF, 0xBF, 0xBF], nil),  // U+FFFF, a noncharacter but valid
            ([0x41, 0xC0, 0x80], 1),  // overlong NUL
            ([0xC1, 0xBF], 0),  // overlong 2-byte
            ([0xE0, 0x80, 0x80], 0),  // overlong 3-byte
            ([0xF0, 0x80, 0x80, 0x80], 0),  // overlong 4-byte
            ([0xED, 0xA0, 0x80], 0),  // surrogate U+D800
            ([0xF4, 0x90, 0x80, 0x80], 0),  // U+110000
            ([0xF5, 0x80, 0x80, 0x80], 0),
            ([0xFF], 0),
            (Array("abc".utf8) + [0xE2, 0x82], 3),  // cut short at the end
            (Array("abc".utf8) + [0xE2, 0x82, 0x41], 3),  // cut short before ASCII
            (Array("123456789".utf8) + [0x80], 9),  // stray continuation after the fast path
            (Array("12345678".utf8) + [0xC3, 0xA9] + Array("1234567".utf8) + [0xC3], 17),
        ]
        for (bytes, expected) in cases {
            let got = bytes.withUnsafeBufferPointer { LineReader.validateUTF8($0) }
            XCTAssertEqual(got, expected, "\(bytes.map { String($0, radix: 16) })")
        }
    }

    func testValidateUTF8AgreesWithTheStandardLibrary() {
        for seed: UInt64 in 1...200 {
            var generator = SplitMix(seed: seed)
            // Mostly valid text with a few random bytes, so both outcomes are common.
            var bytes = Array("ключ 🚀 key \(seed)".utf8)
            for _ in 0..<Int(generator.next() % 3) {
                let position = Int(generator.next() % UInt64(bytes.count + 1))
                bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
            }
            let offset = bytes.withUnsafeBufferPointer { LineReader.validateUTF8($0) }
            let isValid = String(validating: bytes, as: UTF8.self) != nil
            XCTAssertEqual(offset == nil, isValid, "seed \(seed): \(bytes)")
            if let offset {
                // Everything before the reported offset is valid on its own.
                XCTAssertNotNil(String(validating: bytes[..<offset], as: UTF8.self), "seed \(seed)")
            }
        }
    }

    /// Measures the reader on plain and compressed input. Prints lines per second; asserts
    /// only correctness, since timing depends on the machine and the build.
    func testThroughput() throws {
        let lineCount = 300_000
        let line = "{\"t\":123456789,\"e\":\"key\",\"k\":\"a\",\"x\":12.5}"
        let plainPath = directory.path("speed.jsonl")
        let zstPath = directory.path("speed.jsonl.zst")
        let plain = try AtomicFileWriter(path: plainPath)
        let zstFile = try AtomicFileWriter(path: zstPath)
        let compressor = try ZstdCompressor(destination: zstFile)
        let lineBytes = Array((line + "\n").utf8)
        for _ in 0..<lineCount {
            try plain.write(lineBytes)
            try compressor.write(lineBytes)
        }
        try plain.commit()
        try compressor.finish()
        try zstFile.commit()
        for path in [plainPath, zstPath] {
            let start = DispatchTime.now()
            let reader = try LineReader(path: path)
            var count = 0
            while let next = try reader.nextLine() { count += next.bytes.count == line.utf8.count ? 1 : 0 }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            XCTAssertEqual(count, lineCount)
            print("bench line_reader_lines_per_second \(Int(Double(lineCount) / seconds)) lines/s (\(path.hasSuffix(".zst") ? "zstd" : "plain"), this build)")
        }
    }

    // MARK: - Helpers

    private struct Line: Equatable, CustomStringConvertible {
        let number: Int
        let text: String
        init(_ number: Int, _ text: String) {
            self.number = number
            self.text = text
        }
        init(_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) {
            self.init(number, String(decoding: bytes, as: UTF8.self))
        }
        init(_ pair: (Int, String)) { self.init(pair.0, pair.1) }
        var description: String { "\(number): \(text.debugDescription)" }
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let path = directory.path(name)
        try AtomicFileWriter.write(text, to: path)
        return path
    }

    private func readAll(_ path: String, validatesUTF8: Bool = true) throws -> [Line] {
        let reader = try LineReader(path: path, validatesUTF8: validatesUTF8)
        var lines: [Line] = []
        while let line = try reader.nextLine() { lines.append(Line(line.number, line.bytes)) }
        return lines
    }

    private func compressToBytes(_ text: String) throws -> [UInt8] {
        let sink = MemorySink(path: "memory.zst")
        let compressor = try ZstdCompressor(destination: sink)
        try compressor.write(text)
        try compressor.finish()
        return sink.bytes
    }
}
