import Foundation
import Sim
import XCTest
@testable import Scenarios

/// What keysim refuses to read: devices, pipes and directories; files and streams past
/// their byte limits. Each refusal is an error naming the file, never a hang.
final class InputLimitsTests: XCTestCase {
    func testDevicesAndDirectoriesAreRefusedAtOpening() throws {
        for (path, words) in [("/dev/zero", "character device"), ("/dev/null", "character device"), ("/tmp", "directory")] {
            XCTAssertThrowsError(try FileByteSource(path: path), path) { error in
                let error = error as! InputError
                XCTAssertEqual(error.file, path)
                XCTAssertTrue(error.message.contains(words), error.message)
            }
        }
        let validation = TraceValidator.validate(path: "/dev/zero")
        XCTAssertEqual(validation.errorCount, 1)
        XCTAssertTrue(validation.problems[0].message.contains("character device"))
    }

    func testAFileOverItsByteLimitIsRefused() throws {
        let folder = try TemporaryDirectory(prefix: "keysim-limits")
        let path = folder.path("big.txt")
        try Data(repeating: UInt8(ascii: "x"), count: 3 << 20).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try FileByteSource(path: path, bytesMax: 1 << 20)) { error in
            XCTAssertTrue((error as! InputError).message.contains("larger than the limit of 1 MiB"), "\(error)")
        }
        XCTAssertEqual(try FileByteSource.readAll(path: path, bytesMax: 4 << 20).count, 3 << 20)
    }

    func testAStreamThatDecompressesPastItsLimitIsRefused() throws {
        // A zstd bomb in small: 8 MiB of zeros compress to a few hundred bytes.
        let sink = MemorySink(path: "bomb.zst")
        let compressor = try ZstdCompressor(destination: sink, level: 3)
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        for _ in 0..<8 { try zeros.withUnsafeBytes { try compressor.write($0) } }
        try compressor.finish()
        XCTAssertLessThan(sink.bytes.count, 4096)
        let decompressor = try ZstdDecompressor(source: MemorySource(sink.bytes, path: "bomb.zst", chunk: 1 << 16),
                                                decompressedBytesMax: 2 << 20)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        XCTAssertThrowsError(try {
            while true {
                let count = try buffer.withUnsafeMutableBytes { try decompressor.read(into: $0) }
                if count == 0 { return }
                total += count
            }
        }()) { error in
            XCTAssertEqual((error as! InputError).file, "bomb.zst")
            XCTAssertTrue((error as! InputError).message.contains("limit of 2 MiB"), "\(error)")
        }
        XCTAssertLessThanOrEqual(total, (2 << 20) + (1 << 16))
    }

    func testTheStreamedFilesHashIsTheLengthPrefixedHashOfTheBytes() throws {
        let folder = try TemporaryDirectory(prefix: "keysim-hash")
        let a = folder.path("a"), b = folder.path("b")
        let bytesA = (0..<1_100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let bytesB = Array("hello".utf8)
        try Data(bytesA).write(to: URL(fileURLWithPath: a))
        try Data(bytesB).write(to: URL(fileURLWithPath: b))
        var expected = SHA256()
        for bytes in [bytesA, bytesB] {
            expected.update((0..<8).map { UInt8(truncatingIfNeeded: UInt64(bytes.count) >> (8 * UInt64($0))) })
            expected.update(bytes)
        }
        XCTAssertEqual(try ScenarioFingerprint.filesHash([a, b]), expected.finalizeHex())
        XCTAssertThrowsError(try ScenarioFingerprint.filesHash([a, "/dev/zero"])) { error in
            XCTAssertEqual((error as! InputError).file, "/dev/zero")
        }
        XCTAssertThrowsError(try ScenarioFingerprint.filesHash([folder.url.path])) { error in
            XCTAssertTrue("\(error)".contains("is a directory"), "\(error)")
        }
    }

    func testAScenarioNamingADeviceOrADirectoryAsATracePointsAtTheField() throws {
        let folder = try TemporaryDirectory(prefix: "keysim-scenario")
        try FileManager.default.createDirectory(atPath: folder.path("dir"), withIntermediateDirectories: true)
        for (trace, words) in [("dir", "is a directory"), ("/dev/zero", "is a character device")] {
            XCTAssertThrowsError(try ScenarioLoader.parse(#"{ name: "x",\#n  traces: ["\#(trace)"] }"#, path: folder.path("s.json5"))) { error in
                let error = error as! ConfigError
                XCTAssertEqual(error.line, 2)
                XCTAssertEqual(error.column, 12)
                XCTAssertTrue(error.message.contains(words), error.message)
            }
        }
        XCTAssertThrowsError(try ScenarioLoader.load(path: "/dev/zero")) { error in
            XCTAssertTrue("\(error)".contains("character device"), "\(error)")
        }
    }
}

/// A trace must not make keysim read audio outside the trace's own folder.
final class TraceAudioPathTests: XCTestCase {
    func testAudioPathsThatLeaveTheTraceFolderAreRefusedAtTheirColumn() throws {
        for path in ["../secret.wav", "clips/../../x.wav", ".."] {
            let line = #"{"t": 1, "type": "dictation.start", "audio": "\#(path)"}"#
            var decoder = TraceLineDecoder()
            XCTAssertThrowsError(try decoder.decodeEvent(line), path) { error in
                let error = error as! TraceLineError
                XCTAssertEqual(error.column, 46)
                XCTAssertTrue(error.message.contains("must stay inside the trace's folder"), error.message)
            }
        }
        var decoder = TraceLineDecoder()
        XCTAssertEqual(try decoder.decodeEvent(#"{"t": 1, "type": "dictation.start", "audio": "clips/a..b.wav"}"#).kind,
                       .dictationStart(audio: .wavFile(path: "clips/a..b.wav", transcript: nil)))
    }
}
