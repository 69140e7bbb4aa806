import XCTest
@testable import Sim

/// The backend pushing back and the client's retry policy, on hand-made traces through
/// `KeyboardHarness` (`KeyboardConfig.exact`: keys land 2 ms after their touch, a 50 ms
/// round trip split 25 + 25, a 300 ms service).
final class CloudLimitsTests: XCTestCase {
    /// The private backend, with a log of what it decided and when.
    struct RecordingBackend: CloudBackend {
        var inner: PrivateBackend
        var log: [(at: SimTime, request: Int, outcome: BackendOutcome)] = []

        mutating func submit(_ request: BackendRequest, arrivingAt arrival: SimTime) -> BackendReceipt {
            let receipt = inner.submit(request, arrivingAt: arrival)
            guard case .decided(let outcome, let repliesAt) = receipt else { preconditionFailure("the private backend decides") }
            var at = repliesAt
            if case .served(let service) = outcome { at = repliesAt - service.service }
            log.append((at, request.request, outcome))
            return receipt
        }
    }

    private func harness(_ config: KeyboardConfig, seed: UInt64 = 1) -> KeyboardHarness {
        KeyboardHarness(config, seed: seed,
                        backend: RecordingBackend(inner: PrivateBackend(config: config.cloud) {
                            RandomStream(seed: seed, replication: 0, name: "trace0/" + $0)
                        }))
    }

    private func log(_ h: KeyboardHarness) -> [(at: SimTime, request: Int, outcome: BackendOutcome)] {
        (h.simulation.io.backend as! RecordingBackend).log
    }

    private func isServed(_ outcome: BackendOutcome) -> Bool { if case .served = outcome { true } else { false } }

    // MARK: - Per-user limits

    func testAPerUserLimitIsNeverExceededInAnySixtySecondWindowWhateverThePolicy() throws {
        let policies: [DebouncePolicy] = [
            .seedDefault, .fixed(delay: .milliseconds(150)), .throttle(interval: .milliseconds(300)),
            .boundary(sentencesOnly: false, delay: .zero),
            .edges(wait: .milliseconds(200), leading: true, trailing: true, maxWait: .milliseconds(600)),
        ]
        let text = "the quick brown fox jumps over the lazy dog. it was not amused! who would be? "
        for seed: UInt64 in 1...4 {
            for (index, policy) in policies.enumerated() {
                for perMinute in [2, 5, 12] {
                    var config = KeyboardConfig()
                    config.debounce = policy
                    config.cloud.limits.perUser = RateLimit(requestsPerMinute: perMinute)
                    config.cloud.retry = .standard
                    var h = harness(config, seed: seed)
                    for round in 0..<4 { try h.type(text, everyMs: 90, fromMs: Double(round) * 20_000) }
                    _ = h.finish()
                    let admitted = log(h).filter { isServed($0.outcome) }.map(\.at).sorted()
                    XCTAssertFalse(admitted.isEmpty)
                    if perMinute == 2 {
                        XCTAssertTrue(log(h).contains { !isServed($0.outcome) }, "seed \(seed), policy \(index): the limit bites")
                    }
                    for (i, start) in admitted.enumerated() {
                        let inWindow = admitted[i...].prefix { $0 < start + .seconds(60) }.count
                        XCTAssertLessThanOrEqual(inWindow, perMinute, "seed \(seed), policy \(index), \(perMinute)/min at \(start)")
                    }
                }
            }
        }
    }

    func testARetryAfterIsHonoured() throws {
        var config = KeyboardConfig.exact
        config.debounce = .boundary(sentencesOnly: false, delay: .zero)
        config.cloud.limits.perUser = RateLimit(requestsPerMinute: 4)   // one every 15 s
        config.cloud.retry = .standard
        var h = harness(config)
        try h.type("ab cd ef ", everyMs: 300, fromMs: 0)
        _ = h.finish()
        let entries = log(h)
        var checked = 0
        for (index, entry) in entries.enumerated() {
            guard case .rejected(let rejection) = entry.outcome, let retryAfter = rejection.retryAfter,
                  let next = entries[(index + 1)...].first(where: { $0.request == entry.request }) else { continue }
            XCTAssertEqual(rejection.reason, .userRequests)
            XCTAssertEqual(rejection.status, 429)
            // The refusal returns in 25 ms, the retry leaves `Retry-After` later and arrives 25 ms after.
            XCTAssertEqual(next.at - entry.at, retryAfter + .milliseconds(50))
            XCTAssertEqual(retryAfter.nanoseconds % 1_000_000_000, 0, "Retry-After is whole seconds")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 2)
        let requests = h.sink.requests
        XCTAssertTrue(requests.allSatisfy { $0.outcome == .answered })
        XCTAssertTrue(requests.contains { $0.rejection == .userRequests && $0.limitWait > .seconds(1) })
    }

    // MARK: - Superseded retries, rejected text

    /// The provider answers every request "overloaded" (no `Retry-After`) until 2 s; the
    /// retry policy waits 1 s, without jitter.
    private func overloadedConfig(until ms: Double, dropSuperseded: Bool = true, maxAttempts: Int = 4) -> KeyboardConfig {
        var config = KeyboardConfig.exact
        config.cloud.limits.overload.periods = [SimTime.zero..<SimTime(milliseconds: ms)]
        config.cloud.retry = RetryPolicy(maxAttempts: maxAttempts, base: .milliseconds(1_000), cap: .milliseconds(8_000),
                                         jitter: .none, honourRetryAfter: true, dropSuperseded: dropSuperseded)
        return config
    }

    /// "ab " is sent at 602 and refused at 627 (back at 652, retry due at 1652); the user
    /// shortens it to "a " at 1102, and at 1502 a request carries the text from "a" on.
    private func shortenAfterARefusal(_ h: inout KeyboardHarness) throws {
        try h.type("ab ", fromMs: 0)
        try h.feed(.cursorMove(offset: -1), atMs: 1_000)
        try h.feed(.backspace(touchUp: nil, point: nil), atMs: 1_100)
        try h.feed(.cursorMove(offset: 1), atMs: 1_200)
        _ = h.finish()
    }

    func testASupersededRetryIsDropped() throws {
        var h = harness(overloadedConfig(until: 2_000))
        try shortenAfterARefusal(&h)
        XCTAssertEqual(h.sent.map { "\(Int($0.ms)) \($0.text)" }, ["602 ab ", "1502 a "])
        let requests = h.sink.requests.sorted { $0.id < $1.id }
        XCTAssertEqual(requests.map(\.outcome), [.superseded, .answered])
        XCTAssertEqual(requests[0].attempts, 1, "the refused request is not tried again")
        XCTAssertEqual(requests[0].rejection, .overloaded)
        XCTAssertEqual(log(h).filter { $0.request == 0 }.count, 1)
        // The newer one is refused at 1527, tried again at 2552 and answered.
        XCTAssertEqual(requests[1].attempts, 2)
        XCTAssertEqual(requests[1].end.milliseconds, 2_552 + 50 + 300)
    }

    func testWithoutDroppingASupersededRequestIsTriedAgain() throws {
        var h = harness(overloadedConfig(until: 2_000, dropSuperseded: false))
        try shortenAfterARefusal(&h)
        let requests = h.sink.requests.sorted { $0.id < $1.id }
        XCTAssertEqual(requests.map(\.outcome), [.answered, .answered])
        // Refused at 627 and at 1677 (after 1 s), then 2 s later served.
        XCTAssertEqual(requests[0].attempts, 3)
        XCTAssertEqual(requests[0].end.milliseconds, 3_702 + 50 + 300)
    }

    func testTheTextOfARejectedRequestGoesWithTheNextOne() throws {
        var h = harness(overloadedConfig(until: 1_500, maxAttempts: 1))
        try h.type("ab ", fromMs: 0)               // sent at 602, refused, given up at 652
        try h.type("cd ", fromMs: 3_000)           // lands 3202: at 3602 the request carries "ab cd "
        _ = h.finish()
        XCTAssertEqual(h.sent.map { "\(Int($0.ms)) \($0.text)" }, ["602 ab ", "3602 ab cd "])
        let requests = h.sink.requests.sorted { $0.id < $1.id }
        XCTAssertEqual(requests.map(\.outcome), [.rejected, .answered])
        XCTAssertEqual(requests[0].rejection, .overloaded)
        XCTAssertEqual(requests[0].costPicoUSD, 0, "a refused request is not billed")
        XCTAssertEqual(requests[0].limitWait, .milliseconds(50), "from its attempt to the refusal's return")
        XCTAssertEqual(requests[1].words, 2)
    }

    /// Seeds and policies: whatever is refused, every word typed is in a request the cloud
    /// answered by the end.
    func testNothingTypedIsLostUnderRefusals() throws {
        for seed: UInt64 in 1...6 {
            var config = KeyboardConfig()
            config.debounce = seed % 2 == 0 ? .seedDefault : .boundary(sentencesOnly: false, delay: .zero)
            config.cloud.limits.perUser = RateLimit(requestsPerMinute: 3)
            config.cloud.limits.overload.share = 0.3
            config.cloud.retry = RetryPolicy(maxAttempts: 2, base: .milliseconds(500), cap: .seconds(4), jitter: .full,
                                             honourRetryAfter: true, dropSuperseded: true)
            config.network.goodLoss = 0
            var h = harness(config, seed: seed)
            try h.type("one two three four five six seven eight nine ten ", everyMs: 150, fromMs: 0)
            try h.type("x ", fromMs: 120_000)   // a last edit, long after, so that given-up text goes again
            try h.type("y ", fromMs: 240_000)
            _ = h.finish()
            let answeredWords = Set(h.sink.requests.filter { $0.outcome == .answered }.map(\.id)).flatMap { id in
                h.sent[id].text.split(separator: " ").map(String.init)
            }
            for word in "one two three four five six seven eight nine ten x".split(separator: " ") {
                XCTAssertTrue(answeredWords.contains(String(word)), "seed \(seed): '\(word)' was never answered")
            }
        }
    }
}
