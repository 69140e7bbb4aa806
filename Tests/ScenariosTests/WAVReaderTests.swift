import Foundation
import XCTest
import Sim
@testable import Scenarios

final class WAVReaderTests: XCTestCase {
    func testReads16BitPCM() throws {
        let samples: [Float] = [0, 0.5, -0.5, 1 - 1 / 32768, -1, 0.25]
        let audio = try WAVReader.decode(WAVBytes.pcm16(samples, rate: 16_000), file: "a.wav")
        XCTAssertEqual(audio.sampleRate, 16_000)
        XCTAssertEqual(audio.channels, 1)
        XCTAssertEqual(audio.encoding, .pcm(bits: 16))
        XCTAssertEqual(audio.samples, samples)
        XCTAssertEqual(audio.duration, SimDuration(nanoseconds: 375_000))
    }

    func testReads32BitFloatStereoMixedDown() throws {
        let interleaved: [Float] = [0.5, 0.25, -1, 1, 0.125, 0.125]
        let audio = try WAVReader.decode(WAVBytes.float32(interleaved, rate: 48_000, channels: 2), file: "b.wav")
        XCTAssertEqual(audio.encoding, .float(bits: 32))
        XCTAssertEqual(audio.channels, 2)
        XCTAssertEqual(audio.samples, [0.375, 0, 0.125])
    }

    func testReadsExtensibleFloatAndOtherChunks() throws {
        let audio = try WAVReader.decode(WAVBytes.float32([0.5, -0.5], rate: 8000, extensible: true), file: "c.wav")
        XCTAssertEqual(audio.encoding, .float(bits: 32))
        XCTAssertEqual(audio.samples, [0.5, -0.5])
        let padded = WAVBytes.file(tag: 1, channels: 1, rate: 8000, bits: 8, data: [128, 255, 0], extraChunk: true)
        XCTAssertEqual(try WAVReader.decode(padded, file: "d.wav").samples, [0, 127.0 / 128, -1])
        let pcm24 = WAVBytes.file(tag: 1, channels: 1, rate: 8000, bits: 24, data: [0x00, 0x00, 0x40, 0x00, 0x00, 0xC0])
        XCTAssertEqual(try WAVReader.decode(pcm24, file: "e.wav").samples, [0.5, -0.5])
    }

    func testReadsAFileFromDisk() throws {
        let dir = try WAVBytes.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try WAVBytes.write(WAVBytes.pcm16(Array(repeating: 0.5, count: 100_000), rate: 16_000), to: dir + "/long.wav")
        let audio = try WAVReader.read(path: dir + "/long.wav")
        XCTAssertEqual(audio.samples.count, 100_000)
        XCTAssertEqual(audio.duration, .milliseconds(6250))
    }

    func testBadInputs() {
        func error(_ bytes: [UInt8]) -> String {
            do { _ = try WAVReader.decode(bytes, file: "clip.wav"); return "no error" } catch { return error.description }
        }
        let adpcm = WAVBytes.file(tag: 2, channels: 1, rate: 8000, bits: 4, data: [0, 0])
        XCTAssertEqual(error(adpcm),
                       "clip.wav: error: unsupported WAV encoding: format tag 0x0002 (Microsoft ADPCM); keysim reads PCM (1) and IEEE float (3)")
        let truncated = WAVBytes.file(tag: 1, channels: 1, rate: 8000, bits: 16, data: [0, 0, 1, 0], declaredDataSize: 1000)
        XCTAssertEqual(error(truncated), "clip.wav: error: truncated WAV: the data chunk declares 1000 bytes but 4 follow")
        let zeroRate = WAVBytes.file(tag: 1, channels: 1, rate: 0, bits: 16, data: [0, 0])
        XCTAssertEqual(error(zeroRate), "clip.wav: error: WAV sample rate is 0")
        let halfFrame = WAVBytes.file(tag: 3, channels: 1, rate: 8000, bits: 32, data: [0, 0, 0, 0, 0, 0])
        XCTAssertEqual(error(halfFrame), "clip.wav: error: truncated WAV: the data chunk (6 bytes) ends inside a 4-byte frame")
        let pcm12 = WAVBytes.file(tag: 1, channels: 1, rate: 8000, bits: 12, data: [])
        XCTAssertEqual(error(pcm12), "clip.wav: error: unsupported WAV sample size: 12-bit PCM")
        let whole = WAVBytes.pcm16([0.1, 0.2], rate: 8000)
        XCTAssertEqual(error(Array(whole.prefix(30))), "clip.wav: error: truncated WAV: the fmt chunk is incomplete")
        XCTAssertEqual(error(Array(whole.prefix(36))), "clip.wav: error: truncated WAV: no data chunk")
        XCTAssertEqual(error(Array(whole.prefix(8))), "clip.wav: error: truncated WAV: 8 bytes, shorter than a RIFF header")
        XCTAssertEqual(error([]), "clip.wav: error: empty file, not a WAV file")
        XCTAssertEqual(error(Array("ID3 this is an mp3 file".utf8)), "clip.wav: error: not a WAV file (no RIFF/WAVE header)")
        do { _ = try WAVReader.decode(truncated, file: "x"); XCTFail() } catch { XCTAssertEqual(error.kind, .truncated) }
    }

    func testMissingFile() {
        XCTAssertThrowsError(try WAVReader.read(path: "/nonexistent/keysim/clip.wav")) { error in
            XCTAssertEqual((error as? InputError)?.description, "/nonexistent/keysim/clip.wav: error: no such file")
        }
    }
}
