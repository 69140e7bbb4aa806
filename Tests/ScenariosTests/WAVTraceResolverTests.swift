import Foundation
import XCTest
import Sim
@testable import Scenarios

final class WAVTraceResolverTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws { dir = try WAVBytes.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func writeTrace(_ lines: [String]) throws -> String {
        let path = dir + "/trace.jsonl"
        let text = (["{\"keysim\":\"trace\",\"version\":1,\"name\":\"dictation\"}"] + lines).joined(separator: "\n") + "\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func events(_ path: String) throws -> [TraceEvent] {
        var source = DictationAudioResolver(try TraceFileReader(path: path))
        var out: [TraceEvent] = []
        while let event = try source.next() { out.append(event) }
        return out
    }

    func errorText(_ path: String) -> String {
        do { _ = try events(path); return "no error" } catch { return "\(error)" }
    }

    func testWAVAudioBecomesInlineTiming() throws {
        try FileManager.default.createDirectory(atPath: dir + "/clips", withIntermediateDirectories: true)
        let clip = WAVBytes.clip(rate: 16_000, leadMs: 300, speechMs: 1500, tailMs: 200)
        try WAVBytes.write(WAVBytes.pcm16(clip, rate: 16_000), to: dir + "/clips/a.wav")
        let path = try writeTrace([
            #"{"t":1000,"type":"dictation.start","audio":"clips/a.wav","transcript":"see you at six"}"#,
            #"{"t":3000,"type":"dictation.stop"}"#,
            #"{"t":5000,"type":"dictation.start","onsetMs":100,"lengthMs":900}"#,
            #"{"t":6500,"type":"dictation.stop"}"#,
            #"{"t":7000,"type":"dictation.start","audio":"clips/a.wav"}"#,
            #"{"t":9000,"type":"dictation.stop"}"#,
        ])
        let all = try events(path)
        XCTAssertEqual(all.count, 6)
        guard case .dictationStart(.inline(let onset, let length, let transcript)) = all[0].kind else {
            return XCTFail("not resolved: \(all[0])")
        }
        XCTAssertEqual(onset.milliseconds, 300, accuracy: 20)
        XCTAssertEqual(length.milliseconds, 1500, accuracy: 20)
        XCTAssertEqual(transcript, "see you at six")
        XCTAssertEqual(all[2].kind, .dictationStart(audio: .inline(onset: .milliseconds(100), length: .milliseconds(900), transcript: nil)))
        XCTAssertEqual(all[4].kind, .dictationStart(audio: .inline(onset: onset, length: length, transcript: nil)))
    }

    func testStopWithoutStart() throws {
        let path = try writeTrace([
            #"{"t":0,"type":"key","text":"a"}"#,
            #"{"t":100,"type":"dictation.stop"}"#,
        ])
        XCTAssertEqual(errorText(path), "\(path):3:1: error: dictation.stop without a dictation.start before it")
        let twice = try writeTrace([
            #"{"t":0,"type":"dictation.start","onsetMs":0,"lengthMs":10}"#,
            #"{"t":100,"type":"dictation.stop"}"#,
            #"{"t":200,"type":"dictation.stop"}"#,
        ])
        XCTAssertEqual(errorText(twice), "\(twice):4:1: error: dictation.stop without a dictation.start before it")
    }

    func testMissingAudioFile() throws {
        let path = try writeTrace([#"{"t":0,"type":"dictation.start","audio":"clips/missing.wav"}"#])
        XCTAssertEqual(errorText(path),
                       "\(path):2:1: error: audio file 'clips/missing.wav' not found (looked for \(dir)/clips/missing.wav)")
        do { _ = try events(path) } catch let error as InputError { XCTAssertEqual(error.kind, .noSuchFile) }
    }

    func testBadWAVFilesNameTheTraceLine() throws {
        try WAVBytes.write(WAVBytes.file(tag: 1, channels: 1, rate: 0, bits: 16, data: [0, 0]), to: dir + "/zero.wav")
        try WAVBytes.write(WAVBytes.file(tag: 0x55, channels: 1, rate: 8000, bits: 0, data: [1]), to: dir + "/mp3.wav")
        try WAVBytes.write(Array(WAVBytes.pcm16(Array(repeating: 0.1, count: 100), rate: 8000).prefix(100)), to: dir + "/cut.wav")
        let cases = [
            ("zero.wav", "audio file 'zero.wav': WAV sample rate is 0"),
            ("mp3.wav", "audio file 'mp3.wav': unsupported WAV encoding: format tag 0x0055 (MPEG Layer 3); keysim reads PCM (1) and IEEE float (3)"),
            ("cut.wav", "audio file 'cut.wav': truncated WAV: the data chunk declares 200 bytes but 56 follow"),
        ]
        for (file, message) in cases {
            let path = try writeTrace([
                #"{"t":0,"type":"key","text":"a"}"#,
                #"{"t":10,"type":"dictation.start","audio":"\#(file)"}"#,
            ])
            XCTAssertEqual(errorText(path), "\(path):3:1: error: \(message)")
        }
    }

    func testAudioPathIsBesideTheTrace() {
        XCTAssertEqual(DictationAudioResolver<ArrayTraceSource>.audioPath("a.wav", besideTrace: "traces/t.jsonl"), "traces/a.wav")
        XCTAssertEqual(DictationAudioResolver<ArrayTraceSource>.audioPath("c/a.wav", besideTrace: "t.jsonl"), "c/a.wav")
        XCTAssertEqual(DictationAudioResolver<ArrayTraceSource>.audioPath("a.wav", besideTrace: "/x/y/t.jsonl.zst"), "/x/y/a.wav")
    }
}
