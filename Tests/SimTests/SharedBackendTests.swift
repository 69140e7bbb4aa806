import XCTest
@testable import Sim

/// The shared backend alone: continuous batching's arithmetic on a hand-made case, admission
/// control, the queue limit, abandonment, and the meter's integrals.
final class SharedBackendTests: XCTestCase {
    static func request(_ attempt: Int, user: Int = 0, input: Int, output: Int, cacheable: Int = 0) -> BackendRequest {
        BackendRequest(id: BackendAttemptID(user: user, session: 0, attempt: attempt), request: attempt, inputTokens: input,
                       cacheableTokens: cacheable, outputTokens: output)
    }

    /// Runs `backend` until idle; every reply with the time it was sent.
    static func drain(_ backend: inout SharedBackend) -> [(time: SimTime, reply: BackendReply)] {
        var replies: [(time: SimTime, reply: BackendReply)] = []
        while let wake = backend.nextWake {
            for reply in backend.wake(at: wake) { replies.append((wake, reply)) }
            backend.checkInvariants()
        }
        XCTAssertTrue(backend.isIdle)
        return replies
    }

    static func served(_ replies: [(time: SimTime, reply: BackendReply)]) -> [Int: BackendService] {
        var services: [Int: BackendService] = [:]
        for (_, reply) in replies {
            if case .finished(.served(let service)) = reply.message { services[reply.id.attempt] = service }
        }
        return services
    }

    func testContinuousBatchingJoinsAtBoundariesAndGivesOneTokenAnIteration() {
        // One replica, batches of 2; an iteration is 10 ms + 1 ms a request + 0.1 ms a prefilled token.
        let config = SharedBackendConfig(replicas: 1, maxBatch: 2,
                                         iteration: .init(baseNanos: 10_000_000, perRequestNanos: 1_000_000, perPrefillTokenNanos: 100_000),
                                         queueLimit: 10)
        var backend = SharedBackend(config: config)
        _ = backend.submit(Self.request(0, input: 100, output: 3), arrivingAt: .zero)
        _ = backend.submit(Self.request(1, input: 50, output: 2), arrivingAt: SimTime(milliseconds: 5))
        _ = backend.submit(Self.request(2, input: 20, output: 1), arrivingAt: SimTime(milliseconds: 6))
        let replies = Self.drain(&backend)
        // 0 starts alone at 0: 10 + 1 + 10 = 21 ms to its first token, then 11 ms iterations.
        // 1 joins at the boundary of 21 ms: 10 + 2 + 5 = 17 ms (first token at 38), then 12 ms:
        //   0 and 1 both end at 50. 2 (batch full until then) joins at 50: 10 + 1 + 2 = 13 ms.
        let services = Self.served(replies)
        XCTAssertEqual(services[0].map { [$0.queueWait, $0.firstToken, $0.service] }, [.zero, .milliseconds(21), .milliseconds(50)])
        XCTAssertEqual(services[1].map { [$0.queueWait, $0.firstToken, $0.service] },
                       [.milliseconds(16), .milliseconds(33), .milliseconds(45)])
        XCTAssertEqual(services[2].map { [$0.queueWait, $0.firstToken, $0.service] },
                       [.milliseconds(44), .milliseconds(57), .milliseconds(57)])
        let started = replies.filter { if case .started = $0.reply.message { true } else { false } }
        XCTAssertEqual(started.map { $0.time.milliseconds }, [0, 21, 50], "service (and billing) begins on joining a batch")
        let meter = backend.meter(at: SimTime(milliseconds: 63))
        XCTAssertEqual(meter.queueWaitNanos, 60_000_000)
        XCTAssertEqual(meter.queueLengthNanos, meter.queueWaitNanos, "∫ queue length dt is the sum of the waits")
        XCTAssertEqual(meter.busyReplicaNanos, 63_000_000)
        XCTAssertEqual(meter.batchedRequestNanos, 21_000_000 + 2 * 29_000_000 + 13_000_000)
        XCTAssertEqual(meter.outputTokens, 6)
    }

    func testThePresetsMatchTheirSources() {
        // Self-hosted: 75 tokens/s alone (13.3 ms), 6.6× the throughput at a batch of 8.
        let small = SharedBackendConfig.preset(.selfHostedSmall)
        XCTAssertEqual(small.iteration.nanos(batch: 1, prefillTokens: 0), 13_300_000)
        let gain = 8 * Double(small.iteration.nanos(batch: 1, prefillTokens: 0)) / Double(small.iteration.nanos(batch: 8, prefillTokens: 0))
        XCTAssertEqual(gain, 6.6, accuracy: 0.05)
        XCTAssertEqual(small.admission?.firstTokenTarget, .milliseconds(450))
        XCTAssertEqual(SharedBackendConfig().iteration, small.iteration, "the defaults are the self-hosted preset's")
        // Hosted: a full batch decodes at the nano class's speed; prefill a hundredth of it.
        let hosted = SharedBackendConfig.preset(.hostedAPI)
        let nano = CloudModel.preset(.nanoClass)
        let full = hosted.iteration.nanos(batch: hosted.maxBatch, prefillTokens: 0)
        XCTAssertEqual(full, nano.decodeNanosPerToken)
        XCTAssertEqual(hosted.iteration.perPrefillTokenNanos, nano.prefillNanosPerToken)
        XCTAssertEqual(hosted.pricing, .preset(.nanoClass))
    }

    /// One replica serving one request at a time, 10 ms an iteration, admission at 35 ms.
    static let admissionConfig = SharedBackendConfig(replicas: 1, maxBatch: 1,
                                                     iteration: .init(baseNanos: 10_000_000, perRequestNanos: 0, perPrefillTokenNanos: 0),
                                                     queueLimit: 10, admission: .init(firstTokenTarget: .milliseconds(35)))

    func testAdmissionRefusesExactlyWhenThePredictedFirstTokenBreaksTheTarget() {
        for (arrivalNanos, admitted) in [(5_000_000, true), (4_999_999, false), (5_000_001, true)] {
            var backend = SharedBackend(config: Self.admissionConfig)
            _ = backend.submit(Self.request(0, input: 10, output: 3), arrivingAt: .zero)     // served 0–30 ms
            let arrival = SimTime(nanoseconds: Int64(arrivalNanos))
            _ = backend.submit(Self.request(1, input: 10, output: 2), arrivingAt: arrival)
            _ = backend.wake(at: .zero)
            // Predicted: the slot frees at 30 ms, then one 10 ms iteration to the first token.
            XCTAssertEqual(backend.predictedFirstToken(Self.request(1, input: 10, output: 2), at: arrival),
                           SimTime(milliseconds: 40) - arrival)
            let replies = Self.drain(&backend)
            let rejection = replies.compactMap { r -> BackendRejection? in
                if case .finished(.rejected(let x)) = r.reply.message { x } else { nil }
            }.first
            XCTAssertEqual(rejection == nil, admitted, "arrival \(arrivalNanos) ns")
            if admitted {
                XCTAssertEqual(Self.served(replies)[1]?.firstToken, SimTime(milliseconds: 40) - arrival, "the prediction was right")
            } else {
                XCTAssertEqual(rejection, BackendRejection(reason: .admission, status: 503, retryAfter: nil))
                XCTAssertEqual(backend.meter(at: backend.clock).rejected(.admission), 1)
            }
        }
    }

    func testAQueuedRequestBehindOthersIsPredictedARoundLater() {
        var backend = SharedBackend(config: Self.admissionConfig)
        _ = backend.submit(Self.request(0, input: 10, output: 3), arrivingAt: .zero)
        _ = backend.submit(Self.request(1, input: 10, output: 1), arrivingAt: SimTime(milliseconds: 10))
        _ = backend.wake(at: .zero)
        _ = backend.wake(at: SimTime(milliseconds: 10))
        // One ahead in the queue, one slot: the slot at 30 ms, a round of 10 ms, then 10 ms.
        XCTAssertEqual(backend.predictedFirstToken(Self.request(2, input: 10, output: 1), at: SimTime(milliseconds: 12)),
                       .milliseconds(38))
    }

    func testAFullQueueRefusesAndAnAbandonedRequestLeavesItUnbilled() {
        var config = Self.admissionConfig
        config.admission = nil
        config.queueLimit = 1
        var backend = SharedBackend(config: config)
        for attempt in 0..<3 { _ = backend.submit(Self.request(attempt, input: 10, output: 2), arrivingAt: .zero) }
        _ = backend.submit(Self.request(3, input: 10, output: 2), arrivingAt: SimTime(milliseconds: 5))
        var replies = backend.wake(at: .zero).map { (SimTime.zero, $0) }
        // 0 starts, 1 waits, 2 finds the queue full.
        XCTAssertEqual(replies.compactMap { r -> RejectionReason? in
            if case .finished(.rejected(let x)) = r.1.message { x.reason } else { nil }
        }, [.queueFull])
        backend.abandon(BackendAttemptID(user: 0, session: 0, attempt: 1), at: SimTime(milliseconds: 2))
        backend.abandon(BackendAttemptID(user: 0, session: 0, attempt: 3), at: SimTime(milliseconds: 3))
        replies += Self.drain(&backend)
        XCTAssertEqual(Set(Self.served(replies).keys), [0], "the abandoned ones were never served")
        let meter = backend.meter(at: backend.clock)
        XCTAssertEqual([meter.arrivals, meter.admitted, meter.abandoned, meter.started, meter.served], [3, 2, 1, 1, 1])
        XCTAssertEqual(meter.queueLengthNanos, 2_000_000, "1 waited 2 ms before it was abandoned")
    }

    func testPerUserLimitsAreEachUsersOwnAndTheSharedPromptIsCached() {
        var config = Self.admissionConfig
        config.admission = nil
        var limits = CloudLimits()
        limits.perUser = RateLimit(requestsPerMinute: 60)   // a bucket of 1, one a second
        config.limits = limits
        config.promptCache = PromptCacheConfig(ttl: .seconds(300), minTokens: 5)
        var backend = SharedBackend(config: config)
        for (attempt, user) in [(0, 0), (1, 1), (2, 0)] {
            _ = backend.submit(Self.request(attempt, user: user, input: 10, output: 1, cacheable: 6), arrivingAt: .zero)
        }
        let replies = Self.drain(&backend)
        let refused = replies.compactMap { r -> BackendRejection? in
            if case .finished(.rejected(let x)) = r.reply.message { x } else { nil }
        }
        XCTAssertEqual(refused, [BackendRejection(reason: .userRequests, status: 429, retryAfter: .seconds(1))])
        let services = Self.served(replies)
        XCTAssertEqual(services[0]?.bill.cachedTokens, 0, "the first use writes the cache")
        XCTAssertEqual(services[1]?.bill.cachedTokens, 6, "another user's request reads it")
        XCTAssertEqual(services[1]?.service, .milliseconds(20), "one replica, 10 ms a request")
    }
}
