import Foundation
import Scenarios
import Sim
import TraceRecorder
import XCTest

/// Device timing: `measure`, `begin`/`end` and `.measure` events write `measure` lines that
/// keysim reads as measured costs, skips during replay, and writes byte for byte the same.
final class TraceRecorderMeasureTests: XCTestCase {
    private final class Clock: @unchecked Sendable {
        var now: UInt64 = 7_000_000_000
    }

    func testMeasuredWorkReadsBackAsMeasurementsThatReplaysSkip() throws {
        let folder = try TemporaryFolder(prefix: "keysim-measure")
        let file = folder.path("device.jsonl")
        let clock = Clock()
        let recorder = try TraceRecorder(path: file, clock: { clock.now })
        clock.now += 1_000_000
        recorder.record(.key(text: "h"))
        let candidates = recorder.measure("lookup") { () -> [String] in
            clock.now += 3_250_000
            return ["hello", "help"]
        }
        XCTAssertEqual(candidates, ["hello", "help"])
        let token = recorder.begin("rerank")
        clock.now += 500_000
        recorder.record(.key(text: "e"))
        clock.now += 20_000_001
        XCTAssertTrue(recorder.end(token))
        struct Failure: Error {}
        XCTAssertThrowsError(try recorder.measure("check") { () throws -> Int in
            clock.now += 2_000_000
            throw Failure()
        })
        XCTAssertFalse(recorder.record(.measure(kind: "", durationNanos: 5)))
        XCTAssertFalse(recorder.record(.measure(kind: "draw", durationNanos: -1)))
        try recorder.close()
        XCTAssertEqual(recorder.recordedEventCount, 5)
        XCTAssertEqual(recorder.droppedEventCount, 2)

        let text = try String(contentsOfFile: file, encoding: .utf8)
        let lines = text.split(separator: "\n").dropFirst().map(String.init)
        XCTAssertEqual(lines, [
            #"{"t":1,"type":"key","text":"h"}"#,
            #"{"t":4.25,"type":"measure","kind":"lookup","durationMs":3.25}"#,
            #"{"t":4.75,"type":"key","text":"e"}"#,
            #"{"t":24.750001,"type":"measure","kind":"rerank","durationMs":20.500001}"#,
            #"{"t":26.750001,"type":"measure","kind":"check","durationMs":2}"#,
        ])
        // keysim writes the same bytes for the same measurement.
        var decoder = TraceLineDecoder()
        _ = try decoder.decodeHeader(String(text.split(separator: "\n")[0]))
        for line in lines {
            XCTAssertEqual(TraceLineEncoder().encode(try decoder.decodeLine(line)), line)
        }
        var reader = try TraceFileReader(path: file)
        var events: [TraceEvent] = []
        while let event = try reader.nextEvent() { events.append(event) }
        XCTAssertEqual(events.map(\.kind), [.key(text: "h", touchUp: nil, point: nil), .key(text: "e", touchUp: nil, point: nil)])
        let reading = try TraceCostReader.read(path: file)
        XCTAssertEqual(reading.series.map(\.name), ["check", "lookup", "rerank"])
        XCTAssertEqual(reading.series.map(\.samplesMs), [[2], [3.25], [20.500001]])
    }
}
