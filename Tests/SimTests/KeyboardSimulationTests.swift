import XCTest
@testable import Sim

final class KeyboardSimulationTests: XCTestCase {
    /// A keyboard with fixed costs and delays, so every time below is exact.
    func exactConfig() -> KeyboardConfig {
        var config = KeyboardConfig()
        config.work[.key]!.cost = .constant(2)
        config.network.goodRoundTrip = .constant(50)
        config.network.goodLoss = 0
        config.cloud.service = .constant(300)
        return config
    }

    func keys(_ typed: [(ms: Double, text: String)]) -> ArrayTraceSource {
        ArrayTraceSource(typed.map { TraceEvent(time: SimTime(milliseconds: $0.ms), kind: .key(text: $0.text, touchUp: nil, point: nil)) })
    }

    func run(_ config: KeyboardConfig, _ source: ArrayTraceSource) throws -> (ObservationBuffer, ReplicationSummary) {
        var source = source
        var sink = ObservationBuffer()
        var simulation = KeyboardSimulation(config: config, seed: 1, replication: 0)
        let summary = try simulation.run(&source, into: &sink)
        return (sink, summary)
    }

    func testSentenceEndUsesTheShortTimerAndOtherEditsTheLongOne() throws {
        // "Hi." lands at 202 ms: 400 ms later a request. " ok " lands at 1102 ms: 2 s later another.
        let (sink, summary) = try run(exactConfig(), keys([(0, "H"), (100, "i"), (200, "."), (800, " "), (900, "o"), (1000, "k"),
                                                           (1100, " ")]))
        XCTAssertEqual(sink.requests.map(\.sent.milliseconds), [602, 3102])
        XCTAssertEqual(sink.requests.map(\.trigger), [.sentenceEnd, .idle])
        XCTAssertEqual(sink.requests.map(\.characters), [3, 3], "'Hi.', then 'ok ': each request carries only what changed")
        XCTAssertEqual(sink.requests.map(\.end.milliseconds), [952, 3452])
        XCTAssertEqual(summary.requests, 2)
        XCTAssertEqual(sink.keys.map(\.latency), Array(repeating: .milliseconds(2), count: 7))
    }

    /// The word at the cursor is being typed: the 2 s request waits for it to be finished.
    func testTheHalfTypedWordIsNeverSent() throws {
        var config = exactConfig()
        config.debounce = .fixed(delay: .milliseconds(500))
        let (sink, _) = try run(config, keys([(0, "I"), (100, " "), (200, "t"), (300, "y"), (400, "p"),
                                              (3000, "e"), (3100, " ")]))
        XCTAssertEqual(sink.requests.map(\.sent.milliseconds), [902, 3602], "'I' alone at 902 ms; 'type' once finished")
        XCTAssertEqual(sink.requests.map(\.words), [1, 1])
    }

    /// A request goes out only when its text differs from what the cloud last saw.
    func testTypingAndDeletingOrABackspaceOnAnEmptyFieldSendsNothing() throws {
        var config = exactConfig()
        config.debounce = .fixed(delay: .milliseconds(500))
        let backspace = { (ms: Double) in TraceEvent(time: SimTime(milliseconds: ms), kind: .backspace(touchUp: nil, point: nil)) }
        let key = { (ms: Double, text: String) in TraceEvent(time: SimTime(milliseconds: ms), kind: .key(text: text, touchUp: nil, point: nil)) }
        let (sink, _) = try run(config, ArrayTraceSource([backspace(0), key(1000, "ok "), key(3000, "x"), backspace(3100),
                                                          key(5000, " "), backspace(5100)]))
        XCTAssertEqual(sink.requests.map(\.sent.milliseconds), [1502], "only 'ok' was ever new to the cloud")
    }

    func testTrailingWhitespaceAfterTheFullStopStillCountsAsASentenceEnd() throws {
        let (sink, _) = try run(exactConfig(), keys([(0, "a"), (100, "!"), (200, " ")]))
        XCTAssertEqual(sink.requests.map(\.sent.milliseconds), [602])
        XCTAssertEqual(sink.requests.first?.trigger, .sentenceEnd)
    }

    func testEveryEditReArmsAndNoRequestWithoutAChange() throws {
        var config = exactConfig()
        config.debounce = .fixed(delay: .milliseconds(500))
        // Keys 300 ms apart keep re-arming; the only request goes 500 ms after the last.
        let (sink, _) = try run(config, keys([(0, "a "), (300, "b "), (600, "c "), (900, "d ")]))
        XCTAssertEqual(sink.requests.map(\.sent.milliseconds), [1402])
        XCTAssertEqual(sink.requests.map(\.textVersion), [4])
    }

    func testKeysQueueBehindASlowHandlerOnTheMainThread() throws {
        var config = exactConfig()
        config.work[.key]!.cost = .constant(15)
        config.work[.draw]!.cost = .constant(0)
        let (sink, _) = try run(config, keys([(0, "a"), (5, "b"), (10, "c")]))
        XCTAssertEqual(sink.keys.map(\.inserted.milliseconds), [15, 30, 45])
        XCTAssertEqual(sink.keys.map(\.latency.milliseconds), [15, 25, 35])
        XCTAssertEqual(sink.keys.map(\.wait.milliseconds), [0, 10, 20])
        XCTAssertEqual(sink.tasks.filter { $0.kind == KeyboardWork.key.code }.count, 3)
    }

    /// A timer and a key at the same instant: the key touch was scheduled first, so it fires
    /// first, but its text lands only after its handler, so the request does not carry it.
    func testTieBetweenTimerAndKeyFollowsSchedulingOrder() throws {
        var config = exactConfig()
        config.debounce = .fixed(delay: .milliseconds(98))
        let (sink, _) = try run(config, keys([(0, "a "), (100, "b ")]))
        // "a" lands at 2 ms, timer at 100 ms; the "b" touch is also at 100 ms.
        XCTAssertEqual(sink.requests.map(\.sent.milliseconds), [100, 200])
        XCTAssertEqual(sink.requests.map(\.textVersion), [1, 2])
    }

    func testBackspaceAndSuggestionEditTheText() throws {
        var buffer = TextBuffer()
        buffer.insert("helo")
        buffer.deleteBackward()
        buffer.insert("lo wor")
        buffer.replaceCurrentWord(with: "world")
        XCTAssertEqual(buffer.text, "hello world")
        XCTAssertEqual(buffer.count, 11)
        XCTAssertEqual(buffer.tokenStarts, [0, 6])
        XCTAssertEqual(buffer.wordCount, 2)
        XCTAssertEqual(buffer.version, 4)
    }

    func testGraphemeCountsFollowClustersNotScalars() {
        var buffer = TextBuffer()
        buffer.insert("e")
        buffer.insert("\u{301}")      // combining acute joins the "e"
        XCTAssertEqual(buffer.count, 1)
        buffer.insert("👍")
        buffer.insert("🏽")            // skin tone joins the thumb
        XCTAssertEqual(buffer.count, 2)
        buffer.insert("👩‍👩‍👧")
        XCTAssertEqual(buffer.count, 3)
        buffer.deleteBackward()
        XCTAssertEqual(buffer.text, "é👍🏽")
        XCTAssertEqual(buffer.count, 2)
        buffer.insert("ж")
        XCTAssertEqual(buffer.characterCount(utf8: buffer.lastEdit.atUTF8..<buffer.utf8.count), 1)
    }

    func testSameSeedSameObservationsOtherSeedOtherOnes() throws {
        let config = KeyboardConfig()
        let typed = (0..<200).map { (ms: Double($0) * 180, text: $0 % 7 == 6 ? " " : "x") }
        func observe(seed: UInt64) throws -> ObservationBuffer {
            var source = keys(typed)
            var sink = ObservationBuffer()
            var simulation = KeyboardSimulation(config: config, seed: seed, replication: 3)
            _ = try simulation.run(&source, into: &sink)
            return sink
        }
        XCTAssertEqual(try observe(seed: 9).keys, try observe(seed: 9).keys)
        XCTAssertNotEqual(try observe(seed: 9).keys, try observe(seed: 10).keys)
    }
}
