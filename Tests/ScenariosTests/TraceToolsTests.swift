import Foundation
import XCTest
import Sim
@testable import Scenarios

/// The pieces the trace tools share: text replay, word and sentence counts, interval
/// percentiles, the keyboard layout and WAV files.
final class TraceToolsTests: XCTestCase {
    private func replay(_ kinds: [TraceEvent.Kind]) -> ReplayedText {
        var text = ReplayedText()
        for kind in kinds { text.apply(kind) }
        return text
    }

    private func key(_ text: String) -> TraceEvent.Kind { .key(text: text, touchUp: nil, point: nil) }
    private let backspace = TraceEvent.Kind.backspace(touchUp: nil, point: nil)

    func testReplayTypesDeletesMovesAndDictates() {
        var text = replay([key("H"), key("u"), backspace, key("i"), key(" "), key("t"), key("h"), key("e"), key("r")])
        XCTAssertEqual(text.text, "Hi ther")
        text.apply(.suggestionPicked(text: "there"))
        XCTAssertEqual(text.text, "Hi there")
        text.apply(.cursorMove(offset: -6))
        text.apply(key(","))
        XCTAssertEqual(text.text, "Hi, there")
        XCTAssertEqual(text.cursorOffset, 3)
        text.apply(.cursorMove(offset: 100))
        XCTAssertEqual(text.cursorOffset, 9)
        text.apply(.dictationStart(audio: .inline(onset: .zero, length: .zero, transcript: " see you")))
        XCTAssertEqual(text.text, "Hi, there", "a transcript lands when the dictation stops")
        text.apply(.dictationStop)
        text.apply(.paste(text: " 👍🏽"))
        text.apply(.chipAccepted(wordIndex: 0))
        XCTAssertEqual(text.text, "Hi, there see you 👍🏽")
        text.apply(.cursorMove(offset: -1000))
        text.apply(backspace)
        XCTAssertEqual(text.cursorOffset, 0, "backspace at the start does nothing")
        XCTAssertEqual(text.count, 19)
    }

    func testReplayCountsGraphemeClusters() {
        // A combining accent joins the letter before it; a skin tone joins its emoji.
        var text = replay([key("e"), key("\u{301}"), key("👍"), key("🏽"), key("ж")])
        XCTAssertEqual(text.count, 3)
        XCTAssertEqual(text.text, "e\u{301}👍🏽ж")
        text.apply(.cursorMove(offset: -1))
        text.apply(backspace)
        XCTAssertEqual(text.text, "e\u{301}ж", "backspace removes the whole emoji cluster")
        text.apply(backspace)
        XCTAssertEqual(text.text, "ж")
    }

    func testWordsAndSentences() {
        XCTAssertEqual(TextCounts.words(""), 0)
        XCTAssertEqual(TextCounts.words("  Hi  there\nyou 👍 "), 4)
        XCTAssertEqual(TextCounts.sentences(""), 0)
        XCTAssertEqual(TextCounts.sentences("Hi. How are you?! Fine"), 3)
        XCTAssertEqual(TextCounts.sentences("It costs 3.5 euros, e.g. here."), 2)
        XCTAssertEqual(TextCounts.sentences("Wait…"), 1)
        XCTAssertEqual(TextCounts.sentences("...!"), 0)
    }

    func testIntervalPercentilesAreNearestRankThenWithinBucketPrecision() {
        var sample = IntervalSample()
        XCTAssertNil(sample.percentile(50))
        for value in [5, 1, 4, 2, 3] as [Int64] { sample.add(value * 1_000_000) }
        XCTAssertEqual(sample.percentiles([0, 20, 21, 50, 100]), [1_000_000, 1_000_000, 2_000_000, 3_000_000, 5_000_000])
        XCTAssertEqual(sample.sumNanos, 15_000_000)

        // Past the exact limit every percentile stays within 0.4 % of the exact value.
        var large = IntervalSample()
        var generator = SplitMix(seed: 3)
        var values: [Int64] = []
        for _ in 0..<(IntervalSample.exactCountMax + 50_000) {
            let value = Int64(generator.next() % 2_000_000_000)
            values.append(value)
            large.add(value)
        }
        values.sort()
        for p in [1.0, 10, 50, 90, 99, 99.9] {
            let exact = Double(values[Int((p * Double(values.count) / 100).rounded(.up)) - 1])
            let approximate = Double(large.percentile(p)!)
            XCTAssertEqual(approximate, exact, accuracy: exact * 0.004 + 1, "p\(p)")
        }
        XCTAssertEqual(large.count, values.count)
    }

    func testLayoutGeometryAndNeighbours() {
        let qwerty = KeyboardLayout.qwerty
        XCTAssertEqual(qwerty.key(for: "q")?.center, TouchPoint(x: 16.5, y: 27))
        XCTAssertEqual(qwerty.key(for: "P")?.center, TouchPoint(x: 313.5, y: 27))
        XCTAssertEqual(qwerty.key(for: "a")?.center, TouchPoint(x: 33, y: 81))
        XCTAssertEqual(qwerty.key(for: "m")?.center, TouchPoint(x: 264, y: 135))
        XCTAssertEqual(qwerty.key(for: " ")?.center, TouchPoint(x: 165, y: 189))
        XCTAssertNil(qwerty.key(for: "1"))
        XCTAssertEqual(KeyboardLayout.symbols.key(for: "1")?.center, TouchPoint(x: 16.5, y: 27))
        XCTAssertEqual(KeyboardLayout.russian.key(for: "Ж")?.center.y, 81)
        for key in qwerty.characterKeys {
            XCTAssertLessThanOrEqual(key.center.x + key.width / 2, KeyboardLayout.widthPoints)
            XCTAssertGreaterThanOrEqual(key.center.x - key.width / 2, 0)
        }
        func names(_ c: Character) -> [String] {
            qwerty.neighbours(of: qwerty.key(for: c)!).map { "\($0.key.label)\($0.weight)" }.sorted()
        }
        // As on an iPhone, v sits right below g and k right above m.
        XCTAssertEqual(names("g"), ["f2", "h2", "t1", "v1", "y1"])
        XCTAssertEqual(names("q"), ["a1", "w2"])
        XCTAssertEqual(names("m"), ["k1", "n2"])
    }

    func testWAVFilesAreReadAndBadOnesReported() throws {
        let clip = try WAVFile.read(path: packageRoot + "/traces/clips/dictation-1.wav")
        XCTAssertEqual(clip.sampleRate, 16_000)
        XCTAssertEqual(clip.channelCount, 1)
        XCTAssertEqual(clip.bitsPerSample, 16)
        XCTAssertEqual(Double(clip.durationNanos) / 1e9, 2.83, accuracy: 0.01)

        let directory = try TemporaryDirectory(prefix: "keysim-wav")
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: packageRoot + "/traces/clips/dictation-3.wav")))
        let cases: [(String, [UInt8], InputError.Kind, String)] = [
            ("text.wav", Array("hello".utf8), .invalidContent, "not a WAV file (no RIFF/WAVE header)"),
            ("riff.wav", Array("RIFF....WAVEnothing".utf8), .truncated, "truncated WAV: no fmt chunk"),
            ("cut.wav", Array(bytes.prefix(1000)), .truncated, "truncated WAV: the data chunk declares"),
            ("float16.wav", { var b = bytes; b[20] = 3; return b }(), .invalidContent, "unsupported WAV sample size: 16-bit float"),
            ("mp3.wav", { var b = bytes; b[20] = 0x55; return b }(), .invalidContent, "unsupported WAV encoding"),
        ]
        for (name, content, kind, expected) in cases {
            let path = directory.path(name)
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(content)))
            XCTAssertThrowsError(try WAVFile.read(path: path), name) { error in
                let error = error as! InputError
                XCTAssertEqual(error.kind, kind, name)
                XCTAssertTrue(error.message.hasPrefix(expected), "\(name): \(error.message)")
            }
        }
        XCTAssertThrowsError(try WAVFile.read(path: directory.path("none.wav"))) { error in
            XCTAssertEqual((error as! InputError).kind, .noSuchFile)
        }
    }
}

/// The package root, where `traces/` lives.
let packageRoot = PackageRoot.path

/// `trace validate` and `run` read WAV files with one parser: what one accepts, the other does.
final class WAVAgreementTests: XCTestCase {
    /// A WAV file's bytes: a fmt chunk of the given encoding and a data chunk.
    private func wav(tag: UInt16, channels: UInt16, bits: UInt16, data: [UInt8], dataSize: UInt32? = nil) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let rate: UInt32 = 16_000
        let block = channels * bits / 8
        let fmt = u16(tag) + u16(channels) + u32(rate) + u32(rate * UInt32(block)) + u16(block) + u16(bits)
        let body = Array("WAVE".utf8) + Array("fmt ".utf8) + u32(16) + fmt + Array("data".utf8) + u32(dataSize ?? UInt32(data.count)) + data
        return Array("RIFF".utf8) + u32(UInt32(body.count)) + body
    }

    func testValidateAndRunAgreeOnEveryCase() throws {
        let directory = try TemporaryDirectory(prefix: "keysim-wav-agree")
        let cases: [(String, [UInt8], Bool)] = [
            ("float32.wav", wav(tag: 3, channels: 1, bits: 32, data: [UInt8](repeating: 0, count: 64)), true),
            ("ten-channels.wav", wav(tag: 1, channels: 10, bits: 16, data: [UInt8](repeating: 0, count: 40)), true),
            ("streaming.wav", wav(tag: 1, channels: 1, bits: 16, data: [UInt8](repeating: 0, count: 32), dataSize: 0xFFFF_FFFF), true),
            ("odd.wav", wav(tag: 1, channels: 1, bits: 16, data: [UInt8](repeating: 0, count: 33)), false),
            ("mulaw.wav", wav(tag: 7, channels: 1, bits: 8, data: [UInt8](repeating: 0, count: 8)), false),
        ]
        for (name, bytes, valid) in cases {
            let path = directory.path(name)
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            let validated = Result { try WAVFile.read(path: path) }
            let run = Result { try WAVReader.read(path: path) }
            XCTAssertEqual((try? validated.get()) != nil, valid, name)
            XCTAssertEqual((try? run.get()) != nil, valid, name)
            if case .failure(let a) = validated, case .failure(let b) = run { XCTAssertEqual("\(a)", "\(b)", name) }
        }
    }
}
