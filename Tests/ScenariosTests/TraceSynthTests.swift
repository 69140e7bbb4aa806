import Foundation
import XCTest
import Sim
@testable import Scenarios

/// The synthetic typist: deterministic for a seed, types exactly the script's text, at the
/// requested speed, with slips on neighbouring keys and touches scattered around keys.
final class TraceSynthTests: XCTestCase {
    private let text = """
    Hi Sam, thanks for the notes. Can we meet at 10:30 tomorrow? The Café near the park is fine.
    Привет! Всё хорошо 👍🏽 See you soon 🎉
    """

    private func synthesize(_ text: String, wpm: Double = 40, seed: UInt64, typoRate: Double = 0.03,
                            spread: Double = 6) -> [TraceEvent] {
        var options = TypistModel.Options(wordsPerMinute: wpm)
        options.typoRate = typoRate
        options.touchSpreadPoints = spread
        var events: [TraceEvent] = []
        TypistModel(options: options).synthesize(SynthScript(segments: [.typed(text)]), seed: seed) { events.append($0) }
        return events
    }

    private func rebuilt(_ events: [TraceEvent]) -> String {
        var replay = ReplayedText()
        for event in events { replay.apply(event.kind) }
        return replay.text
    }

    func testSameSeedSameTraceAndEveryTraceTypesTheText() {
        XCTAssertEqual(synthesize(text, seed: 1), synthesize(text, seed: 1))
        XCTAssertNotEqual(synthesize(text, seed: 1), synthesize(text, seed: 2))
        for seed: UInt64 in 0..<25 {
            let events = synthesize(text, seed: seed, typoRate: 0.1)
            XCTAssertEqual(rebuilt(events), text, "seed \(seed)")
            XCTAssertTrue(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time }, "seed \(seed): time in order")
            XCTAssertEqual(events.first?.kind, .keyboardShown)
            XCTAssertEqual(events.last?.kind, .keyboardHidden)
        }
    }

    func testSpeedComesOutAsRequested() {
        let long = String(repeating: "The quick brown fox jumps over the lazy dog. Pack my box with five dozen jugs! ", count: 12)
        for wpm in [20.0, 45, 90] {
            var stats = TraceStatistics(header: TraceHeader())
            for event in synthesize(long, wpm: wpm, seed: 5) { stats.add(event) }
            XCTAssertEqual(stats.wordsPerMinute!, wpm, accuracy: wpm * 0.06, "wpm \(wpm)")
        }
    }

    func testSlipsAreNeighboursAndAreCorrected() {
        let layout = KeyboardLayout.qwerty
        var slips = 0
        for seed: UInt64 in 0..<10 {
            let events = synthesize(text, seed: seed, typoRate: 0.15)
            let taps = events.filter {
                if case .key = $0.kind { return true }
                if case .backspace = $0.kind { return true }
                return false
            }
            var index = 0
            while index < taps.count {
                guard case .backspace = taps[index].kind else { index += 1; continue }
                var run = 0
                while index + run < taps.count, case .backspace = taps[index + run].kind { run += 1 }
                guard case .key(let slip, _, _) = taps[index - run].kind,
                      case .key(let intended, _, _) = taps[index + run].kind else { return XCTFail("seed \(seed)") }
                XCTAssertLessThanOrEqual(run, 3, "at most two more letters before noticing")
                if let intendedKey = layout.key(for: Character(intended)) {
                    let neighbours = layout.neighbours(of: intendedKey).map(\.key.label)
                    XCTAssertTrue(neighbours.contains(slip.lowercased()), "seed \(seed): \(slip) for \(intended)")
                    XCTAssertEqual(slip == slip.uppercased(), intended == intended.uppercased(), "case kept")
                    slips += 1
                }
                index += run
            }
        }
        XCTAssertGreaterThan(slips, 50)
        let clean = synthesize(text, seed: 3, typoRate: 0)
        XCTAssertFalse(clean.contains { if case .backspace = $0.kind { return true } else { return false } })
    }

    func testTouchesScatterAroundTheKeyCentreByTheSpread() {
        let long = String(repeating: "asdf jkl qwerty uiop zxcv bnm ", count: 40)
        for spread in [3.0, 6, 10] {
            var dx: [Double] = [], dy: [Double] = []
            for event in synthesize(long, seed: 9, typoRate: 0, spread: spread) {
                guard case let .key(text, up, point?) = event.kind else { continue }
                XCTAssertNotNil(up)
                let centre = KeyboardLayout.qwerty.key(for: Character(text))!.center
                dx.append(point.x - centre.x)
                dy.append(point.y - centre.y)
            }
            for deviations in [dx, dy] {
                let mean = deviations.reduce(0, +) / Double(deviations.count)
                let sd = (deviations.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(deviations.count)).squareRoot()
                XCTAssertEqual(mean, 0, accuracy: spread * 0.15)
                XCTAssertEqual(sd, spread, accuracy: spread * 0.12, "spread \(spread)")
            }
        }
    }

    func testScriptsSwitchLanguageAndKeysOffTheKeyboardHaveNoTouch() {
        let events = synthesize("ok Да ok 👍🏽", seed: 4, typoRate: 0)
        let summary = events.compactMap { event -> String? in
            switch event.kind {
            case .languageSwitch(let language): "[\(language)]"
            case let .key(text, _, point): text + (point == nil ? "∅" : "")
            default: nil
            }
        }
        XCTAssertEqual(summary, ["o", "k", " ", "[ru]", "Д", "а", " ", "[en]", "o", "k", " ", "👍🏽∅"])
        var options = TypistModel.Options(wordsPerMinute: 40)
        options.language = "ru"
        var russian: [TraceEvent] = []
        TypistModel(options: options).synthesize(SynthScript(segments: [.typed("ёж")]), seed: 1) { russian.append($0) }
        guard case .key("ё", _, let point?) = russian[1].kind else { return XCTFail("\(russian)") }
        XCTAssertEqual(point.y, 27, accuracy: 30, "ё is a long press on е, in the top row")
    }

    func testScriptFilesWithDictations() throws {
        let directory = try TemporaryDirectory(prefix: "keysim-synth")
        let path = directory.path("script.txt")
        try "Running late.\n@dictate clips/a.wav I will be there soon.\nOk!\n\n".write(toFile: path, atomically: true, encoding: .utf8)
        let script = try SynthScript.read(path: path) { (audio: String) throws(InputError) -> Int64 in
            XCTAssertEqual(audio, "clips/a.wav")
            return 2_500_000_000
        }
        XCTAssertEqual(script.segments, [.typed("Running late.\n"),
                                         .dictation(audio: "clips/a.wav", transcript: "I will be there soon.", lengthNanos: 2_500_000_000),
                                         .typed("\nOk!")])
        XCTAssertEqual(script.intendedText, "Running late.\nI will be there soon.\nOk!")
        var events: [TraceEvent] = []
        TypistModel(options: .init(wordsPerMinute: 40)).synthesize(script, seed: 1) { events.append($0) }
        XCTAssertEqual(rebuilt(events), script.intendedText)
        let start = events.firstIndex { if case .dictationStart = $0.kind { return true } else { return false } }!
        XCTAssertEqual(events[start + 1].kind, .dictationStop)
        XCTAssertGreaterThanOrEqual((events[start + 1].time - events[start].time).nanoseconds, 2_900_000_000)

        let bad: [(String, [UInt8], String)] = [
            ("dictate.txt", Array("Hi\n@dictate clips/a.wav\n".utf8), "dictate.txt:2:10: error: a dictation line is '@dictate AUDIO TRANSCRIPT'"),
            ("absolute.txt", Array("@dictate /a.wav hello\n".utf8), "absolute.txt:1:10: error: the audio path must be relative"),
            ("empty.txt", Array(" \n\n".utf8), "empty.txt: error: no text to type"),
            ("utf8.txt", Array("ok\nbad ".utf8) + [0xFF], "utf8.txt:2:5: error: invalid UTF-8 (byte 0xFF)"),
        ]
        for (name, bytes, expected) in bad {
            let file = directory.path(name)
            XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(bytes)))
            XCTAssertThrowsError(try SynthScript.read(path: file) { (_: String) throws(InputError) -> Int64 in 1 }) { error in
                XCTAssertTrue("\(error)".hasPrefix(directory.path(expected)), "\(error)")
            }
        }
    }
}
