import Foundation
import XCTest
import Sim
@testable import Scenarios

final class WAVSpeechDetectorTests: XCTestCase {
    let tolerance = 20.0   // milliseconds

    func assertDetects(_ audio: WAVAudio, onsetMs: Double, lengthMs: Double, file: StaticString = #filePath, line: UInt = #line) {
        guard let speech = SpeechDetector().detect(audio) else { return XCTFail("no speech found", file: file, line: line) }
        XCTAssertEqual(speech.onset.milliseconds, onsetMs, accuracy: tolerance, "onset", file: file, line: line)
        XCTAssertEqual(speech.length.milliseconds, lengthMs, accuracy: tolerance, "length", file: file, line: line)
    }

    func testKnownSilencePadding16Bit() throws {
        for (lead, speech, tail) in [(500.0, 1200.0, 800.0), (0, 900, 300), (1234, 3400, 56), (37, 250, 1000)] {
            let samples = WAVBytes.clip(rate: 16_000, leadMs: lead, speechMs: speech, tailMs: tail)
            let audio = try WAVReader.decode(WAVBytes.pcm16(samples, rate: 16_000), file: "c.wav")
            assertDetects(audio, onsetMs: lead, lengthMs: speech)
        }
    }

    func testKnownSilencePaddingFloat() throws {
        let samples = WAVBytes.clip(rate: 44_100, leadMs: 730, speechMs: 2050, tailMs: 415, seed: 9)
        let audio = try WAVReader.decode(WAVBytes.float32(samples, rate: 44_100), file: "f.wav")
        assertDetects(audio, onsetMs: 730, lengthMs: 2050)
    }

    func testQuietRecordingAndAClickAreHandled() {
        // The same speech 20 dB quieter is still found (the threshold follows the peak) …
        let quiet = WAVBytes.clip(rate: 16_000, leadMs: 400, speechMs: 1000, tailMs: 400).map { $0 * 0.1 }
        assertDetects(WAVAudio(sampleRate: 16_000, encoding: .float(bits: 32), samples: quiet), onsetMs: 400, lengthMs: 1000)
        // … and a 5 ms click in the silence before it is not speech.
        var clicked = WAVBytes.clip(rate: 16_000, leadMs: 600, speechMs: 1000, tailMs: 200)
        for i in 1600..<1680 { clicked[i] = 0.8 }
        assertDetects(WAVAudio(sampleRate: 16_000, encoding: .pcm(bits: 16), samples: clicked), onsetMs: 600, lengthMs: 1000)
    }

    func testSilenceHasNoSpeech() {
        XCTAssertNil(SpeechDetector().detect(WAVAudio(sampleRate: 16_000, encoding: .pcm(bits: 16), samples: Array(repeating: 0, count: 16_000))))
        XCTAssertNil(SpeechDetector().detect(WAVAudio(sampleRate: 16_000, encoding: .pcm(bits: 16), samples: [])))
        let hiss = WAVBytes.clip(rate: 16_000, leadMs: 1000, speechMs: 0, tailMs: 0)
        XCTAssertNil(SpeechDetector().detect(WAVAudio(sampleRate: 16_000, encoding: .pcm(bits: 16), samples: hiss)))
    }

    func testEspeakOutput() throws {
        let binary = "/usr/bin/espeak-ng"
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: binary), "espeak-ng is not installed")
        let dir = try WAVBytes.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-w", dir + "/hello.wav", "hello there"]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)

        let audio = try WAVReader.read(path: dir + "/hello.wav")
        XCTAssertEqual(audio.encoding, .pcm(bits: 16))
        XCTAssertEqual(audio.sampleRate, 22_050)
        let speech = try XCTUnwrap(SpeechDetector().detect(audio))
        XCTAssertGreaterThan(speech.length.milliseconds, 400)                     // two words
        XCTAssertLessThan(speech.length.milliseconds, 1500)
        XCTAssertLessThanOrEqual(speech.onset + speech.length, audio.duration)

        // The same speech behind 600 ms and before 400 ms of added silence.
        let padded = Array(repeating: Float(0), count: 13_230) + audio.samples + Array(repeating: Float(0), count: 8820)
        try WAVBytes.write(WAVBytes.pcm16(padded, rate: 22_050), to: dir + "/padded.wav")
        let moved = try XCTUnwrap(SpeechDetector().detect(try WAVReader.read(path: dir + "/padded.wav")))
        XCTAssertEqual(moved.onset.milliseconds, speech.onset.milliseconds + 600, accuracy: tolerance)
        XCTAssertEqual(moved.length.milliseconds, speech.length.milliseconds, accuracy: tolerance)
    }
}
