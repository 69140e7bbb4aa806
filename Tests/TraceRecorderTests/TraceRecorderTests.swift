import Foundation
import XCTest
import Sim
import Scenarios
import TraceRecorder

/// The recorder writes what keysim reads: every trace it leaves, closed or not, reads back
/// with `TraceFileReader` event for event, and its lines are the ones keysim's own encoder
/// writes.
final class TraceRecorderTests: XCTestCase {
    private var directory: TemporaryFolder!
    private var folder: URL { directory.url }

    override func setUpWithError() throws { directory = try TemporaryFolder(prefix: "keysim-recorder") }
    override func tearDown() { directory = nil }

    private func path(_ name: String) -> String { directory.path(name) }

    private func ms(_ value: Int64) -> Int64 { value * 1_000_000 }

    /// Every event the recorder can write, with the event keysim should read back.
    private var session: [(TraceRecorderEvent, Int64, TraceEvent.Kind)] {
        [
            (.keyboardShow, 0, .keyboardShown),
            (.key(text: "H", upNanos: ms(70) + 500, point: .init(x: 214.5, y: 120)), ms(10),
             .key(text: "H", touchUp: SimTime(nanoseconds: ms(70) + 500), point: TouchPoint(x: 214.5, y: 120))),
            (.key(text: "é"), ms(200), .key(text: "é", touchUp: nil, point: nil)),
            (.backspace(upNanos: ms(260), point: .init(x: 309, y: 135)), ms(250),
             .backspace(touchUp: SimTime(nanoseconds: ms(260)), point: TouchPoint(x: 309, y: 135))),
            (.key(text: "i \"quoted\"\n\t👍🏽"), ms(300), .key(text: "i \"quoted\"\n\t👍🏽", touchUp: nil, point: nil)),
            (.suggestion(text: "Hi"), ms(400), .suggestionPicked(text: "Hi")),
            (.cursor(offset: -2), ms(500), .cursorMove(offset: -2)),
            (.paste(text: "Привет 5"), ms(600), .paste(text: "Привет 5")),
            (.language("ru"), ms(700), .languageSwitch(language: "ru")),
            (.network(.offline), ms(800), .network(.offline)),
            (.dictationStart(speech: .audioFile("clips/a.wav"), transcript: "see you"), ms(900),
             .dictationStart(audio: .wavFile(path: "clips/a.wav", transcript: "see you"))),
            (.dictationStop, ms(2000), .dictationStop),
            (.dictationStart(speech: .timing(onsetNanos: ms(400), lengthNanos: 1_500_000_001)), ms(2100),
             .dictationStart(audio: .inline(onset: SimDuration(nanoseconds: ms(400)),
                                            length: SimDuration(nanoseconds: 1_500_000_001), transcript: nil))),
            (.dictationStop, ms(4000), .dictationStop),
            (.chipAccept(word: 1), ms(4100), .chipAccepted(wordIndex: 1)),
            (.chipAccept(), ms(4200), .chipAccepted(wordIndex: nil)),
            (.field(.cleared, intended: "See you"), ms(4300), .field(FieldChange(.cleared, intendedText: "See you"))),
            (.field(.opened, text: "Dear Ann,\n"), ms(4400), .field(FieldChange(.opened, text: "Dear Ann,\n"))),
            (.field(.replaced), ms(4500), .field(FieldChange(.replaced))),
            (.keyboardHide, ms(5000), .keyboardHidden),
        ]
    }

    private func readBack(_ path: String) throws -> (TraceHeader, [TraceEvent]) {
        var reader = try TraceFileReader(path: path)
        var events: [TraceEvent] = []
        while let event = try reader.nextEvent() { events.append(event) }
        return (reader.header, events)
    }

    func testEveryEventReadsBackAndMatchesKeysimsEncoderByteForByte() throws {
        let file = path("session.jsonl")
        let recorder = try TraceRecorder(path: file, options: .init(name: "session", intendedText: "Hi", source: "test"))
        for (event, time, _) in session { XCTAssertTrue(recorder.record(event, atNanos: time), "\(event)") }
        try recorder.close()

        let (header, events) = try readBack(file)
        XCTAssertEqual(header, TraceHeader(name: "session", language: "en", intendedText: "Hi", source: "test"))
        XCTAssertEqual(events, session.map { TraceEvent(time: SimTime(nanoseconds: $0.1), kind: $0.2) })
        let encoder = TraceLineEncoder()
        let expected = [encoder.encode(header)] + events.map(encoder.encode)
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.dropLast().map(String.init), expected)
        XCTAssertEqual(lines.last, "", "the file ends with a newline")
        XCTAssertFalse(recorder.record(.keyboardShow), "recording after close drops the event")
    }

    func testAKilledRecorderLeavesAValidTraceUpToItsLastEvent() throws {
        // Each event is one write(2) of a whole line: whatever moment the process dies, the
        // file holds complete lines. Reading the file of a live, never-closed recorder is
        // exactly what a kill would leave.
        let file = path("killed.jsonl")
        var recorder: TraceRecorder? = try TraceRecorder(path: file)
        for (index, (event, time, _)) in session.enumerated() {
            recorder!.record(event, atNanos: time)
            let (_, events) = try readBack(file)
            XCTAssertEqual(events.count, index + 1, "after event \(index)")
        }
        withExtendedLifetime(recorder) {}
        recorder = nil

        // A write cut in the middle of a line (a full disk) is repaired to the last whole line.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"t\":6000,\"type\":\"ke".utf8))
        try handle.close()
        XCTAssertThrowsError(try readBack(file))
        XCTAssertEqual(try TraceRecorder.repair(path: file), 20)
        XCTAssertEqual(try readBack(file).1.count, session.count)
        XCTAssertEqual(try TraceRecorder.repair(path: file), 0, "a whole trace needs no repair")
    }

    func testBatchedRecordingWritesWholeBuffersWithinItsBound() throws {
        let file = path("batched.jsonl")
        let recorder = try TraceRecorder(path: file, options: .init(flushPolicy: .batched, bufferBytes: 512))
        var sizes: [Int] = []
        for i in 0..<200 {
            recorder.record(.key(text: "a", upNanos: Int64(i) * 1_000_000 + 50, point: .init(x: 33, y: 81)),
                            atNanos: Int64(i) * 1_000_000)
            sizes.append(try FileManager.default.attributesOfItem(atPath: file)[.size] as! Int)
            _ = try readBack(file) // valid at every moment
        }
        try recorder.flush()
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: file)))
        // Where each line ends: after the header, then after each event.
        let lineEnds = bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
        XCTAssertEqual(lineEnds.count, 201)
        for (i, size) in sizes.enumerated() {
            XCTAssertTrue(lineEnds.contains(size), "the file always ends with a whole line")
            XCTAssertLessThanOrEqual(lineEnds[i + 1] - size, 512, "at most one buffer is pending")
        }
        XCTAssertGreaterThan(Set(sizes).count, 10, "the buffer was written many times")
        XCTAssertLessThan(Set(sizes).count, 100, "but not after every event")
        XCTAssertEqual(try readBack(file).1.count, 200)
        try recorder.close()
    }

    func testInvalidEventsAreDroppedAndTimeNeverGoesBackwards() throws {
        var now: UInt64 = 1_000_000_000
        let file = path("clock.jsonl")
        let recorder = try TraceRecorder(path: file, clock: { now })
        now += 5_000_000
        XCTAssertEqual(recorder.nowNanos, 5_000_000)
        XCTAssertTrue(recorder.record(.key(text: "a")))
        XCTAssertFalse(recorder.record(.key(text: "")))
        XCTAssertFalse(recorder.record(.language("e n")))
        XCTAssertFalse(recorder.record(.key(text: "b", point: .init(x: .nan, y: 1))))
        XCTAssertFalse(recorder.record(.dictationStart(speech: .audioFile("/abs.wav"))))
        XCTAssertFalse(recorder.record(.paste(text: String(repeating: "x", count: 1 << 20))))
        XCTAssertTrue(recorder.record(.key(text: "c", upNanos: 0), atNanos: 1_000_000), "moved to the previous time")
        try recorder.close()
        XCTAssertEqual(recorder.recordedEventCount, 2)
        XCTAssertEqual(recorder.droppedEventCount, 5)
        let (_, events) = try readBack(file)
        XCTAssertEqual(events.map(\.time.nanoseconds), [5_000_000, 5_000_000])
        XCTAssertEqual(events[1].kind, .key(text: "c", touchUp: SimTime(nanoseconds: 5_000_000), point: nil))

        XCTAssertThrowsError(try TraceRecorder(path: path("x.jsonl"), options: .init(language: "not a tag")))
        XCTAssertThrowsError(try TraceRecorder(path: path("x.jsonl"), options: .init(bufferBytes: 10)))
        XCTAssertThrowsError(try TraceRecorder(path: folder.path + "/missing/x.jsonl")) { error in
            XCTAssertTrue("\(error)".contains("cannot open"), "\(error)")
        }
    }

    func testAFullDiskStopsRecordingCleanly() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { throw XCTSkip("no /dev/full") }
        XCTAssertThrowsError(try TraceRecorder(path: "/dev/full")) { error in
            guard case TraceRecorderError.writeFailed = error else { return XCTFail("\(error)") }
        }
    }

    func testAnonymisedRecordingIsKeysimsAnonymizerWithTheSameSeed() throws {
        let plainFile = path("plain.jsonl"), secretFile = path("secret.jsonl")
        let intended = "Hi Dmitry, привет! Call me at 555-0199 😀 naïve e\u{301} Ωμέγα 한국어"
        let plain = try TraceRecorder(path: plainFile, options: .init(intendedText: intended, source: "test"))
        let secret = try TraceRecorder(path: secretFile, options: .init(intendedText: intended, source: "test",
                                                                       anonymization: .letters(seed: 2024)))
        for recorder in [plain, secret] {
            for (event, time, _) in session { recorder.record(event, atNanos: time) }
            recorder.record(.paste(text: intended), atNanos: ms(6000))
            try recorder.close()
        }
        var anonymizer = TraceAnonymizer(letterSeed: 2024)
        let (plainHeader, plainEvents) = try readBack(plainFile)
        let (secretHeader, secretEvents) = try readBack(secretFile)
        XCTAssertEqual(secretEvents, plainEvents.map { anonymizer.anonymize($0) })
        XCTAssertEqual(secretHeader.intendedText, anonymizer.anonymize(plainHeader).intendedText)
        XCTAssertNotEqual(secretHeader.intendedText, intended)
        XCTAssertEqual(secretHeader.intendedText?.count, intended.count, "grapheme clusters are kept")
    }
}
