import XCTest
import Sim
@testable import Scenarios

/// The scenario fields of the priced, finite cloud: `network.preset`, `network.radio`,
/// `network.connection`, `cloud.model`, `cloud.tokens`, `cloud.pricing`, `cloud.limits`,
/// `cloud.retry` — each read, overridden and refused as `docs/scenario-format.md` says.
final class CloudConfigTests: XCTestCase {
    private func load(_ fields: String, policy: String? = nil) throws -> KeyboardConfig {
        let fixture = try ScenarioFixture()
        let path = try fixture.write("s.json5", "{traces: ['trace.jsonl'], \(fields)}")
        return try ScenarioLoader.load(path: path, policy: policy).keyboard
    }

    func testANetworkPresetIsOverriddenFieldByField() throws {
        let lte = try load("network: {preset: 'lte', loss: 0.01, connection: {setup: 'quic', keepAliveMs: 30000}}").network
        var expected = NetworkPreset.lte.config
        expected.goodLoss = 0.01
        expected.connection = ConnectionConfig(setup: .quic, keepAlive: .seconds(30))
        XCTAssertEqual(lte, expected)
        let quiet = try load("network: {preset: '5g', radio: {promotion: 'none'}}").network
        XCTAssertNil(quiet.radio.promotion)
        XCTAssertEqual(quiet.goodRoundTrip, NetworkPreset.fiveG.config.goodRoundTrip)
        let radio = try load("network: {radio: {promotion: 100, idleAfterMs: 5000}}").network.radio
        XCTAssertEqual(radio, RadioConfig(promotion: .constant(100), idleAfter: .seconds(5)))
    }

    func testTheDefaultsTimeByTheSingleDistributionAndBillAtNanoClassPrices() throws {
        let cloud = try load("cloud: {}").cloud
        XCTAssertFalse(cloud.timesFromTokens)
        XCTAssertEqual(cloud.pricing, .preset(.nanoClass))
        XCTAssertNil(cloud.retry)
        XCTAssertEqual(cloud.limits, CloudLimits())
        XCTAssertEqual(try load("network: {}").network, NetworkConfig())
    }

    func testEveryCloudFieldIsRead() throws {
        let cloud = try load("""
            cloud: {
              model: {preset: 'mini-class', firstToken: 400, prefillMsPerToken: 0.05, decodeMsPerToken: 12.5,
                      promptCache: {ttlMs: 600000, minTokens: 2048}},
              tokens: {systemPromptTokens: 1200, outputBaseTokens: 6, outputTokensPerFlaggedWord: 9,
                       charactersPerToken: {en: 4, de: 3.5, default: 3}},
              pricing: {preset: 'haiku-class', outputPerMillion: 4.5, wordsPerUserDay: 300},
              limits: {perUser: {requestsPerMinute: 20, tokensPerMinute: 40000},
                       provider: {requestsPerMinute: 5000, requestBurst: 100, overload: {share: 0.01, status: 503, periods: [[0, 1000]]}}},
              retry: {maxAttempts: 5, baseMs: 250, capMs: 4000, jitter: 'none', honourRetryAfter: false, dropSuperseded: false},
            }
            """).cloud
        XCTAssertTrue(cloud.timesFromTokens)
        XCTAssertEqual(cloud.model.preset, .miniClass)
        XCTAssertEqual(cloud.model.firstToken, .constant(400))
        XCTAssertEqual(cloud.model.prefillNanosPerToken, 50_000)
        XCTAssertEqual(cloud.model.decodeNanosPerToken, 12_500_000)
        XCTAssertEqual(cloud.model.promptCache, PromptCacheConfig(ttl: .seconds(600), minTokens: 2_048))
        XCTAssertEqual(cloud.tokens.systemPromptTokens, 1_200)
        XCTAssertEqual(cloud.tokens.outputTokens(flaggedWords: 2), 24)
        XCTAssertEqual(cloud.tokens.counter(language: "de-AT").charactersPerTokenHundredths, 350)
        XCTAssertEqual(cloud.tokens.counter(language: "fr").charactersPerTokenHundredths, 300)
        XCTAssertEqual(cloud.pricing.inputPicoUSD, 1_000_000)
        XCTAssertEqual(cloud.pricing.outputPicoUSD, 4_500_000)
        XCTAssertEqual(cloud.pricing.wordsPerUserDay, 300)
        XCTAssertEqual(cloud.limits.perUser, RateLimit(requestsPerMinute: 20, tokensPerMinute: 40_000))
        XCTAssertEqual(cloud.limits.perUser?.effectiveRequestBurst, 1)
        XCTAssertEqual(cloud.limits.perUser?.effectiveTokenBurst, 40_000)
        XCTAssertEqual(cloud.limits.provider, RateLimit(requestsPerMinute: 5_000, requestBurst: 100))
        XCTAssertEqual(cloud.limits.overload.status, 503)
        XCTAssertEqual(cloud.limits.overload.periods, [SimTime.zero..<SimTime(milliseconds: 1_000)])
        XCTAssertEqual(cloud.retry, RetryPolicy(maxAttempts: 5, base: .milliseconds(250), cap: .milliseconds(4_000), jitter: .none,
                                                honourRetryAfter: false, dropSuperseded: false))
    }

    func testAPolicyReplacesTheServiceDistributionWithAModelByNullingIt() throws {
        let fields = "cloud: {service: 300}, policies: {tokens: {cloud: {service: null, model: {preset: 'haiku-class'}}}}"
        XCTAssertFalse(try load(fields).cloud.timesFromTokens)
        let cloud = try load(fields, policy: "tokens").cloud
        XCTAssertTrue(cloud.timesFromTokens)
        XCTAssertEqual(cloud.model, .preset(.haikuClass))
    }

    func testBadCloudFieldsAreRefusedWithTheirPlace() throws {
        let fixture = try ScenarioFixture()
        let cases: [(String, String)] = [
            ("network: {preset: 'lte4'}", "network.preset: unknown value 'lte4'; expected one of: wifi, lte, 5g, poor; did you mean 'lte'?"),
            ("network: {connection: {setup: 'tls'}}", "network.connection.setup: unknown value 'tls'; expected one of: none, tcp-tls13, quic"),
            ("network: {radio: {promotion: 'never'}}", "network.radio.promotion: unknown value 'never'; expected one of: none"),
            ("network: {connection: {keepAliveMs: -1}}", "network.connection.keepAliveMs: must not be negative (got -1)"),
            ("cloud: {service: 300, model: {}}", "cloud.model: the service time comes from `service` or from `model`, not both"),
            ("cloud: {model: {preset: 'nano'}}", "cloud.model.preset: unknown value 'nano'"),
            ("cloud: {model: {decodeMsPerToken: 20000}}", "cloud.model.decodeMsPerToken: must be at most 10000 ms per token (got 20000.0)"),
            ("cloud: {model: {prefilMsPerToken: 1}}", "cloud.model.prefilMsPerToken: unknown field 'prefilMsPerToken'; did you mean 'prefillMsPerToken'?"),
            ("cloud: {model: {promptCache: {ttlMs: 1e20}}}", "cloud.model.promptCache.ttlMs: 1e+20 ms is out of range (at most 9007199254.740992 ms, about 104 days)"),
            ("cloud: {tokens: {systemPromptTokens: -3}}", "cloud.tokens.systemPromptTokens: must be between 0 and 1000000 (got -3)"),
            ("cloud: {tokens: {charactersPerToken: {en: 0}}}", "cloud.tokens.charactersPerToken.en: must be between 0.1 and 100 (got 0)"),
            ("cloud: {tokens: {charactersPerToken: 'four'}}", "cloud.tokens.charactersPerToken: expected a number or an object of languages"),
            ("cloud: {pricing: {inputPerMillion: -1}}", "cloud.pricing.inputPerMillion: must be between 0 and 1000000 (got -1)"),
            ("cloud: {limits: {perUser: {requestsPerMinute: 0}}}", "cloud.limits.perUser.requestsPerMinute: must be between 1 and 100000000 (got 0)"),
            ("cloud: {limits: {perUser: {requestBurst: 3}}}", "cloud.limits.perUser.requestBurst: needs requestsPerMinute"),
            ("cloud: {limits: {provider: {overload: {status: 502}}}}", "cloud.limits.provider.overload.status: must be 503 or 529 (got 502)"),
            ("cloud: {limits: {provider: {overload: {periods: [[5, 1]]}}}}", "cloud.limits.provider.overload.periods[0]: expected [startMs, endMs] with start < end"),
            ("cloud: {limits: {perMinute: 3}}", "cloud.limits.perMinute: unknown field 'perMinute'"),
            ("cloud: {retry: {jitter: 'half'}}", "cloud.retry.jitter: unknown value 'half'; expected one of: none, full"),
            ("cloud: {retry: {maxAttempts: 0}}", "cloud.retry.maxAttempts: must be between 1 and 20 (got 0)"),
            ("cloud: {retry: {capMs: 1e20}}", "cloud.retry.capMs: 1e+20 ms is out of range"),
        ]
        for (fields, expected) in cases {
            guard let error = try fixture.loadError("{traces: ['trace.jsonl'], \(fields)}") else { XCTFail("accepted: \(fields)"); continue }
            XCTAssertTrue(error.description.contains(expected), "\(fields)\n got: \(error)\n want: \(expected)")
        }
    }
}
