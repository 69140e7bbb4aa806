import Foundation
import XCTest
import Sim
@testable import Scenarios

/// The validator reports every problem of a trace with its line, and the streaming reader
/// and writer keep traces whole: every kind of damage is an error with the file and line.
final class TraceValidatorTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory(prefix: "keysim-validate") }
    override func tearDown() { directory = nil }

    private let header = #"{"keysim":"trace","version":1}"#

    @discardableResult
    private func write(_ name: String, _ lines: [String], newline: Bool = true) -> String {
        let path = directory.path(name)
        let text = lines.joined(separator: "\n") + (newline ? "\n" : "")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        return path
    }

    private func writeZstd(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = directory.path(name)
        let file = try AtomicFileWriter(path: path)
        let zstd = try ZstdCompressor(destination: file)
        try zstd.write(bytes)
        try zstd.finish()
        try file.commit()
        return path
    }

    func testEveryProblemIsReportedWithItsLine() throws {
        let path = write("bad.jsonl", [
            header,
            #"{"t":0,"type":"keyboard.show"}"#,
            #"{"t":10,"type":"key","text":"a"}"#,
            #"{"t":5,"type":"key","text":"b"}"#,              // 4: backwards
            #"{"t":20,"type":"keypress","text":"c"}"#,        // 5: unknown type
            #"{"t":30,"type":"dictation.stop"}"#,             // 6: stop without start
            #"{"t":40,"type":"key","text":"d""#,              // 7: not JSON
            #"{"t":50,"type":"dictation.start","onsetMs":1,"lengthMs":2}"#,
            #"{"t":60,"type":"dictation.start","onsetMs":1,"lengthMs":2}"#, // 9: nested start
            "",                                                // 10: empty line
            #"{"t":70,"type":"key","text":"e","x":1}"#,       // 11: x without y
            #"{"t":80,"type":"key","text":"f"}"#,
        ])
        let result = TraceValidator.validate(path: path)
        XCTAssertEqual(result.problems.map(\.description), [
            "\(path):4:6: error: time goes backwards (5 ms after 10 ms)",
            "\(path):5:16: error: unknown event type \"keypress\" (expected one of key, backspace, suggestion, cursor, paste, keyboard.show, keyboard.hide, language, network, dictation.start, dictation.stop, chip.accept, field)",
            "\(path):6:1: error: dictation.stop without a dictation.start before it",
            "\(path):7:32: error: expected ',' or '}', found the end of the line",
            "\(path):9:1: error: dictation.start while the dictation started on line 8 is still running (a dictation.stop must come first)",
            "\(path):9:1: warning: the dictation started here is never stopped (the trace ends first)",
            "\(path):10:1: error: empty line",
            "\(path):11:37: error: \"x\" without \"y\" (a touch point has both or neither)",
        ])
        XCTAssertEqual(result.errorCount, 7)
        XCTAssertEqual(result.warningCount, 1, "the dictation from line 9 is still open at the end")
        XCTAssertFalse(result.isValid)
        XCTAssertEqual(result.eventCount, 6)
        XCTAssertEqual(result.lineCount, 12)
    }

    func testUnclosedDictationIsAWarningAndAudioIsChecked() throws {
        try FileManager.default.createDirectory(atPath: directory.path("clips"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: packageRoot + "/traces/clips/dictation-3.wav", toPath: directory.path("clips/ok.wav"))
        XCTAssertTrue(FileManager.default.createFile(atPath: directory.path("clips/text.wav"), contents: Data("not audio".utf8)))
        let path = write("audio.jsonl", [
            header,
            #"{"t":0,"type":"dictation.start","audio":"clips/ok.wav"}"#,
            #"{"t":1,"type":"dictation.stop"}"#,
            #"{"t":2,"type":"dictation.start","audio":"clips/missing.wav"}"#,
            #"{"t":3,"type":"dictation.stop"}"#,
            #"{"t":4,"type":"dictation.start","audio":"clips/text.wav"}"#,
            #"{"t":5,"type":"dictation.stop"}"#,
            #"{"t":6,"type":"dictation.start","audio":"clips/ok.wav"}"#,
        ])
        let result = TraceValidator.validate(path: path)
        XCTAssertEqual(result.problems.map(\.description), [
            "\(path):4:1: error: audio \"clips/missing.wav\": no such file (looked for \(directory.path("clips/missing.wav")))",
            "\(path):6:1: error: audio \"clips/text.wav\": not a WAV file (no RIFF/WAVE header) (looked for \(directory.path("clips/text.wav")))",
            "\(path):8:1: warning: the dictation started here is never stopped (the trace ends first)",
        ])
        XCTAssertEqual(result.errorCount, 2)
        XCTAssertEqual(result.warningCount, 1)
        let withoutAudio = TraceValidator.validate(path: path, checksAudio: false)
        XCTAssertEqual(withoutAudio.errorCount, 0)
        XCTAssertTrue(withoutAudio.isValid, "warnings alone keep a trace valid")
    }

    func testHeaderProblems() throws {
        let newer = TraceValidator.validate(path: write("newer.jsonl", [#"{"keysim":"trace","version":7}"#, "garbage"]))
        XCTAssertEqual(newer.problems.map(\.description),
                       ["\(directory.path("newer.jsonl")):1:29: error: trace format version 7 is newer than this keysim reads (1)"],
                       "an unknown version stops the check")
        let noHeader = TraceValidator.validate(path: write("noheader.jsonl", [#"{"t":0,"type":"keyboard.show"}"#, #"{"t":1,"type":"keyboard.hide"}"#]))
        XCTAssertEqual(noHeader.problems.count, 1)
        XCTAssertTrue(noHeader.problems[0].message.hasPrefix("missing field \"keysim\""))
        XCTAssertEqual(noHeader.eventCount, 1)
        let empty = TraceValidator.validate(path: write("empty.jsonl", [], newline: false))
        XCTAssertEqual(empty.problems.map(\.message), ["empty trace: expected a header line"])
        let missing = TraceValidator.validate(path: directory.path("none.jsonl"))
        XCTAssertEqual(missing.problems.map(\.description), ["\(directory.path("none.jsonl")): error: no such file"])
    }

    func testProblemsBeyondTheLimitAreCounted() throws {
        let lines = [header] + (0..<50).map { _ in "nonsense" }
        let result = TraceValidator.validate(path: write("many.jsonl", lines), maxProblems: 10)
        XCTAssertEqual(result.problems.count, 10)
        XCTAssertEqual(result.errorCount, 50)
        XCTAssertEqual(result.omittedCount, 40)
    }

    func testDamagedStreamsAreErrorsWithTheirLine() throws {
        var text = header + "\n"
        for i in 0..<20_000 { text += #"{"t":\#(i),"type":"key","text":"a"}"# + "\n" }
        let good = try writeZstd("good.jsonl.zst", Array(text.utf8))
        XCTAssertTrue(TraceValidator.validate(path: good).isValid)
        XCTAssertEqual(TraceValidator.validate(path: good).eventCount, 20_000)
        let compressed = try Array(Data(contentsOf: URL(fileURLWithPath: good)))

        // Cut short: the lines before the cut are read, then the damage is reported.
        let cut = directory.path("cut.jsonl.zst")
        XCTAssertTrue(FileManager.default.createFile(atPath: cut, contents: Data(compressed.prefix(compressed.count / 2))))
        let truncated = TraceValidator.validate(path: cut)
        XCTAssertEqual(truncated.errorCount, 1)
        let problem = truncated.problems[0]
        XCTAssertTrue(problem.message.hasPrefix("truncated zstd stream"), problem.message)
        XCTAssertNotNil(problem.line)
        XCTAssertGreaterThan(truncated.eventCount, 0)

        // Bytes flipped in the middle: zstd's checksum or its decoder catches it.
        var flipped = compressed
        for i in stride(from: 100, to: flipped.count - 20, by: 97) { flipped[i] ^= 0x5A }
        let corrupt = directory.path("corrupt.jsonl.zst")
        XCTAssertTrue(FileManager.default.createFile(atPath: corrupt, contents: Data(flipped)))
        XCTAssertTrue(TraceValidator.validate(path: corrupt).problems.contains { $0.message.hasPrefix("corrupt zstd data") })

        // Not zstd at all.
        let plain = write("plain.jsonl.zst", [header])
        XCTAssertTrue(TraceValidator.validate(path: plain).problems[0].message.hasPrefix("corrupt zstd data"))

        // Invalid UTF-8 inside a string, and a stray byte outside one.
        let bytes = Array((header + "\n").utf8) + Array(#"{"t":0,"type":"key","text":""#.utf8) + [0xC3, 0x28]
            + Array("\"}\n{\"t\":1,\"type\":\"key\",\"text\":\"a\"}\u{1}\n".utf8)
        let invalid = directory.path("utf8.jsonl")
        XCTAssertTrue(FileManager.default.createFile(atPath: invalid, contents: Data(bytes)))
        XCTAssertEqual(TraceValidator.validate(path: invalid).problems.map(\.description), [
            "\(invalid):2:29: error: invalid UTF-8 (byte 0xC3)",
            "\(invalid):3:32: error: unexpected control character U+0001 after the end of the value",
        ])
    }

    func testTheReaderStopsAtTheFirstProblemWithFileAndLine() throws {
        let path = write("stop.jsonl", [header, #"{"t":1,"type":"key","text":"a"}"#, #"{"t":0,"type":"key","text":"b"}"#])
        var reader = try TraceFileReader(path: path)
        XCTAssertNotNil(try reader.nextEvent())
        XCTAssertThrowsError(try reader.nextEvent()) { error in
            XCTAssertEqual("\(error)", "\(path):3:6: error: time goes backwards (0 ms after 1 ms)")
        }
    }

    func testWriterRoundTripsPlainAndCompressedAndWritesNothingUntilCommitted() throws {
        let events = (0..<5_000).map { i in
            TraceEvent(time: SimTime(nanoseconds: Int64(i) * 123_456_789),
                       kind: i % 7 == 0 ? .backspace(touchUp: nil, point: TouchPoint(x: 309, y: 135))
                                        : .key(text: ["a", "ж", "👍🏽", " "][i % 4], touchUp: nil, point: nil))
        }
        let header = TraceHeader(name: "round", intendedText: "a\nb", source: "test")
        for name in ["round.jsonl", "round.jsonl.zst"] {
            let path = directory.path(name)
            let writer = try TraceFileWriter(path: path, header: header, compressionLevel: 1)
            for event in events { try writer.write(event) }
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing appears before commit()")
            try writer.commit()
            var reader = try TraceFileReader(path: path)
            XCTAssertEqual(reader.header, header)
            var read: [TraceEvent] = []
            while let event = try reader.nextEvent() { read.append(event) }
            XCTAssertEqual(read, events, name)
        }
        XCTAssertLessThan(try FileManager.default.attributesOfItem(atPath: directory.path("round.jsonl.zst"))[.size] as! Int,
                          try FileManager.default.attributesOfItem(atPath: directory.path("round.jsonl"))[.size] as! Int / 4)

        // A writer dropped before commit() leaves nothing, not even its temporary file.
        do {
            let writer = try TraceFileWriter(path: directory.path("dropped.jsonl.zst"), header: header)
            try writer.write(events[0])
        }
        XCTAssertEqual(try directory.contents(), ["round.jsonl", "round.jsonl.zst"])
    }
}
