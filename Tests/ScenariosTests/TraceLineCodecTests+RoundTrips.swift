import Foundation
import XCTest
import Sim
@testable import Scenarios

/// Encode → decode round trips: Unicode scalar for scalar, times to the nanosecond, many
/// random events, the documentation's examples, and the decoder's overloads agreeing.
extension TraceLineCodecTests {
    func testUnicodeRoundTripsExactly() throws {
        let texts = [
            "👍🏽",              // emoji + skin-tone modifier
            "👩‍👩‍👧",            // ZWJ sequence
            "e\u{301}",         // e + combining acute, not precomposed
            "\u{E9}",           // precomposed é: must stay distinct from the above
            "привет",
            "🇺🇦",              // regional indicator pair
            "\u{0}\u{1}\u{1F}", // control characters
            "\u{2028}\u{2029}", // line/paragraph separators stay raw
            "日本語", "\u{10FFFF}", "\u{FEFF}", "tab\there",
        ]
        let encoder = TraceLineEncoder()
        for text in texts {
            let original = TraceEvent(time: ms(1), kind: .key(text: text, touchUp: nil, point: nil))
            let line = encoder.encode(original)
            let decoded = try event(line)
            XCTAssertEqual(decoded, original, line)
            // Equal as Swift strings is canonical equivalence; the scalars must match too.
            guard case let .key(decodedText, _, _) = decoded.kind else { return XCTFail(line) }
            XCTAssertEqual(Array(decodedText.unicodeScalars), Array(text.unicodeScalars), line)
            XCTAssertEqual(Array(decodedText.utf8), Array(text.utf8), line)
        }
        // Non-ASCII is written as UTF-8, not as \u escapes.
        XCTAssertEqual(encoder.encode(TraceEvent(time: .zero, kind: .paste(text: "👩‍👩‍👧 привет"))),
                       #"{"t":0,"type":"paste","text":"👩‍👩‍👧 привет"}"#)
        // Escaped input decodes to the same scalars as raw input.
        XCTAssertEqual(try event(#"{"t":1,"type":"key","text":"\ud83d\udc4d\ud83c\udffd"}"#).kind,
                       .key(text: "👍🏽", touchUp: nil, point: nil))
        XCTAssertEqual(try event(#"{"t":1,"type":"key","text":"e\u0301"}"#).kind,
                       .key(text: "e\u{301}", touchUp: nil, point: nil))
    }

    // MARK: Round trips

    func testTimeRoundTripAtNanosecondPrecision() throws {
        var random = SplitMix64(seed: 42)
        var times: [Int64] = [0, 1, 9, 10, 999_999, 1_000_000, 1_000_001, 123_456_789, SimDuration.maxNanoseconds]
        for _ in 0..<1_000 { times.append(Int64(random.next() % UInt64(SimDuration.maxNanoseconds + 1))) }
        let encoder = TraceLineEncoder()
        for nanos in times {
            let original = TraceEvent(time: SimTime(nanoseconds: nanos), kind: .backspace(
                touchUp: SimTime(nanoseconds: nanos), point: nil))
            let line = encoder.encode(original)
            XCTAssertEqual(try event(line), original, line)
        }
    }

    /// Encoding then decoding gives back the identical event, for every kind, over many random
    /// events; encoding the decoded event again gives the identical bytes.
    func testRandomEventsRoundTrip() throws {
        let encoder = TraceLineEncoder()
        for seed: UInt64 in 1...20 {
            var generator = RandomTraceGenerator(seed: seed)
            let header = generator.header()
            var decoder = TraceLineDecoder()
            let headerLine = encoder.encode(header)
            XCTAssertEqual(try decoder.decodeHeader(headerLine), header, "seed \(seed): \(headerLine)")
            var kindsSeen = Set<String>()
            for _ in 0..<300 {
                let original = generator.event()
                kindsSeen.insert(original.kind.wireName)
                var bytes: [UInt8] = []
                encoder.append(original, to: &bytes)
                let line = String(decoding: bytes, as: UTF8.self)
                let decoded: TraceEvent
                do {
                    decoded = try decoder.decodeEvent(bytes)
                } catch {
                    return XCTFail("seed \(seed): \(error) in \(line)")
                }
                XCTAssertEqual(decoded, original, "seed \(seed): \(line)")
                XCTAssertEqual(encoder.encode(decoded), line, "seed \(seed): re-encoding differs")
            }
            XCTAssertEqual(kindsSeen, Set(TraceEvent.Kind.wireNames), "seed \(seed) missed a kind")
        }
    }

    /// Every JSON line shown in docs/trace-format.md decodes, so the documentation cannot
    /// drift from the decoder.
    func testDocumentationExamplesDecode() throws {
        let docs = PackageRoot.url.appendingPathComponent("docs/trace-format.md")
        let markdown = try String(contentsOf: docs, encoding: .utf8)
        var inBlock = false
        var decoder = TraceLineDecoder()
        var decodedLines = 0, headers = 0
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line == "```json" || line == "```jsonl" { inBlock = true; decoder = TraceLineDecoder(); continue }
            if line.hasPrefix("```") { inBlock = false; continue }
            guard inBlock else { continue }
            do {
                if line.hasPrefix(#"{"keysim""#) {
                    _ = try decoder.decodeHeader(line)
                    headers += 1
                } else {
                    _ = try decoder.decodeLine(line)
                }
                decodedLines += 1
            } catch {
                XCTFail("docs example \(line): \(error)")
            }
        }
        XCTAssertEqual(headers, 2)
        XCTAssertGreaterThanOrEqual(decodedLines, 19)
    }

    func testOverloadsAgree() throws {
        let line = #"{"t":3,"type":"key","text":"ы","up":4,"x":1,"y":2}"#
        var a = TraceLineDecoder(), b = TraceLineDecoder(), c = TraceLineDecoder()
        let fromString = try a.decodeEvent(line)
        let fromBytes = try b.decodeEvent(Array(line.utf8))
        let fromBuffer = try Array(line.utf8).withUnsafeBufferPointer { try c.decodeEvent($0) }
        XCTAssertEqual(fromString, fromBytes)
        XCTAssertEqual(fromString, fromBuffer)
        XCTAssertEqual(TraceLineError(column: 3, message: "m").description, "3: m")
        XCTAssertEqual(TraceLineError(column: nil, message: "m").description, "m")
    }
}
