import Foundation
import XCTest
import Sim
@testable import Scenarios

/// Trace lines: every event type decoded, every error with its column, the encoder's exact
/// output, and encode → decode round trips over many random events.
final class TraceLineCodecTests: XCTestCase {
    // MARK: Helpers

    /// `milliseconds` as a time.
    func ms(_ milliseconds: Double) -> SimTime { SimTime(milliseconds: milliseconds) }

    /// The event `line` decodes to, by a fresh decoder.
    func event(_ line: String, file: StaticString = #filePath, line number: UInt = #line) throws -> TraceEvent {
        var decoder = TraceLineDecoder()
        return try decoder.decodeEvent(line)
    }

    /// Asserts that `line` (decoded by a fresh decoder after `before`) fails with exactly this error.
    private func assertEventError(_ line: String, column: Int?, _ message: String, after before: [String] = [],
                                  file: StaticString = #filePath, line number: UInt = #line) {
        var decoder = TraceLineDecoder()
        do {
            for earlier in before { _ = try decoder.decodeEvent(earlier) }
            let event = try decoder.decodeEvent(line)
            XCTFail("expected an error, decoded \(event)", file: file, line: number)
        } catch {
            XCTAssertEqual(error, TraceLineError(column: column, message: message), line, file: file, line: number)
        }
    }

    private func assertHeaderError(_ line: String, column: Int?, _ message: String,
                                   file: StaticString = #filePath, line number: UInt = #line) {
        var decoder = TraceLineDecoder()
        do {
            let header = try decoder.decodeHeader(line)
            XCTFail("expected an error, decoded \(header)", file: file, line: number)
        } catch {
            XCTAssertEqual(error, TraceLineError(column: column, message: message), line, file: file, line: number)
        }
    }

    /// The 1-based column of the first occurrence of `needle` in `line`.
    private func column(of needle: String, in line: String) -> Int {
        let bytes = Array(line.utf8), pattern = Array(needle.utf8)
        for start in 0...(bytes.count - pattern.count) where Array(bytes[start..<(start + pattern.count)]) == pattern {
            return start + 1
        }
        preconditionFailure("\(needle) not in \(line)")
    }

    // MARK: Every event type

    func testDecodesEveryEventType() throws {
        let cases: [(String, TraceEvent)] = [
            (#"{"t":123.5,"type":"key","text":"a","up":180.0,"x":12.5,"y":40}"#,
             TraceEvent(time: ms(123.5), kind: .key(text: "a", touchUp: ms(180), point: TouchPoint(x: 12.5, y: 40)))),
            (#"{"t":0,"type":"key","text":".com"}"#,
             TraceEvent(time: .zero, kind: .key(text: ".com", touchUp: nil, point: nil))),
            (#"{"t":5,"type":"key","text":"b","up":5}"#,
             TraceEvent(time: ms(5), kind: .key(text: "b", touchUp: ms(5), point: nil))),
            (#"{"t":5,"type":"key","text":"b","x":-1.5e1,"y":0}"#,
             TraceEvent(time: ms(5), kind: .key(text: "b", touchUp: nil, point: TouchPoint(x: -15, y: 0)))),
            (#"{"t":7,"type":"backspace"}"#,
             TraceEvent(time: ms(7), kind: .backspace(touchUp: nil, point: nil))),
            (#"{"t":7,"type":"backspace","up":61.25,"x":300,"y":180.5}"#,
             TraceEvent(time: ms(7), kind: .backspace(touchUp: ms(61.25), point: TouchPoint(x: 300, y: 180.5)))),
            (#"{"t":8,"type":"suggestion","text":"hello"}"#,
             TraceEvent(time: ms(8), kind: .suggestionPicked(text: "hello"))),
            (#"{"t":9,"type":"cursor","offset":-3}"#,
             TraceEvent(time: ms(9), kind: .cursorMove(offset: -3))),
            (#"{"t":9,"type":"cursor","offset":0}"#,
             TraceEvent(time: ms(9), kind: .cursorMove(offset: 0))),
            (#"{"t":10,"type":"paste","text":"line one\nline two"}"#,
             TraceEvent(time: ms(10), kind: .paste(text: "line one\nline two"))),
            (#"{"t":11,"type":"keyboard.show"}"#, TraceEvent(time: ms(11), kind: .keyboardShown)),
            (#"{"t":12,"type":"keyboard.hide"}"#, TraceEvent(time: ms(12), kind: .keyboardHidden)),
            (#"{"t":13,"type":"language","language":"ru"}"#,
             TraceEvent(time: ms(13), kind: .languageSwitch(language: "ru"))),
            (#"{"t":13,"type":"language","language":"zh-Hans-CN"}"#,
             TraceEvent(time: ms(13), kind: .languageSwitch(language: "zh-Hans-CN"))),
            (#"{"t":14,"type":"network","state":"online"}"#, TraceEvent(time: ms(14), kind: .network(.online))),
            (#"{"t":14,"type":"network","state":"offline"}"#, TraceEvent(time: ms(14), kind: .network(.offline))),
            (#"{"t":14,"type":"network","state":"slow"}"#, TraceEvent(time: ms(14), kind: .network(.slow))),
            (#"{"t":15,"type":"dictation.start","audio":"clip.wav"}"#,
             TraceEvent(time: ms(15), kind: .dictationStart(audio: .wavFile(path: "clip.wav", transcript: nil)))),
            (#"{"t":15,"type":"dictation.start","audio":"audio/clip 2.wav","transcript":"hi there"}"#,
             TraceEvent(time: ms(15), kind: .dictationStart(audio: .wavFile(path: "audio/clip 2.wav", transcript: "hi there")))),
            (#"{"t":15,"type":"dictation.start","onsetMs":400,"lengthMs":3400.5}"#,
             TraceEvent(time: ms(15), kind: .dictationStart(audio: .inline(
                onset: .milliseconds(400), length: SimDuration(nanoseconds: 3_400_500_000), transcript: nil)))),
            (#"{"t":15,"type":"dictation.start","onsetMs":0,"lengthMs":20600,"transcript":"Привет"}"#,
             TraceEvent(time: ms(15), kind: .dictationStart(audio: .inline(
                onset: .zero, length: .milliseconds(20_600), transcript: "Привет")))),
            (#"{"t":16,"type":"dictation.stop"}"#, TraceEvent(time: ms(16), kind: .dictationStop)),
            (#"{"t":17,"type":"chip.accept"}"#, TraceEvent(time: ms(17), kind: .chipAccepted(wordIndex: nil))),
            (#"{"t":17,"type":"chip.accept","word":4}"#, TraceEvent(time: ms(17), kind: .chipAccepted(wordIndex: 4))),
            (#"{"t":18,"type":"field","change":"cleared"}"#, TraceEvent(time: ms(18), kind: .field(FieldChange(.cleared)))),
            (#"{"t":18,"type":"field","change":"cleared","intended":"See you."}"#,
             TraceEvent(time: ms(18), kind: .field(FieldChange(.cleared, intendedText: "See you.")))),
            (#"{"t":19,"type":"field","change":"opened","text":"Dear Ann,\n","intended":"Dear Ann,\nThanks."}"#,
             TraceEvent(time: ms(19), kind: .field(FieldChange(.opened, text: "Dear Ann,\n", intendedText: "Dear Ann,\nThanks.")))),
            (#"{"t":19,"type":"field","change":"replaced","text":null}"#,
             TraceEvent(time: ms(19), kind: .field(FieldChange(.replaced)))),
        ]
        for (line, expected) in cases {
            XCTAssertEqual(try event(line), expected, line)
        }
        // Every wire name is covered above.
        let covered = Set(cases.map(\.1.kind.wireName))
        XCTAssertEqual(covered, Set(TraceEvent.Kind.wireNames))
    }

    func testFieldOrderAndWhitespaceDoNotMatter() throws {
        let expected = TraceEvent(time: ms(2), kind: .key(text: "q", touchUp: ms(3), point: TouchPoint(x: 1, y: 2)))
        XCTAssertEqual(try event(#"{"y":2,"x":1,"up":3,"text":"q","type":"key","t":2}"#), expected)
        XCTAssertEqual(try event(" {\t\"t\" : 2 , \"type\" : \"key\" , \"text\" : \"q\" , \"up\" : 3 , \"x\" : 1 , \"y\" : 2 }\r"), expected)
    }

    func testEscapedKeysAndTypeValuesAreUnderstood() throws {
        XCTAssertEqual(try event(#"{"\u0074":1,"type":"ke\u0079","t\u0065xt":"\u0061"}"#),
                       TraceEvent(time: ms(1), kind: .key(text: "a", touchUp: nil, point: nil)))
        XCTAssertEqual(try event(#"{"t":1,"type":"network","state":"\u006fnline"}"#),
                       TraceEvent(time: ms(1), kind: .network(.online)))
    }

    func testUnknownFieldsAndNullOptionalsAreIgnored() throws {
        XCTAssertEqual(
            try event(#"{"t":1,"type":"key","text":"a","pressure":0.5,"meta":{"app":"Notes","tags":[1,"x",null,{"k":[]}]},"offset":"ignored","version":99}"#),
            TraceEvent(time: ms(1), kind: .key(text: "a", touchUp: nil, point: nil)))
        XCTAssertEqual(try event(#"{"t":1,"type":"key","text":"a","up":null,"x":null,"y":null}"#),
                       TraceEvent(time: ms(1), kind: .key(text: "a", touchUp: nil, point: nil)))
        XCTAssertEqual(try event(#"{"t":1,"type":"chip.accept","word":null}"#),
                       TraceEvent(time: ms(1), kind: .chipAccepted(wordIndex: nil)))
        XCTAssertEqual(try event(#"{"t":1,"type":"dictation.start","audio":"a.wav","onsetMs":null,"transcript":null}"#),
                       TraceEvent(time: ms(1), kind: .dictationStart(audio: .wavFile(path: "a.wav", transcript: nil))))
        // Unknown fields are still validated JSON.
        assertEventError(#"{"t":1,"type":"key","text":"a","extra":[1,}"#, column: 43, "expected a value, found '}'")
    }

    // MARK: Times

    func testTimesAreExactAtNanosecondPrecision() throws {
        XCTAssertEqual(try event(#"{"t":0.000001,"type":"keyboard.show"}"#).time, SimTime(nanoseconds: 1))
        XCTAssertEqual(try event(#"{"t":123.456789,"type":"keyboard.show"}"#).time, SimTime(nanoseconds: 123_456_789))
        XCTAssertEqual(try event(#"{"t":1.5e3,"type":"keyboard.show"}"#).time, SimTime(nanoseconds: 1_500_000_000))
        XCTAssertEqual(try event(#"{"t":0.0000004,"type":"keyboard.show"}"#).time, .zero, "rounded to the nearest ns")
        XCTAssertEqual(try event(#"{"t":0.0000015,"type":"keyboard.show"}"#).time, SimTime(nanoseconds: 2))
        XCTAssertEqual(try event(#"{"t":-0,"type":"keyboard.show"}"#).time, .zero)
        XCTAssertEqual(try event(#"{"t":9007199254.740992,"type":"keyboard.show"}"#).time,
                       SimTime(nanoseconds: SimDuration.maxNanoseconds))
        // A fraction of a ms beyond what a Double would keep apart at this magnitude.
        XCTAssertEqual(try event(#"{"t":8000000000.000001,"type":"keyboard.show"}"#).time,
                       SimTime(nanoseconds: 8_000_000_000_000_001))
    }

    func testTimeOrder() throws {
        var decoder = TraceLineDecoder()
        XCTAssertNil(decoder.previousTime)
        _ = try decoder.decodeEvent(#"{"t":130,"type":"keyboard.show"}"#)
        XCTAssertEqual(decoder.previousTime, ms(130))
        // The same time again is fine: events may share a time.
        _ = try decoder.decodeEvent(#"{"t":130,"type":"key","text":"a"}"#)
        let backwards = #"{"t":123.5,"type":"key","text":"b"}"#
        XCTAssertThrowsError(try decoder.decodeEvent(backwards)) { error in
            XCTAssertEqual(error as? TraceLineError,
                           TraceLineError(column: 6, message: "time goes backwards (123.5 ms after 130 ms)"))
        }
        // A failed line does not move the clock; a later valid line still decodes.
        XCTAssertThrowsError(try decoder.decodeEvent(#"{"t":140,"type":"bogus"}"#))
        XCTAssertEqual(decoder.previousTime, ms(130))
        XCTAssertEqual(try decoder.decodeEvent(#"{"t":135,"type":"keyboard.hide"}"#).time, ms(135))
        // The header does not take part in time order.
        _ = try decoder.decodeHeader(#"{"keysim":"trace","version":1}"#)
        XCTAssertEqual(decoder.previousTime, ms(135))
    }

    func testTimeErrors() {
        assertEventError(#"{"t":-5,"type":"keyboard.show"}"#, column: 6, "\"t\" must not be negative (found -5 ms)")
        assertEventError(#"{"t":-0.001,"type":"keyboard.show"}"#, column: 6, "\"t\" must not be negative (found -0.001 ms)")
        assertEventError(#"{"t":1e300,"type":"keyboard.show"}"#, column: 6,
                         "\"t\" 1e300 ms is out of range (at most 9007199254.740992 ms, about 104 days)")
        assertEventError(#"{"t":9007199254.740993,"type":"keyboard.show"}"#, column: 6,
                         "\"t\" 9007199254.740993 ms is out of range (at most 9007199254.740992 ms, about 104 days)")
        assertEventError(#"{"t":"12","type":"keyboard.show"}"#, column: 6,
                         "\"t\" must be a number of milliseconds, found a string")
        assertEventError(#"{"t":null,"type":"keyboard.show"}"#, column: 6,
                         "\"t\" must be a number of milliseconds, found null")
        assertEventError(#"{"type":"keyboard.show"}"#, column: nil, "missing field \"t\" (the event time in milliseconds)")
        assertEventError(#"{"t":10,"type":"key","text":"a","up":9.5}"#, column: 38,
                         "touch-up time 9.5 ms is before the touch-down time 10 ms")
        assertEventError(#"{"t":10,"type":"backspace","up":"later"}"#, column: 33,
                         "\"up\" must be a number of milliseconds, found a string")
        assertEventError(#"{"t":10,"type":"dictation.start","onsetMs":-1,"lengthMs":5}"#, column: 44,
                         "\"onsetMs\" must not be negative (found -1 ms)")
        assertEventError(#"{"t":10,"type":"dictation.start","onsetMs":1,"lengthMs":[5]}"#, column: 57,
                         "\"lengthMs\" must be a number of milliseconds, found an array")
    }

    // MARK: Errors

    func testLineLevelErrors() {
        assertEventError("", column: nil, "empty line")
        assertEventError(" \t\r", column: nil, "empty line")
        assertEventError("[]", column: 1, "expected '{', found '['")
        assertEventError(#"{"t":1,"type":"key","text":"a"} x"#, column: 33, "unexpected 'x' after the end of the value")
        assertEventError(#"{"t":1,"type":"key","text":"a"#, column: 28, "unterminated string")
        assertEventError(#"{"t":1,"t":2,"type":"keyboard.show"}"#, column: 8, "duplicate field \"t\"")
        assertEventError(#"{"t":1,"type":"key","text":"a","\u0074ext":"b"}"#, column: 32, "duplicate field \"text\"")
        assertEventError(#"{"keysim":"trace","version":1}"#, column: 2,
                         "unexpected header line (a trace has one header, on its first line)")
        let long = #"{"t":1,"type":"paste","text":""# + String(repeating: "x", count: TraceLineDecoder.maxLineBytes) + #""}"#
        assertEventError(long, column: TraceLineDecoder.maxLineBytes + 1,
                         "line is longer than the limit of 1048576 bytes (1 MiB)")
        // Exactly at the limit is fine.
        let prefix = #"{"t":1,"type":"paste","text":""#
        let atLimit = prefix + String(repeating: "x", count: TraceLineDecoder.maxLineBytes - prefix.utf8.count - 2) + #""}"#
        XCTAssertEqual(atLimit.utf8.count, TraceLineDecoder.maxLineBytes)
        XCTAssertNoThrow(try event(atLimit))
    }

    func testTypeErrors() {
        assertEventError(#"{"t":1}"#, column: nil, "missing field \"type\"")
        assertEventError(#"{"t":1,"type":3}"#, column: 15, "\"type\" must be a string, found a number")
        assertEventError(#"{"t":1,"type":"keypress"}"#, column: 15,
                         "unknown event type \"keypress\" (expected one of key, backspace, suggestion, cursor, paste, keyboard.show, keyboard.hide, language, network, dictation.start, dictation.stop, chip.accept, field)")
        assertEventError(#"{"t":1,"type":"Key"}"#, column: 15,
                         "unknown event type \"Key\" (expected one of key, backspace, suggestion, cursor, paste, keyboard.show, keyboard.hide, language, network, dictation.start, dictation.stop, chip.accept, field)")
    }

    func testFieldErrors() {
        let cases: [(line: String, needle: String?, message: String)] = [
            (#"{"t":1,"type":"key"}"#, nil, "missing field \"text\""),
            (#"{"t":1,"type":"key","text":""}"#, #""""#, "\"text\" must not be empty"),
            (#"{"t":1,"type":"key","text":7}"#, "7", "\"text\" must be a string, found a number"),
            (#"{"t":1,"type":"key","text":null}"#, "null", "\"text\" must be a string, found null"),
            (#"{"t":1,"type":"key","text":"a","x":3}"#, "3", "\"x\" without \"y\" (a touch point has both or neither)"),
            (#"{"t":1,"type":"backspace","y":3}"#, "3", "\"y\" without \"x\" (a touch point has both or neither)"),
            (#"{"t":1,"type":"key","text":"a","x":true,"y":3}"#, "true", "\"x\" must be a number of points, found a boolean"),
            (#"{"t":1,"type":"key","text":"a","x":1,"y":1e999}"#, "1e999", "\"y\" 1e999 is out of range of a double"),
            (#"{"t":1,"type":"suggestion"}"#, nil, "missing field \"text\""),
            (#"{"t":1,"type":"suggestion","text":""}"#, #""""#, "\"text\" must not be empty"),
            (#"{"t":1,"type":"paste","text":{}}"#, "{}", "\"text\" must be a string, found an object"),
            (#"{"t":1,"type":"cursor"}"#, nil, "missing field \"offset\" (grapheme clusters to move the cursor by)"),
            (#"{"t":1,"type":"cursor","offset":1.5}"#, "1.5", "\"offset\" must be an integer, found 1.5"),
            (#"{"t":1,"type":"cursor","offset":2e1}"#, "2e1", "\"offset\" must be an integer, found 2e1"),
            (#"{"t":1,"type":"cursor","offset":"2"}"#, #""2""#, "\"offset\" must be an integer, found a string"),
            (#"{"t":1,"type":"cursor","offset":-3000000000}"#, "-3000000000",
             "\"offset\" -3000000000 is out of range (magnitude at most 2147483647)"),
            (#"{"t":1,"type":"language"}"#, nil, "missing field \"language\""),
            (#"{"t":1,"type":"language","language":"english please"}"#, #""english please""#,
             "\"language\" \"english please\" is not a BCP 47 language tag such as \"en\" or \"pt-BR\""),
            (#"{"t":1,"type":"language","language":"en-"}"#, #""en-""#,
             "\"language\" \"en-\" is not a BCP 47 language tag such as \"en\" or \"pt-BR\""),
            (#"{"t":1,"type":"network"}"#, nil, "missing field \"state\" (online, offline or slow)"),
            (#"{"t":1,"type":"network","state":"flaky"}"#, #""flaky""#,
             "unknown network state \"flaky\" (expected online, offline or slow)"),
            (#"{"t":1,"type":"network","state":false}"#, "false", "\"state\" must be a string, found a boolean"),
            (#"{"t":1,"type":"dictation.start"}"#, nil,
             "dictation.start needs \"audio\" (a WAV file) or both \"onsetMs\" and \"lengthMs\""),
            (#"{"t":1,"type":"dictation.start","onsetMs":5}"#, "5",
             "dictation.start needs \"audio\" (a WAV file) or both \"onsetMs\" and \"lengthMs\""),
            (#"{"t":1,"type":"dictation.start","audio":"a.wav","lengthMs":5}"#, "5",
             "dictation.start has both \"audio\" and inline timing; give \"audio\" or \"onsetMs\" and \"lengthMs\", not both"),
            (#"{"t":1,"type":"dictation.start","audio":""}"#, #""""#, "\"audio\" must not be empty"),
            (#"{"t":1,"type":"dictation.start","audio":"/etc/a.wav"}"#, #""/etc"#,
             "\"audio\" must be a path relative to the trace's folder, found \"/etc/a.wav\""),
            (#"{"t":1,"type":"dictation.start","audio":"a.wav","transcript":1}"#, "1}",
             "\"transcript\" must be a string, found a number"),
            (#"{"t":1,"type":"chip.accept","word":-1}"#, "-1", "\"word\" must not be negative (found -1)"),
            (#"{"t":1,"type":"chip.accept","word":"1"}"#, #""1""#, "\"word\" must be an integer, found a string"),
            (#"{"t":1,"type":"field"}"#, nil, "missing field \"change\" (cleared, replaced or opened)"),
            (#"{"t":1,"type":"field","change":"sent"}"#, #""sent""#,
             "unknown field change \"sent\" (expected cleared, replaced or opened)"),
            (#"{"t":1,"type":"field","change":2}"#, "2", "\"change\" must be a string, found a number"),
            (#"{"t":1,"type":"field","change":"opened","text":5}"#, "5", "\"text\" must be a string, found a number"),
            (#"{"t":1,"type":"field","change":"cleared","intended":[]}"#, "[]", "\"intended\" must be a string, found an array"),
        ]
        for (line, needle, message) in cases {
            // Columns point at the offending value: search after the "type" so that needles
            // such as "1" do not match the time.
            let expectedColumn = needle.map { needle in
                let typeEnd = self.column(of: "\"type\"", in: line) + 6
                let rest = String(decoding: Array(line.utf8)[(typeEnd - 1)...], as: UTF8.self)
                return typeEnd - 1 + self.column(of: needle, in: rest)
            }
            assertEventError(line, column: expectedColumn, message)
        }
    }

    // MARK: Header

    func testHeader() throws {
        var decoder = TraceLineDecoder()
        XCTAssertEqual(
            try decoder.decodeHeader(#"{"keysim":"trace","version":1,"name":"pangram","language":"ru","intendedText":"Съешь же ещё","source":"recorder 1.2"}"#),
            TraceHeader(version: 1, name: "pangram", language: "ru", intendedText: "Съешь же ещё", source: "recorder 1.2"))
        XCTAssertEqual(try decoder.decodeHeader(#"{"keysim":"trace","version":1}"#), TraceHeader())
        XCTAssertEqual(try decoder.decodeHeader(#"{"version":1,"future":{"a":1},"keysim":"trace","name":null}"#), TraceHeader())
    }

    func testHeaderErrors() {
        assertHeaderError(#"{"t":1,"type":"key","text":"a"}"#, column: nil,
                          "missing field \"keysim\" (the first line of a trace is its header: {\"keysim\":\"trace\",\"version\":1,…})")
        assertHeaderError(#"{"keysim":"scenario","version":1}"#, column: 11, "\"keysim\" must be \"trace\", found \"scenario\"")
        assertHeaderError(#"{"keysim":1,"version":1}"#, column: 11, "\"keysim\" must be a string, found a number")
        assertHeaderError(#"{"keysim":"trace"}"#, column: nil, "missing field \"version\"")
        assertHeaderError(#"{"keysim":"trace","version":7}"#, column: 29,
                          "trace format version 7 is newer than this keysim reads (1)")
        assertHeaderError(#"{"keysim":"trace","version":0}"#, column: 29,
                          "trace format version 0 is not valid (versions start at 1)")
        assertHeaderError(#"{"keysim":"trace","version":1.0}"#, column: 29, "\"version\" must be an integer, found 1.0")
        assertHeaderError(#"{"keysim":"trace","version":"1"}"#, column: 29, "\"version\" must be an integer, found a string")
        assertHeaderError(#"{"keysim":"trace","version":1,"language":""}"#, column: 42,
                          "\"language\" \"\" is not a BCP 47 language tag such as \"en\" or \"pt-BR\"")
        assertHeaderError(#"{"keysim":"trace","version":1,"name":["x"]}"#, column: 38, "\"name\" must be a string, found an array")
        assertHeaderError(#"{"keysim":"trace","version":1,"keysim":"trace"}"#, column: 31, "duplicate field \"keysim\"")
        assertHeaderError("", column: nil, "empty line")
    }

    // MARK: Encoder

    func testEncoderOutputIsExact() {
        let encoder = TraceLineEncoder()
        XCTAssertEqual(encoder.encode(TraceHeader()), #"{"keysim":"trace","version":1,"language":"en"}"#)
        XCTAssertEqual(encoder.encode(TraceHeader(name: "n", language: "ru", intendedText: "i", source: "s")),
                       #"{"keysim":"trace","version":1,"name":"n","language":"ru","intendedText":"i","source":"s"}"#)
        let lines: [(TraceEvent, String)] = [
            (TraceEvent(time: ms(123.5), kind: .key(text: "a", touchUp: ms(180), point: TouchPoint(x: 12.5, y: 40))),
             #"{"t":123.5,"type":"key","text":"a","up":180,"x":12.5,"y":40.0}"#),
            (TraceEvent(time: .zero, kind: .backspace(touchUp: nil, point: nil)), #"{"t":0,"type":"backspace"}"#),
            (TraceEvent(time: ms(1), kind: .suggestionPicked(text: "hi")), #"{"t":1,"type":"suggestion","text":"hi"}"#),
            (TraceEvent(time: ms(1), kind: .cursorMove(offset: -2)), #"{"t":1,"type":"cursor","offset":-2}"#),
            (TraceEvent(time: ms(1), kind: .paste(text: "p")), #"{"t":1,"type":"paste","text":"p"}"#),
            (TraceEvent(time: ms(1), kind: .keyboardShown), #"{"t":1,"type":"keyboard.show"}"#),
            (TraceEvent(time: ms(1), kind: .keyboardHidden), #"{"t":1,"type":"keyboard.hide"}"#),
            (TraceEvent(time: ms(1), kind: .languageSwitch(language: "pt-BR")), #"{"t":1,"type":"language","language":"pt-BR"}"#),
            (TraceEvent(time: ms(1), kind: .network(.slow)), #"{"t":1,"type":"network","state":"slow"}"#),
            (TraceEvent(time: ms(1), kind: .dictationStart(audio: .wavFile(path: "c.wav", transcript: "x"))),
             #"{"t":1,"type":"dictation.start","audio":"c.wav","transcript":"x"}"#),
            (TraceEvent(time: ms(1), kind: .dictationStart(audio: .inline(onset: .milliseconds(400), length: SimDuration(nanoseconds: 3_400_000_001), transcript: nil))),
             #"{"t":1,"type":"dictation.start","onsetMs":400,"lengthMs":3400.000001}"#),
            (TraceEvent(time: ms(1), kind: .dictationStop), #"{"t":1,"type":"dictation.stop"}"#),
            (TraceEvent(time: ms(1), kind: .chipAccepted(wordIndex: nil)), #"{"t":1,"type":"chip.accept"}"#),
            (TraceEvent(time: ms(1), kind: .chipAccepted(wordIndex: 3)), #"{"t":1,"type":"chip.accept","word":3}"#),
        ]
        for (event, line) in lines {
            XCTAssertEqual(encoder.encode(event), line)
            var bytes = Array("prefix".utf8)
            encoder.append(event, to: &bytes)
            XCTAssertEqual(bytes, Array(("prefix" + line).utf8), "append keeps what was there")
        }
    }

    func testMillisecondsText() {
        let cases: [(Int64, String)] = [
            (0, "0"), (1, "0.000001"), (10, "0.00001"), (999_999, "0.999999"), (1_000_000, "1"),
            (123_500_000, "123.5"), (1_000_000_000, "1000"), (123_456_789, "123.456789"),
            (100_000_010, "100.00001"), (-1_500_000, "-1.5"), (-1, "-0.000001"),
            (.max, "9223372036854.775807"), (.min, "-9223372036854.775808"),
        ]
        for (nanos, text) in cases {
            XCTAssertEqual(TraceLineEncoder.millisecondsText(nanoseconds: nanos), text)
        }
    }

    func testStringEscaping() {
        let encoder = TraceLineEncoder()
        let event = TraceEvent(time: .zero, kind: .paste(text: "q\"b\\s/\n\r\t\u{8}\u{C}\u{0}\u{1F}\u{7F}é"))
        XCTAssertEqual(encoder.encode(event),
                       #"{"t":0,"type":"paste","text":"q\"b\\s/\n\r\t\b\f\u0000\u001f"# + "\u{7F}é\"}")
    }
}
