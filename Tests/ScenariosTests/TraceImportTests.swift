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

    private func write(_ name: String, _ text: String) throws -> String { try directory.write(name, text) }

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
        XCTAssertEqual(events[1], TraceEvent(time: .zero, kind: .field(FieldChange(.opened, intendedText: "Hello there"))))
        let fields = events.compactMap { event -> FieldChange? in
            if case .field(let field) = event.kind { return field } else { return nil }
        }
        XCTAssertEqual(fields, [FieldChange(.opened, intendedText: "Hello there"), FieldChange(.cleared, intendedText: "see you"),
                                FieldChange(.cleared, intendedText: "ok")], "each section a field with its own intended text")
        XCTAssertEqual(events[2], TraceEvent(time: SimTime(nanoseconds: 150_000_000),
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
        XCTAssertEqual(text.text, "ok", "the last section's field")

        // Over its fields the trace types every section's words, and only the last leaves one wrong.
        var statistics = TraceStatistics(header: conversion.header)
        for event in events { statistics.add(event) }
        let s = statistics.finished()
        XCTAssertEqual(s.fieldCount, 3)
        XCTAssertEqual(s.words, 2 + 2 + 1)
        XCTAssertEqual(s.wordErrorsLeft, 0, "\"ok\" is the sentence, though not the USER_INPUT")
    }

    /// ISO-8859-1 bytes in the dataset's files (a French-Canadian layout's É) are decoded as
    /// such; ARW_LEFT and ARW_RIGHT move the cursor.
    func testLatin1LinesAndArrowKeys() throws {
        let start: Int64 = 1_500_000_000_000
        let rows = Self.section(7, sentence: "\u{C9}t\u{E9}", input: "\u{C9}t\u{E9}", startMs: start,
                                keys: ["\u{C9}", "x", "\u{E9}", "ARW_LEFT", "BKSP", "t", "ARW_RIGHT"], firstKeystrokeID: 1)
        let text = ([Self.headerRow] + rows).joined(separator: "\n") + "\n"
        let path = directory.path("latin1.txt")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: text.data(using: .isoLatin1)!))
        let conversion = try Aalto136MImporter.convert(path: path)
        XCTAssertEqual(conversion.latin1LineCount, rows.count)
        XCTAssertEqual(conversion.sections.map(\.sentence), ["\u{C9}t\u{E9}"])
        XCTAssertEqual(conversion.sections.map(\.rebuilt), ["\u{C9}t\u{E9}"])
        XCTAssertEqual(conversion.mismatches.count, 0)
        XCTAssertEqual(conversion.events.filter { $0.kind == .cursorMove(offset: -1) }.count, 1)
        XCTAssertEqual(conversion.events.filter { $0.kind == .cursorMove(offset: 1) }.count, 1)
        // A file mixing the two encodings: UTF-8 lines stay UTF-8.
        let mixed = directory.path("mixed.txt")
        var bytes = Array(([Self.headerRow] + Self.section(1, sentence: "caf\u{E9}", input: "caf\u{E9}", startMs: start,
                                                            keys: ["c", "a", "f", "\u{E9}"], firstKeystrokeID: 1)).joined(separator: "\n").utf8)
        bytes += Array(("\n" + Self.section(2, sentence: "\u{E0}", input: "\u{E0}", startMs: start + 5000, keys: ["\u{E0}"],
                                            firstKeystrokeID: 9)[0] + "\n").data(using: .isoLatin1)!)
        XCTAssertTrue(FileManager.default.createFile(atPath: mixed, contents: Data(bytes)))
        let both = try Aalto136MImporter.convert(path: mixed)
        XCTAssertEqual(both.sections.map(\.rebuilt), ["caf\u{E9}", "\u{E0}"])
        XCTAssertEqual(both.latin1LineCount, 1)
    }

    /// The mobile Typing37k keystroke table: the same columns, with or without the header
    /// row, in ISO-8859-1.
    func testTyping37kTablesImportWithOrWithoutTheirHeader() throws {
        let rows = Self.section(42, sentence: "Merci", input: "Merci", startMs: 1_560_000_000_000,
                                keys: ["M", "e", "r", "x", "BKSP", "c", "i"], firstKeystrokeID: 3, participant: 9)
            + Self.section(43, sentence: "\u{E7}a va", input: "\u{E7}a va", startMs: 1_560_000_009_000,
                           keys: ["\u{E7}", "a", " ", "v", "a"], firstKeystrokeID: 20, participant: 9)
        for withHeader in [true, false] {
            let text = ((withHeader ? [Self.headerRow] : []) + rows).joined(separator: "\n") + "\n"
            let path = directory.path("9_keystrokes-\(withHeader).txt")
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: text.data(using: .isoLatin1)!))
            let conversion = try Aalto136MImporter.convert(path: path, format: .typing37k)
            XCTAssertEqual(conversion.sections.map(\.rebuilt), ["Merci", "\u{E7}a va"], "header \(withHeader)")
            XCTAssertEqual(conversion.sections.map(\.line), withHeader ? [2, 9] : [1, 8])
            XCTAssertEqual(conversion.header.name, "typing37k participant 9")
            XCTAssertTrue(conversion.header.source!.hasPrefix("Typing37k dataset (Palin et al., MobileHCI 2019)"))
            XCTAssertEqual(conversion.latin1LineCount, 5, "the rows of the second section")
        }
        // Without a header, a desktop file is refused, and a malformed first row still names its column.
        let headless = try write("headless.txt", rows.joined(separator: "\n") + "\n")
        XCTAssertThrowsError(try Aalto136MImporter.convert(path: headless)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(headless):1:1: error: not a 136M Keystrokes file: the header row must name"), "\(error)")
        }
        let bad = try write("bad.txt", "9\t42\tMerci\tMerci\tthree\t1\t2\tM\t0\n")
        XCTAssertThrowsError(try Aalto136MImporter.convert(path: bad, format: .typing37k)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(bad):1:1: error: not a Typing37k file: the first row must be the header row or a keystroke row"), "\(error)")
        }
        let badRow = try write("badrow.txt", rows[0] + "\n9\t42\tMerci\tMerci\t4\tlate\t2\tM\t0\n")
        XCTAssertThrowsError(try Aalto136MImporter.convert(path: badRow, format: .typing37k)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(badRow):2:"), "\(error)")
            XCTAssertTrue("\(error)".contains("PRESS_TIME must be a time in epoch milliseconds, found \"late\""), "\(error)")
        }
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
        XCTAssertEqual(Aalto136MImporter.keyAction("ARW_LEFT", text: text), .cursor(-1))
        XCTAssertEqual(Aalto136MImporter.keyAction("ARW_RIGHT", text: text), .cursor(0))
        XCTAssertEqual(Aalto136MImporter.keyAction("DELETE", text: text), .ignored("DELETE"), "nothing to delete")
        XCTAssertEqual(Aalto136MImporter.keyAction("TAB", text: text), .ignored("TAB"))
        XCTAssertEqual(Aalto136MImporter.parseMilliseconds("1473275830270"), 1_473_275_830_270_000_000)
        XCTAssertEqual(Aalto136MImporter.parseMilliseconds("12.5"), 12_500_000)
        XCTAssertNil(Aalto136MImporter.parseMilliseconds("-5"))
        XCTAssertNil(Aalto136MImporter.parseMilliseconds("1e3"))
        XCTAssertNil(Aalto136MImporter.parseMilliseconds(""))
    }
}
