import Foundation
import XCTest
import Sim
@testable import Scenarios

/// Importing keystroke files in the format of the "136 Million Keystrokes" dataset. The
/// fixtures are made here, in the dataset's format; none of the dataset's own files (which
/// are licensed for non-commercial use) are used.
final class TraceImportTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory(prefix: "keysim-import") }
    override func tearDown() { directory = nil }

    static let headerRow = "PARTICIPANT_ID\tTEST_SECTION_ID\tSENTENCE\tUSER_INPUT\tKEYSTROKE_ID\tPRESS_TIME\tRELEASE_TIME\tLETTER\tKEYCODE"

    /// One section's rows: keys pressed every 150 ms from `startMs`, held 80 ms.
    static func section(_ id: Int, sentence: String, input: String, startMs: Int64, keys: [String],
                        firstKeystrokeID: Int, participant: Int = 100) -> [String] {
        keys.enumerated().map { index, letter in
            let press = startMs + Int64(index) * 150
            return "\(participant)\t\(id)\t\(sentence)\t\(input)\t\(firstKeystrokeID + index)\t\(press)\t\(press + 80)\t\(letter)\t\(index + 40)"
        }
    }

    /// A participant's file: three sections, the rows shuffled as the dataset's are not
    /// always in press order.
    static func fixture() -> String {
        let start: Int64 = 1_473_275_830_270
        var rows = section(5001, sentence: "Hello there", input: "Hello there", startMs: start,
                           keys: ["SHIFT", "H", "e", "l", "l", "p", "BKSP", "o", " ", "t", "h", "e", "r", "e"], firstKeystrokeID: 1)
        rows += section(5002, sentence: "see you", input: "see you", startMs: start + 12_000,
                        keys: ["CAPS_LOCK", "s", "e", " ", "y", "o", "u", "ARROW_LEFT", "ARROW_LEFT", "ARROW_LEFT", "ARROW_LEFT",
                               "e", "END", "x", "ARROW_LEFT", "DELETE", "ENTER"], firstKeystrokeID: 100)
        rows += section(5003, sentence: "ok", input: "okay", startMs: start + 30_000, keys: ["o", "k"], firstKeystrokeID: 200)
        var generator = SplitMix(seed: 11)
        for i in stride(from: rows.count - 1, to: 0, by: -1) { rows.swapAt(i, Int(generator.next() % UInt64(i + 1))) }
        return ([headerRow] + rows).joined(separator: "\n") + "\n"
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let path = directory.path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testSectionsBecomeOneTraceWithRealGapsAndRebuiltInputs() throws {
        let path = try write("100_keystrokes.txt", Self.fixture())
        let conversion = try Aalto136MImporter.convert(path: path)
        XCTAssertEqual(conversion.header.intendedText, "Hello there\nsee you\nok")
        XCTAssertEqual(conversion.header.name, "aalto136m participant 100")
        XCTAssertEqual(conversion.sections.map(\.id), ["5001", "5002", "5003"])
        XCTAssertEqual(conversion.sections.map(\.rebuilt), ["Hello there", "see you", "ok"])
        XCTAssertEqual(conversion.mismatches.map(\.id), ["5003"])
        XCTAssertEqual(conversion.sections.map(\.keystrokeCount), [14, 17, 2])
        XCTAssertEqual(conversion.ignoredKeys.map { "\($0.name) \($0.count)" }, ["CAPS_LOCK 1", "ENTER 1", "SHIFT 1"])
        XCTAssertEqual(conversion.reorderedRowCount, 0)

        let events = conversion.events
        XCTAssertEqual(events.first, TraceEvent(time: .zero, kind: .keyboardShown))
        XCTAssertEqual(events[1], TraceEvent(time: SimTime(nanoseconds: 150_000_000),
                                             kind: .key(text: "H", touchUp: SimTime(nanoseconds: 230_000_000), point: nil)))
        XCTAssertTrue(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
        let shows = events.filter { $0.kind == .keyboardShown }.map(\.time.nanoseconds)
        XCTAssertEqual(shows, [0, 12_000_000_000, 30_000_000_000], "each section starts at its real time")
        XCTAssertEqual(events.filter { $0.kind == .keyboardHidden }.count, 3)
        XCTAssertEqual(events.filter { $0.kind == .cursorMove(offset: -1) }.count, 5)
        XCTAssertTrue(events.contains { $0.kind == .cursorMove(offset: 1) }, "a forward delete is a move and a backspace")

        // The trace as written reads back, and replays to the inputs one after another.
        let output = directory.path("100.jsonl.zst")
        let writer = try TraceFileWriter(path: output, header: conversion.header)
        for event in events { try writer.write(event) }
        try writer.commit()
        var reader = try TraceFileReader(path: output)
        var text = ReplayedText()
        var count = 0
        while let event = try reader.nextEvent() { text.apply(event.kind); count += 1 }
        XCTAssertEqual(count, events.count)
        XCTAssertEqual(text.text, "Hello theresee youok", "the sections' inputs, one after another")
    }

    func testMalformedFilesAreErrorsWithLineAndColumn() throws {
        let good = Self.section(1, sentence: "a", input: "a", startMs: 1000, keys: ["a"], firstKeystrokeID: 1)[0]
        let cases: [(String, String, String)] = [
            ("header.txt", "PARTICIPANT_ID\tSECTION\n", "header.txt:1:16: error: not a 136M Keystrokes file"),
            ("fields.txt", Self.headerRow + "\n" + good + "\n1\t2\t3\n", "fields.txt:3:6: error: expected 9 tab-separated fields, found 3"),
            ("extra.txt", Self.headerRow + "\n" + good + "\tmore\n", "extra.txt:2:"),
            ("time.txt", Self.headerRow + "\n" + good.replacingOccurrences(of: "\t1000\t", with: "\tnoon\t") + "\n",
             "time.txt:2:13: error: PRESS_TIME must be a time in epoch milliseconds, found \"noon\""),
            ("id.txt", Self.headerRow + "\n" + good.replacingOccurrences(of: "\t1\t1000", with: "\tx\t1000") + "\n",
             "id.txt:2:11: error: KEYSTROKE_ID must be an integer"),
            ("rows.txt", Self.headerRow + "\n", "rows.txt: error: no keystroke rows after the header"),
            ("empty.txt", "", "empty.txt: error: empty file"),
        ]
        for (name, text, expected) in cases {
            let path = try write(name, text)
            XCTAssertThrowsError(try Aalto136MImporter.convert(path: path), name) { error in
                XCTAssertTrue("\(error)".hasPrefix(directory.path(expected)), "\(name): \(error)")
            }
        }
    }

    func testKeyNamesAndEpochTimes() {
        var text = ReplayedText()
        text.insert("abc")
        XCTAssertEqual(Aalto136MImporter.keyAction("a", text: text), .text("a"))
        XCTAssertEqual(Aalto136MImporter.keyAction("A", text: text), .text("A"))
        XCTAssertEqual(Aalto136MImporter.keyAction("Ж", text: text), .text("Ж"))
        XCTAssertEqual(Aalto136MImporter.keyAction("BKSP", text: text), .backspace)
        XCTAssertEqual(Aalto136MImporter.keyAction("SPACE", text: text), .text(" "))
        XCTAssertEqual(Aalto136MImporter.keyAction("HOME", text: text), .cursor(-3))
        XCTAssertEqual(Aalto136MImporter.keyAction("ARROW_RIGHT", text: text), .cursor(0), "already at the end")
        XCTAssertEqual(Aalto136MImporter.keyAction("DELETE", text: text), .ignored("DELETE"), "nothing to delete")
        XCTAssertEqual(Aalto136MImporter.keyAction("TAB", text: text), .ignored("TAB"))
        XCTAssertEqual(Aalto136MImporter.parseMilliseconds("1473275830270"), 1_473_275_830_270_000_000)
        XCTAssertEqual(Aalto136MImporter.parseMilliseconds("12.5"), 12_500_000)
        XCTAssertNil(Aalto136MImporter.parseMilliseconds("-5"))
        XCTAssertNil(Aalto136MImporter.parseMilliseconds("1e3"))
        XCTAssertNil(Aalto136MImporter.parseMilliseconds(""))
    }
}
