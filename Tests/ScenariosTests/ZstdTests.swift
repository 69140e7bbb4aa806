import Foundation
import XCTest

@testable import Scenarios

final class ZstdTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory(prefix: "keysim-zstd") }
    override func tearDown() { directory = nil }

    func testRoundTripAcrossSizesAndBufferShapes() throws {
        for seed: UInt64 in 1...6 {
            var generator = SplitMix(seed: seed)
            let size = [0, 1, 1_000, 131_073, 700_000, 2_000_000][Int(seed - 1)]
            let original = makeSampleBytes(count: size, generator: &generator)
            let compressed = try compress(original, level: Int(generator.next() % 5) + 1)
            for (inputChunk, outputChunk) in [(1, 7), (13, 1), (4096, 4096), (1 << 20, 64 << 10), (999, 1 << 20)] {
                if original.count > 200_000 && (inputChunk == 1 || outputChunk == 1) { continue }
                let decoded = try decompress(compressed, inputChunk: inputChunk, outputChunk: outputChunk)
                XCTAssertEqual(decoded, original, "seed \(seed) size \(size) chunks \(inputChunk)/\(outputChunk)")
            }
        }
    }

    func testCompressionIsDeterministicAndChecksummed() throws {
        var generator = SplitMix(seed: 99)
        let original = makeSampleBytes(count: 300_000, generator: &generator)
        let first = try compress(original, level: 3)
        let second = try compress(original, level: 3)
        XCTAssertEqual(first, second, "same input and level must give the same bytes")
        XCTAssertLessThan(first.count, original.count / 2, "sample text should compress")
        // Frame header descriptor byte (after the 4-byte magic): bit 2 is the checksum flag.
        XCTAssertEqual(Array(first.prefix(4)), [0x28, 0xB5, 0x2F, 0xFD])
        XCTAssertNotEqual(first[4] & 0x04, 0, "content checksum flag set")
        let unchecked = try compress(original, level: 3, checksum: false)
        XCTAssertEqual(unchecked[4] & 0x04, 0)
        XCTAssertEqual(try decompress(unchecked), original)
    }

    func testConcatenatedFramesDecodeAsOneStream() throws {
        let sink = MemorySink(path: "frames.zst")
        let compressor = try ZstdCompressor(destination: sink, level: 1)
        try compressor.write(Array("first frame\n".utf8))
        try compressor.finish()
        try compressor.finish()  // nothing written since: no extra frame
        try compressor.write(Array("second frame\n".utf8))
        try compressor.flush()
        try compressor.write(Array("still second\n".utf8))
        try compressor.finish()
        XCTAssertEqual(compressor.frameCount, 2)
        // A third frame made separately and appended byte-wise, as `cat a.zst b.zst` would.
        let third = try compress(Array("third\n".utf8), level: 19)
        let stream = sink.bytes + third
        XCTAssertEqual(String(decoding: try decompress(stream, inputChunk: 5, outputChunk: 3), as: UTF8.self),
                       "first frame\nsecond frame\nstill second\nthird\n")

        // An empty frame is a valid, empty stream; finishing before writing makes one.
        let emptySink = MemorySink(path: "empty.zst")
        try ZstdCompressor(destination: emptySink).finish()
        XCTAssertFalse(emptySink.bytes.isEmpty)
        XCTAssertEqual(try decompress(emptySink.bytes), [])
    }

    func testSkippableFrameIsSkipped() throws {
        // Magic 0x184D2A50 little-endian, 4-byte length, payload.
        let skippable: [UInt8] = [0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 0xAA, 0xBB, 0xCC]
        let stream = skippable + (try compress(Array("payload".utf8), level: 3))
        XCTAssertEqual(try decompress(stream), Array("payload".utf8))
    }

    func testTruncatedStreamIsReportedAfterTheDecodedPrefix() throws {
        var generator = SplitMix(seed: 5)
        let original = makeSampleBytes(count: 400_000, generator: &generator)
        let compressed = try compress(original, level: 3)
        for cut in [compressed.count - 1, compressed.count - 4, compressed.count / 2, 20, 5, 1] {
            let source = MemorySource(Array(compressed.prefix(cut)), path: "cut.zst", chunk: 4096)
            let decompressor = try ZstdDecompressor(source: source)
            var decoded: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 8192)
            XCTAssertThrowsError(try drain(decompressor, into: &decoded, buffer: &buffer), "cut at \(cut)") { error in
                let error = error as? InputError
                XCTAssertEqual(error?.kind, .truncated, "cut at \(cut): \(String(describing: error))")
                XCTAssertEqual(error?.file, "cut.zst")
                XCTAssertEqual(error?.message.hasPrefix("truncated zstd stream"), true)
            }
            XCTAssertEqual(Array(original.prefix(decoded.count)), decoded, "what came before the cut is intact")
            // Cutting only the trailing checksum still decodes all content, yet is reported.
            XCTAssertLessThanOrEqual(decoded.count, original.count)
            if cut < compressed.count - 4 { XCTAssertLessThan(decoded.count, original.count) }
            // The error is not forgotten: asking again reports it again.
            XCTAssertThrowsError(try buffer.withUnsafeMutableBytes { try decompressor.read(into: $0) })
        }

        XCTAssertThrowsError(try decompress([])) { error in
            XCTAssertEqual((error as? InputError)?.kind, .truncated)
            XCTAssertEqual((error as? InputError)?.message, "truncated zstd stream (the file is empty)")
        }
    }

    func testCorruptStreamIsReported() throws {
        var generator = SplitMix(seed: 11)
        let original = makeSampleBytes(count: 200_000, generator: &generator)
        let compressed = try compress(original, level: 3)
        var corruptCount = 0
        for trial in 0..<20 {
            var damaged = compressed
            // Flip bytes in the middle third, away from the frame header.
            let middle = compressed.count / 3 + Int(generator.next() % UInt64(compressed.count / 3))
            for offset in 0..<4 { damaged[middle + offset] ^= UInt8(truncatingIfNeeded: generator.next() | 1) }
            XCTAssertThrowsError(try decompress(damaged, inputChunk: 1000, outputChunk: 4096), "trial \(trial)") { error in
                guard let error = error as? InputError else { return XCTFail("\(error)") }
                // A flipped length field can make the decoder wait for bytes that never come;
                // everything else is caught as corrupt, at the latest by the checksum.
                XCTAssertTrue([.corrupt, .truncated].contains(error.kind), error.description)
                if error.kind == .corrupt {
                    corruptCount += 1
                    XCTAssertTrue(error.message.hasPrefix("corrupt zstd data: "), error.message)
                }
            }
        }
        XCTAssertGreaterThan(corruptCount, 10, "most flips are caught as corruption")

        XCTAssertThrowsError(try decompress(Array("{\"not\": \"zstd at all\"}\n".utf8))) { error in
            XCTAssertEqual((error as? InputError)?.kind, .corrupt)
            XCTAssertEqual((error as? InputError)?.description,
                           "memory.zst: error: corrupt zstd data: Unknown frame descriptor")
        }
    }

    func testStreamingCompressionToFileKeepsMemoryFlat() throws {
        // 64 MiB of output written in small pieces through the streaming compressor.
        let path = directory.path("big.jsonl.zst")
        let file = try AtomicFileWriter(path: path)
        let compressor = try ZstdCompressor(destination: file, level: 1)
        let line = Array(String(repeating: "x", count: 1023).utf8) + [0x0A]
        let rssBefore = residentBytes()
        for _ in 0..<(64 << 10) { try compressor.write(line) }
        try compressor.finish()
        try file.commit()
        if let rssBefore, let rssAfter = residentBytes() {
            XCTAssertLessThan(rssAfter - rssBefore, 32 << 20, "compressing 64 MiB must not hold it in memory")
        }
        let decompressor = try ZstdDecompressor(path: path)
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try decompressor.read(into: $0) }
            if count == 0 { break }
            // Content is guarded by the frame checksum; check the shape of each chunk's edges.
            XCTAssertTrue(buffer[0] == 0x78 || buffer[0] == 0x0A)
            total += count
        }
        XCTAssertEqual(total, 64 << 20)
    }

    func testInteroperatesWithZstdCommandLine() throws {
        guard let zstd = findExecutable("zstd") else { throw XCTSkip("zstd command not installed") }
        var generator = SplitMix(seed: 3)
        let original = makeSampleBytes(count: 250_000, generator: &generator)
        // Ours → CLI.
        let ours = directory.path("ours.zst")
        try AtomicFileWriter.write(try compress(original, level: 5), to: ours)
        let decodedByCLI = try runProgram(zstd, ["-d", "-c", "-q", ours])
        XCTAssertEqual(decodedByCLI, original)
        // CLI (two files, concatenated frames, --long window) → ours.
        let plain = directory.path("plain.txt")
        try Data(original).write(to: URL(fileURLWithPath: plain))
        let theirs = directory.path("theirs.zst")
        let compressedByCLI = try runProgram(zstd, ["-c", "-q", "-19", "--long=24", plain, plain])
        try Data(compressedByCLI).write(to: URL(fileURLWithPath: theirs))
        let decoder = try ZstdDecompressor(path: theirs)
        var decoded: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 10_000)
        try drain(decoder, into: &decoded, buffer: &buffer)
        XCTAssertEqual(decoded, original + original)
    }

    func testWindowLimitRefusesOversizedFrames() throws {
        guard let zstd = findExecutable("zstd") else { throw XCTSkip("zstd command not installed") }
        let plain = directory.path("window.txt")
        try Data(repeating: 0x41, count: 1 << 16).write(to: URL(fileURLWithPath: plain))
        let compressed = try runProgram(zstd, ["-c", "-q", "--long=22", plain])
        let limited = try ZstdDecompressor(source: MemorySource(compressed, path: "w.zst", chunk: 1 << 16), windowLogMax: 10)
        var decoded: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        XCTAssertThrowsError(try drain(limited, into: &decoded, buffer: &buffer)) { error in
            XCTAssertEqual((error as? InputError)?.kind, .corrupt)
            XCTAssertEqual((error as? InputError)?.message.contains("too much memory"), true, "\(error)")
        }
    }

    func testMissingCompressedFile() {
        XCTAssertThrowsError(try ZstdDecompressor(path: directory.path("absent.jsonl.zst"))) { error in
            XCTAssertEqual((error as? InputError)?.kind, .noSuchFile)
        }
    }

    // MARK: - Helpers

    private func compress(_ bytes: [UInt8], level: Int, checksum: Bool = true) throws -> [UInt8] {
        let sink = MemorySink(path: "memory.zst")
        let compressor = try ZstdCompressor(destination: sink, level: level, checksum: checksum)
        // Feed in uneven pieces to exercise the streaming path.
        var offset = 0
        var piece = 1
        while offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            try bytes[offset..<end].withUnsafeBytes { try compressor.write($0) }
            offset = end
            piece = piece * 3 + 1
        }
        try compressor.finish()
        return sink.bytes
    }

    private func decompress(_ bytes: [UInt8], inputChunk: Int = 1 << 16, outputChunk: Int = 1 << 16) throws -> [UInt8] {
        let decompressor = try ZstdDecompressor(source: MemorySource(bytes, path: "memory.zst", chunk: inputChunk))
        var decoded: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: outputChunk)
        try drain(decompressor, into: &decoded, buffer: &buffer)
        return decoded
    }

    private func drain(_ source: ByteSource, into decoded: inout [UInt8], buffer: inout [UInt8]) throws {
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { return }
            decoded += buffer[..<count]
        }
    }
}

final class AtomicFileWriterTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory(prefix: "keysim-atomic") }
    override func tearDown() { directory = nil }

    func testCommitReplacesTheFileWholeAndLeavesNoTemporary() throws {
        let path = directory.path("report.csv")
        try AtomicFileWriter.write("old\n", to: path)
        let writer = try AtomicFileWriter(path: path, bufferSize: 10)
        XCTAssertEqual(writer.temporaryPath, "\(path).tmp-\(getpid())")
        try writer.write("replication,key_p99_ns\n")
        try writer.write([UInt8]("1,".utf8))
        try writer.write(String(repeating: "9", count: 100))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old\n", "nothing shows before commit")
        XCTAssertTrue(FileManager.default.fileExists(atPath: writer.temporaryPath))
        try writer.commit()
        XCTAssertEqual(writer.byteCount, 25 + 100)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8),
                       "replication,key_p99_ns\n1," + String(repeating: "9", count: 100))
        XCTAssertEqual(try directory.contents(), ["report.csv"])
    }

    func testDiscardAndReleaseKeepTheOldFile() throws {
        let path = directory.path("trace.jsonl")
        try AtomicFileWriter.write("kept\n", to: path)
        let discarded = try AtomicFileWriter(path: path)
        try discarded.write("half-writ")
        discarded.discard()
        discarded.discard()
        do {
            let abandoned = try AtomicFileWriter(path: path)
            try abandoned.write("also half")
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "kept\n")
        XCTAssertEqual(try directory.contents(), ["trace.jsonl"])
    }

    func testCreatingInAMissingDirectoryNamesTheFile() {
        let path = directory.path("no-such-dir/out.json")
        XCTAssertThrowsError(try AtomicFileWriter(path: path)) { error in
            guard let error = error as? InputError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .writeFailed)
            XCTAssertEqual(error.file, path)
            XCTAssertTrue(error.description.hasPrefix("\(path): error: cannot create temporary file "), error.description)
            XCTAssertTrue(error.message.contains("No such file or directory"), error.message)
        }
    }

    func testFullDiskIsReportedAsNoSpace() throws {
        // /dev/full fails every write with ENOSPC: the same path a full disk takes.
        guard FileManager.default.fileExists(atPath: "/dev/full") else { throw XCTSkip("no /dev/full") }
        let descriptor = open("/dev/full", O_WRONLY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        let failure = [UInt8](repeating: 1, count: 100).withUnsafeBytes { SystemCalls.writeAll(descriptor, $0) }
        XCTAssertEqual(failure?.isNoSpace, true)
        XCTAssertEqual(failure?.description, "No space left on device (errno 28)")
    }

    func testFullDiskLeavesNoHalfWrittenOutput() throws {
        // A tiny tmpfs is a real full disk; mounting needs privileges the machine may lack.
        let disk = try SmallDisk(kibibytes: 64)
        let mountPoint = disk.path
        let path = mountPoint + "/export.html"
        try AtomicFileWriter.write("previous export\n", to: path)
        let writer = try AtomicFileWriter(path: path)
        XCTAssertThrowsError(try {
            for _ in 0..<64 { try writer.write([UInt8](repeating: 0x41, count: 16 << 10)) }
            try writer.commit()
        }()) { error in
            guard let error = error as? InputError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .noSpace, error.description)
            XCTAssertEqual(error.file, path)
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "previous export\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: mountPoint), ["export.html"],
                       "the temporary file is removed after the failure")
        XCTAssertThrowsError(try writer.write("more"), "a failed writer stays failed")
    }
}

// MARK: - Test support shared by this target's files (Tests/TestSupport holds what other targets share)

/// Bytes served in chunks of at most `chunk`, to exercise every buffer boundary.
final class MemorySource: ByteSource {
    let path: String
    private let bytes: [UInt8]
    private let chunk: Int
    private var offset = 0
    init(_ bytes: [UInt8], path: String, chunk: Int) {
        self.bytes = bytes
        self.path = path
        self.chunk = chunk
    }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let count = min(chunk, buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}

/// Collects written bytes in memory.
final class MemorySink: ByteSink {
    let path: String
    private(set) var bytes: [UInt8] = []
    init(path: String) { self.path = path }
    func write(_ bytes: UnsafeRawBufferPointer) throws(InputError) { self.bytes += bytes }
}

/// Trace-like text (JSON lines with words and numbers) mixed with some random bytes.
func makeSampleBytes(count: Int, generator: inout SplitMix) -> [UInt8] {
    let words = ["tap", "suggest", "debounce", "cloud", "underline", "retract", "ёлка", "🚀", "delete"]
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count + 64)
    while bytes.count < count {
        let r = generator.next()
        if r % 17 == 0 {
            for _ in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: generator.next())) }
        } else {
            bytes += Array("{\"t\":\(r % 1_000_000),\"e\":\"\(words[Int(r >> 32) % words.count])\"}\n".utf8)
        }
    }
    return Array(bytes.prefix(count))
}

/// The resident set size of this process, from /proc (Linux only).
func residentBytes() -> Int? { ProcStatus.kibibytes("VmRSS").map { $0 * 1024 } }

func findExecutable(_ name: String) -> String? {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let candidate = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// Runs a program and returns its standard output; throws if it exits non-zero.
@discardableResult
func runProgram(_ executable: String, _ arguments: [String]) throws -> [UInt8] {
    struct Failed: Error { let status: Int32 }
    let output = try ProgramRunner.run(URL(fileURLWithPath: executable), arguments)
    guard output.status == 0 else { throw Failed(status: output.status) }
    return Array(output.stdout)
}
