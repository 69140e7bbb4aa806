import XCTest
@testable import Sim

/// The token service model, the prompt cache and the prices, exactly: with every random
/// part constant, a request's service time is first token + prefill × uncached input +
/// decode × output, and its cost the tokens times the prices, to the nanosecond and the
/// picodollar.
final class CloudServiceModelTests: XCTestCase {
    /// A 200 ms first token, 0.1 ms of prefill and 10 ms of decode per token, a cache of
    /// prompts of at least 1,024 tokens living 5 minutes.
    private static let model = CloudModel(firstToken: .constant(200), prefillNanosPerToken: 100_000,
                                          decodeNanosPerToken: 10_000_000,
                                          promptCache: PromptCacheConfig(ttl: .seconds(300), minTokens: 1_024))

    private func config(systemPromptTokens: Int, pricing: ModelClass = .haikuClass) -> KeyboardConfig {
        var config = KeyboardConfig.exact
        config.cloud.timesFromTokens = true
        config.cloud.model = Self.model
        config.cloud.tokens.systemPromptTokens = systemPromptTokens
        config.cloud.pricing = .preset(pricing)
        return config
    }

    private func expectedService(_ r: RequestObservation) -> SimDuration {
        SimDuration(nanoseconds: 200_000_000 + 100_000 * Int64(r.inputTokens - r.cachedTokens) + 10_000_000 * Int64(r.outputTokens))
    }

    func testServiceTimeAndCostFollowTheTokensExactly() throws {
        // "teh" and "wrold" are errors the cloud flags (recall 1); the rest are right.
        var h = KeyboardHarness(config(systemPromptTokens: 300), intendedText: "the cat sat on the world today")
        try h.type("teh cat ", fromMs: 0)          // lands 702: sent at 1102, 8 characters
        try h.type("sat on the wrold today ", fromMs: 3_000)   // lands 5202: sent at 5602, 23 characters
        _ = h.finish()
        let requests = h.sink.requests
        XCTAssertEqual(requests.count, 2)
        let prices = PriceTable.preset(.haikuClass)
        for (r, (characters, flagged)) in zip(requests, [(8, 1), (23, 1)]) {
            XCTAssertEqual(r.inputTokens, 300 + (characters + 3) / 4)
            XCTAssertEqual(r.cachedTokens, 0, "300 tokens are below the cache's minimum")
            XCTAssertEqual(r.outputTokens, 10 + 8 * flagged)
            XCTAssertEqual(r.service, expectedService(r))
            XCTAssertEqual(r.costPicoUSD, Int64(r.inputTokens) * prices.inputPicoUSD + Int64(r.outputTokens) * prices.outputPicoUSD)
            XCTAssertEqual(r.end - r.sent, .milliseconds(50) + r.service)
        }
        // $1 and $5 per million tokens: 1,000,000 and 5,000,000 picodollars a token.
        XCTAssertEqual(requests[0].costPicoUSD, 302 * 1_000_000 + 18 * 5_000_000)
    }

    func testACachedSystemPromptIsWrittenOnceThenReadWithinItsTimeToLive() throws {
        var h = KeyboardHarness(config(systemPromptTokens: 1_200))
        try h.type("ab ", fromMs: 0)               // sent at 602: the prompt is written to the cache
        try h.type("cd ", fromMs: 60_000)          // sent at 60602: read from it
        try h.type("ef ", fromMs: 400_000)         // sent at 400602: 340 s after its last use, written again
        _ = h.finish()
        let prices = PriceTable.preset(.haikuClass)
        let requests = h.sink.requests
        XCTAssertEqual(requests.map(\.cachedTokens), [0, 1_200, 0])
        XCTAssertEqual(requests.map(\.inputTokens), [1_201, 1_201, 1_201])
        for r in requests { XCTAssertEqual(r.service, expectedService(r)) }
        let written = 1_200 * prices.cacheWritePicoUSD + 1 * prices.inputPicoUSD + 10 * prices.outputPicoUSD
        let read = 1_200 * prices.cachedInputPicoUSD + 1 * prices.inputPicoUSD + 10 * prices.outputPicoUSD
        XCTAssertEqual(requests.map(\.costPicoUSD), [written, read, written])
    }

    /// The private backend alone, over random requests: the same identities for any counts.
    func testThePrivateBackendTimesAndBillsAnyRequestExactly() {
        for seed: UInt64 in 1...20 {
            var cloud = CloudConfig()
            cloud.timesFromTokens = true
            cloud.model = Self.model
            cloud.pricing = .preset(ModelClass.allCases[Int(seed) % 3])
            var backend = PrivateBackend(config: cloud) { RandomStream(seed: seed, replication: 0, name: $0) }
            var draws = RandomStream(seed: seed, replication: 0, name: "test.requests")
            var now = SimTime.zero
            for attempt in 0..<50 {
                now = now + SimDuration(nanoseconds: Int64(draws.nextInt(below: 600_000_000_000)))
                let cacheable = draws.nextInt(below: 3_000)
                let request = BackendRequest(id: BackendAttemptID(user: 0, session: 0, attempt: attempt), request: attempt,
                                             inputTokens: cacheable + draws.nextInt(below: 500), cacheableTokens: cacheable,
                                             outputTokens: draws.nextInt(below: 200))
                guard case .decided(.served(let s), let repliesAt) = backend.submit(request, arrivingAt: now) else {
                    return XCTFail("seed \(seed): every request is served without limits")
                }
                let uncached = request.inputTokens - s.bill.cachedTokens
                XCTAssertEqual(s.service.nanoseconds, 200_000_000 + 100_000 * Int64(uncached) + 10_000_000 * Int64(request.outputTokens),
                               "seed \(seed)")
                XCTAssertEqual(repliesAt, now + s.service, "seed \(seed)")
                XCTAssertEqual(s.firstToken.nanoseconds, 200_000_000 + 100_000 * Int64(uncached), "seed \(seed)")
                let written = s.bill.cachedTokens == 0 && cacheable >= 1_024 ? cacheable : 0
                let expected = Int64(uncached - written) * cloud.pricing.inputPicoUSD + Int64(written) * cloud.pricing.cacheWritePicoUSD
                    + Int64(s.bill.cachedTokens) * cloud.pricing.cachedInputPicoUSD + Int64(request.outputTokens) * cloud.pricing.outputPicoUSD
                XCTAssertEqual(s.bill.costPicoUSD, expected, "seed \(seed)")
            }
        }
    }

    func testPresetsFollowTheirSources() {
        let nano = CloudModel.preset(.nanoClass)
        XCTAssertEqual(nano.decodeNanosPerToken, 5_524_862)      // 181 tokens a second
        XCTAssertEqual(nano.prefillNanosPerToken, 55_248)        // a hundredth of decode (LLMPerf)
        XCTAssertEqual(nano.firstToken.quantile(0.5)!, 630 - 55.248, accuracy: 1e-9)
        XCTAssertEqual(nano.firstToken.quantile(0.95)! / nano.firstToken.quantile(0.5)!, 3, accuracy: 0.01)
        XCTAssertEqual(CloudModel.preset(.haikuClass).promptCache.minTokens, 4_096)
        let haiku = PriceTable.preset(.haikuClass)
        XCTAssertEqual([haiku.inputPicoUSD, haiku.cachedInputPicoUSD, haiku.cacheWritePicoUSD, haiku.outputPicoUSD],
                       [1_000_000, 100_000, 1_250_000, 5_000_000])
        XCTAssertEqual(PriceTable.preset(.nanoClass).cachedInputPicoUSD, 25_000)
    }

    /// Without `cloud.model` the single distribution times every request as before, and
    /// the tokens and the cost are computed all the same.
    func testTheSingleDistributionStillTimesRequestsAndTheyAreBilled() throws {
        var h = KeyboardHarness(.exact)
        try h.type("ab ", fromMs: 0)
        _ = h.finish()
        let r = try XCTUnwrap(h.sink.requests.first)
        XCTAssertEqual(r.service, .milliseconds(300))
        XCTAssertEqual(r.inputTokens, 301)
        XCTAssertEqual(r.outputTokens, 10)
        XCTAssertEqual(r.costPicoUSD, 301 * 100_000 + 10 * 400_000)
    }
}
