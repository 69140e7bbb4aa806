import XCTest
@testable import Sim

/// The debounce policies on hand-built traces with exact expected request times.
final class DebouncerTests: XCTestCase {
    /// Fixed costs everywhere: a key lands 2 ms after its touch.
    static func config(_ policy: DebouncePolicy) -> KeyboardConfig {
        var config = KeyboardConfig()
        for kind in KeyboardWork.allCases { config.work[kind]!.cost = .constant(kind == .key ? 2 : 1) }
        config.debounce = policy
        config.network.goodRoundTrip = .constant(50)
        config.network.goodLoss = 0
        config.cloud.service = .constant(300)
        return config
    }

    static func requestTimes(_ policy: DebouncePolicy, _ typed: [(Double, String)]) throws -> [Double] {
        var source = ArrayTraceSource(typed.map { TraceEvent(time: SimTime(milliseconds: $0.0), kind: .key(text: $0.1, touchUp: nil, point: nil)) })
        var sink = ObservationBuffer()
        var simulation = KeyboardSimulation(config: Self.config(policy), seed: 1, replication: 0)
        _ = try simulation.run(&source, into: &sink)
        return sink.requests.map(\.sent.milliseconds).sorted()
    }

    /// Keys that each type a finished word (a request carries finished words only).
    let burst: [(Double, String)] = [(0, "a "), (100, "b "), (200, "c "), (300, "d "), (1500, "e ")]

    func testSentenceAwareShortAfterSentenceEndLongOtherwise() throws {
        XCTAssertEqual(try Self.requestTimes(.seedDefault, [(0, "O"), (100, "k"), (200, "."), (1000, " "), (1100, "s ")]), [602, 3102])
    }

    func testFixedDelayReArmedByEveryEdit() throws {
        XCTAssertEqual(try Self.requestTimes(.fixed(delay: .milliseconds(500)), burst), [802, 2002])
    }

    func testTrailingEdgeOnly() throws {
        let policy = DebouncePolicy.edges(wait: .milliseconds(500), leading: false, trailing: true, maxWait: nil)
        XCTAssertEqual(try Self.requestTimes(policy, burst), [802, 2002])
    }

    func testLeadingAndTrailingEdges() throws {
        // "a" lands at 2 ms and sends at once; b, c, d re-arm; the trailing edge sends at 802.
        // "e" at 1502 starts a new burst: sent at once, nothing after it to trail.
        let policy = DebouncePolicy.edges(wait: .milliseconds(500), leading: true, trailing: true, maxWait: nil)
        XCTAssertEqual(try Self.requestTimes(policy, burst), [2, 802, 1502])
    }

    func testLeadingEdgeOnly() throws {
        let policy = DebouncePolicy.edges(wait: .milliseconds(500), leading: true, trailing: false, maxWait: nil)
        XCTAssertEqual(try Self.requestTimes(policy, burst), [2, 1502])
    }

    func testMaxWaitBoundsAContinuousBurst() throws {
        // Keys every 100 ms for a second: without maxWait nothing would be sent until the end.
        // The burst starting at 2 ms sends at 302 ms; the key landing at that same instant was
        // scheduled after the timer's last re-arm, so it lands after the send and starts the
        // next burst (sent at 602 ms), and so on.
        let keys = (0..<11).map { (Double($0) * 100, "x ") }
        let policy = DebouncePolicy.edges(wait: .milliseconds(500), leading: false, trailing: true, maxWait: .milliseconds(300))
        XCTAssertEqual(try Self.requestTimes(policy, keys), [302, 602, 902, 1202])
    }

    /// The adaptive policy waits in proportion to the typist's own pauses (more cases in
    /// AdaptiveDebounceTests): with the median × 2 and four pauses to warm up, a typist keying
    /// every 100 ms is asked about 200 ms after the last key (402 + 200), one keying every
    /// 300 ms 600 ms after it (1202 + 600), and a sentence end goes at once.
    func testAdaptiveWaitsInProportionToTheTypistsOwnPauses() throws {
        let policy = DebouncePolicy.adaptive(AdaptiveDebounce(quantile: 0.5, scale: 2, minimum: .milliseconds(50),
                                                              maximum: .milliseconds(2000), window: 8, warmup: 4, sentenceEnd: .zero))
        let fast = (0..<5).map { (Double($0) * 100, "x ") }
        let slow = (0..<5).map { (Double($0) * 300, "x ") }
        XCTAssertEqual(try Self.requestTimes(policy, fast), [602])
        XCTAssertEqual(try Self.requestTimes(policy, slow), [1802])
        XCTAssertEqual(try Self.requestTimes(policy, Array(slow.prefix(4)) + [(1200, ".")]), [1202])
        // Not yet warm (three pauses known): the maximum, 2 s after the last key.
        XCTAssertEqual(try Self.requestTimes(policy, Array(slow.prefix(4))), [2902])
    }

    func testThrottleSendsAtMostOncePerInterval() throws {
        let keys = (0..<8).map { (Double($0) * 100, "x ") }
        XCTAssertEqual(try Self.requestTimes(.throttle(interval: .milliseconds(300)), keys), [2, 302, 602, 902])
    }

    func testBoundaryTriggers() throws {
        let typed: [(Double, String)] = [(0, "h"), (100, "i"), (200, " "), (300, "y"), (400, "o"), (500, "."), (600, " ")]
        XCTAssertEqual(try Self.requestTimes(.boundary(sentencesOnly: false, delay: .zero), typed), [202, 502])
        XCTAssertEqual(try Self.requestTimes(.boundary(sentencesOnly: true, delay: .milliseconds(50)), typed), [552])
    }

    /// A key touched at the very instant the timer fires: the touch was scheduled first and
    /// fires first, but its text lands 2 ms later, so the request does not carry it.
    func testTimerAndKeyAtTheSameInstant() throws {
        var source = ArrayTraceSource([(0.0, "a "), (502.0, "b ")].map {
            TraceEvent(time: SimTime(milliseconds: $0.0), kind: .key(text: $0.1, touchUp: nil, point: nil))
        })
        var sink = ObservationBuffer()
        var simulation = KeyboardSimulation(config: Self.config(.fixed(delay: .milliseconds(500))), seed: 1, replication: 0)
        _ = try simulation.run(&source, into: &sink)
        XCTAssertEqual(sink.requests.map(\.sent.milliseconds), [502, 1004])
        XCTAssertEqual(sink.requests.map(\.textVersion), [1, 2])
    }
}
