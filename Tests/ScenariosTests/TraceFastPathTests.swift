import Foundation
import XCTest
import Sim
@testable import Scenarios

/// The decoder's fast path for key and backspace lines: it must give exactly what the general
/// parser gives (events, doubles to the bit, errors with their columns), take the encoder's
/// own lines, and leave every unusual line to the general path.
final class TraceFastPathTests: XCTestCase {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// What the fast path alone gives for a line (with a fresh decoder).
    private func fast(_ line: [UInt8], after previous: SimTime? = nil) -> TraceEvent? {
        var decoder = TraceLineDecoder()
        if let previous {
            _ = try? decoder.decodeEvent(bytes("{\"t\":\(TraceLineEncoder.millisecondsText(nanoseconds: previous.nanoseconds)),\"type\":\"keyboard.show\"}"))
        }
        return line.withUnsafeBufferPointer { decoder.fastKeyEvent($0) }
    }

    private func general(_ decoder: inout TraceLineDecoder, _ line: [UInt8]) -> Result<TraceEvent, TraceLineError> {
        line.withUnsafeBufferPointer { buffer in
            Result { () throws(TraceLineError) in try decoder.decodeEventGeneral(buffer) }
        }
    }

    private func full(_ decoder: inout TraceLineDecoder, _ line: [UInt8]) -> Result<TraceEvent, TraceLineError> {
        Result { () throws(TraceLineError) in try decoder.decodeEvent(line) }
    }

    /// Events equal, with touch coordinates equal to the bit (so -0.0 is not 0.0).
    private func identical(_ a: TraceEvent, _ b: TraceEvent) -> Bool {
        guard a == b else { return false }
        func point(_ kind: TraceEvent.Kind) -> TouchPoint? {
            switch kind {
            case let .key(_, _, point), let .backspace(_, point): point
            default: nil
            }
        }
        switch (point(a.kind), point(b.kind)) {
        case (nil, nil): return true
        case let (p?, q?): return p.x.bitPattern == q.x.bitPattern && p.y.bitPattern == q.y.bitPattern
        default: return false
        }
    }

    func testFastPathTakesTheEncodersKeyAndBackspaceLines() {
        let encoder = TraceLineEncoder()
        let events: [TraceEvent] = [
            TraceEvent(time: SimTime(nanoseconds: 0), kind: .backspace(touchUp: nil, point: nil)),
            TraceEvent(time: SimTime(nanoseconds: 123_456_789), kind: .key(text: "a", touchUp: nil, point: nil)),
            TraceEvent(time: SimTime(nanoseconds: 1_000_000_000), kind: .key(text: "é日👍", touchUp: SimTime(nanoseconds: 1_060_000_001),
                                                                               point: TouchPoint(x: 12.5, y: 40))),
            TraceEvent(time: SimTime(nanoseconds: 5), kind: .backspace(touchUp: SimTime(nanoseconds: 5), point: TouchPoint(x: -0.0, y: 329.9))),
            TraceEvent(time: SimTime(nanoseconds: TraceLineDecoder.timeNanosMax), kind: .key(text: " ", touchUp: nil, point: TouchPoint(x: 0.1, y: 161.9))),
        ]
        for event in events {
            let line = bytes(encoder.encode(event))
            guard let decoded = fast(line) else {
                XCTFail("fast path refused \(encoder.encode(event))")
                continue
            }
            XCTAssertTrue(identical(decoded, event), "\(encoder.encode(event)): \(decoded)")
        }
    }

    func testFastPathLeavesUnusualLinesToTheGeneralPath() {
        let refused = [
            #"{"t":1,"type":"key","text":"a\"b"}"#,              // escape in the text
            #"{"t":1,"type":"key","text":"\u0061"}"#,
            #"{"type":"key","t":1,"text":"a"}"#,                  // field order
            #"{"t":1,"text":"a","type":"key"}"#,
            #"{"t":1,"type":"key","text":"a","extra":true}"#,    // extra field
            #"{"t":1,"type":"key","text":"a","y":2,"x":1}"#,
            #"{"t":1,"type":"key","text":"a","x":1}"#,            // x without y
            #"{"t":1,"type":"key","text":"a","up":2,"up":3}"#,   // duplicate
            #"{"t":1,"type":"key","text":"a","t":2}"#,
            #"{ "t":1,"type":"key","text":"a"}"#,                 // whitespace
            #"{"t":1,"type":"key","text":"a"} "#,
            #"{"t": 1,"type":"key","text":"a"}"#,
            #"{"t":1e3,"type":"key","text":"a"}"#,                // exponent
            #"{"t":1,"type":"key","text":"a","x":1e-05,"y":2}"#,
            #"{"t":01,"type":"key","text":"a"}"#,                 // leading zero
            #"{"t":-1,"type":"key","text":"a"}"#,                 // negative time
            #"{"t":1.0000001,"type":"key","text":"a"}"#,          // rounding
            #"{"t":1000000000000,"type":"key","text":"a"}"#,      // out of range
            #"{"t":1.,"type":"key","text":"a"}"#,
            #"{"t":1,"type":"key","text":""}"#,                   // empty text
            #"{"t":2,"type":"key","text":"a","up":1}"#,           // up before t
            #"{"t":1,"type":"k\u0065y","text":"a"}"#,             // escaped type
            #"{"t":1,"type":"paste","text":"a"}"#,                // other types
            #"{"t":1,"type":"backspace","text":"a"}"#,
            #"{"t":1,"type":"key"}"#,
            #"{"t":1,"type":"key","text":"a","x":1.0000000000000001,"y":2}"#, // 17 digits
            #"{"t":1,"type":"key","text":"a","x":-,"y":2}"#,
        ]
        for line in refused {
            XCTAssertNil(fast(bytes(line)), line)
        }
        XCTAssertNil(fast(bytes(#"{"t":1,"type":"key","text":"a"}"#), after: SimTime(nanoseconds: 2_000_000)), "time going backwards")
        XCTAssertNil(fast([UInt8](#"{"t":1,"type":"key","text":"a"#.utf8) + [0xFF] + [UInt8](#""}"#.utf8)), "invalid UTF-8")
        XCTAssertNil(fast([UInt8](#"{"t":1,"type":"key","text":"a"#.utf8) + [0x09] + [UInt8](#""}"#.utf8)), "control character")
    }

    /// Many generated lines, canonical and mutated, through two decoders: `decodeEvent` (fast
    /// path first) and the general path alone must agree on every event and every error.
    func testFastAndGeneralPathsAgreeOnGeneratedLines() {
        var rng = RandomStream(seed: 7, replication: 0, name: "fastpath")
        let encoder = TraceLineEncoder()
        let texts = ["a", "e", " ", "Z", "é", "日本", "👍", "a\"b", "back\\slash", "tab\t", "line\nfeed", "ß!", "\u{7F}"]
        let doubles: [Double] = [0, -0.0, 12.5, 40, 0.1, 329.9, -3.25, 1e-05, 1e20, 123456.789, 0.000123, 99999999999999.9]
        var fastDecoder = TraceLineDecoder()
        var generalDecoder = TraceLineDecoder()
        var time: Int64 = 0
        var fastTaken = 0
        for round in 0..<20_000 {
            let step = Int64(rng.nextInt(below: 4)) == 0 ? Int64(rng.nextInt(below: 1000)) : Int64(rng.nextInt(below: 400_000_000))
            time += step
            if rng.nextInt(below: 50) == 0 { time -= Int64(rng.nextInt(below: 1_000_000_000)) } // may go backwards
            time = max(0, min(time, TraceLineDecoder.timeNanosMax + 5))
            let up: SimTime? = rng.nextInt(below: 3) == 0 ? nil
                : SimTime(nanoseconds: time + Int64(rng.nextInt(below: 100_000_000)) - (rng.nextInt(below: 30) == 0 ? 50_000_000 : 0))
            let point: TouchPoint? = rng.nextInt(below: 4) == 0 ? nil
                : TouchPoint(x: rng.nextInt(below: 2) == 0 ? doubles[rng.nextInt(below: doubles.count)] : Double(rng.nextInt(below: 3300)) / 10,
                             y: Double(rng.nextInt(below: 1620)) / 10)
            let kind: TraceEvent.Kind = rng.nextInt(below: 5) == 0
                ? .backspace(touchUp: up, point: point)
                : .key(text: rng.nextInt(below: 40) == 0 ? "" : texts[rng.nextInt(below: texts.count)], touchUp: up, point: point)
            var line = bytes(encoder.encode(TraceEvent(time: SimTime(nanoseconds: time), kind: kind)))
            switch rng.nextInt(below: 10) {
            case 0: // insert a space somewhere
                line.insert(0x20, at: rng.nextInt(below: line.count + 1))
            case 1: // replace a byte with one of a few troublemakers
                let troublemakers: [UInt8] = [0x22, 0x5C, 0x2C, 0x3A, 0x7D, 0x30, 0x2E, 0x65, 0x2D, 0xFF, 0xC3, 0x09]
                line[rng.nextInt(below: line.count)] = troublemakers[rng.nextInt(below: troublemakers.count)]
            case 2: // an extra field before the end
                line.removeLast()
                line += bytes(rng.nextInt(below: 2) == 0 ? #","extra":[1,{"a":null}]}"# : #","up":null}"#)
            case 3: // cut short
                line.removeLast(rng.nextInt(below: min(5, line.count)) + 1)
            case 4: // digits that need care
                let numbers = ["0", "01", "1.0000005", "1e3", "-0", "0.000001", "999999999999", "9007199254740993", "1.5E+2"]
                let text = String(decoding: line, as: UTF8.self)
                let number = numbers[rng.nextInt(below: numbers.count)]
                let key = ["\"t\":", "\"up\":", "\"x\":"][rng.nextInt(below: 3)]
                line = bytes(text.replacingOccurrences(of: key, with: key + number + (rng.nextInt(below: 2) == 0 ? "," : "") + "0"))
            default:
                break
            }
            let a = full(&fastDecoder, line)
            let b = general(&generalDecoder, line)
            let text = String(decoding: line, as: UTF8.self)
            switch (a, b) {
            case let (.success(x), .success(y)):
                XCTAssertTrue(identical(x, y), "line \(round) \(text): \(x) vs \(y)")
            case let (.failure(x), .failure(y)):
                XCTAssertEqual(x, y, "line \(round) \(text)")
            default:
                XCTFail("line \(round) \(text): \(a) vs \(b)")
            }
            XCTAssertEqual(fastDecoder.previousTime, generalDecoder.previousTime, "line \(round) \(text)")
            if line.withUnsafeBufferPointer({ fastDecoder.fastKeyEvent($0) }) != nil { fastTaken += 1 }
            if fastDecoder.previousTime != generalDecoder.previousTime { break }
        }
        // The fast path must actually be exercised by most canonical lines.
        XCTAssertGreaterThan(fastTaken, 5_000)
    }
}
