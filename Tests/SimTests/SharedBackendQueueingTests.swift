import Foundation
import XCTest
@testable import Sim

/// The shared backend against queueing theory: degenerate users whose requests arrive as a
/// Poisson stream, batches of one request. Exponential service on c replicas gives M/M/c
/// (Erlang C); a constant service on one replica M/D/1 (Pollaczek–Khinchine). Each figure is
/// checked against the 95 % interval of its mean over replications (fixed seeds: the same
/// numbers on every run).
final class SharedBackendQueueingTests: XCTestCase {
    /// What one replication measured.
    struct Measured {
        var meanWaitSeconds: Double
        var waitedShare: Double
        /// Per minute: (mean queue length, admitted per second, mean wait of those started, s).
        var minutes: [(queue: Double, rate: Double, wait: Double)]
        var meter: SharedBackendMeter
    }

    /// `count` requests at exponential gaps of mean 1/`rate` s, each from its own degenerate
    /// user; output tokens from `outputTokens`. Waits of the first `warmUp` are not counted.
    static func replicate(config: SharedBackendConfig, ratePerSecond rate: Double, count: Int, warmUp: Int, seed: UInt64,
                          replication: Int, outputTokens: (inout RandomStream) -> Int) -> Measured {
        var gaps = RandomStream(seed: seed, replication: replication, name: "test.arrivals")
        var sizes = RandomStream(seed: seed, replication: replication, name: "test.sizes")
        var backend = SharedBackend(config: config)
        var time: Int64 = 0
        for index in 0..<count {
            time += Int64((-Foundation.log(gaps.nextOpenUnit()) / rate * 1e9).rounded())
            let request = BackendRequest(id: BackendAttemptID(user: index, session: 0, attempt: 0), request: 0, inputTokens: 0,
                                         cacheableTokens: 0, outputTokens: outputTokens(&sizes))
            _ = backend.submit(request, arrivingAt: SimTime(nanoseconds: time))
        }
        var waits: [Int: Int64] = [:]
        var minutes: [(queue: Double, rate: Double, wait: Double)] = []
        var minute = SharedBackendMeter()
        var nextMinute = SimTime(nanoseconds: 60_000_000_000)
        while let wake = backend.nextWake {
            while nextMinute <= wake {
                let reading = backend.meter(at: nextMinute)
                let started = reading.started - minute.started
                minutes.append((Double(reading.queueLengthNanos - minute.queueLengthNanos) / 60e9,
                                Double(reading.admitted - minute.admitted) / 60,
                                started == 0 ? 0 : Double(reading.queueWaitNanos - minute.queueWaitNanos) / Double(started) / 1e9))
                minute = reading
                nextMinute = nextMinute + .seconds(60)
            }
            for reply in backend.wake(at: wake) {
                if case .finished(.served(let service)) = reply.message { waits[reply.id.user] = service.queueWait.nanoseconds }
            }
        }
        XCTAssertEqual(waits.count, count, "every request served")
        let counted = (warmUp..<count).map { waits[$0]! }
        return Measured(meanWaitSeconds: Double(counted.reduce(0, +)) / Double(counted.count) / 1e9,
                        waitedShare: Double(counted.filter { $0 > 0 }.count) / Double(counted.count),
                        minutes: minutes, meter: backend.meter(at: backend.clock))
    }

    /// Mean and half-width of the 95 % interval of `values` (Student's t, 19 degrees of freedom).
    static func interval(_ values: [Double]) -> (mean: Double, halfWidth: Double) {
        precondition(values.count == 20, "t(0.975, 19) below")
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count - 1)
        return (mean, 2.093 * (variance / Double(values.count)).squareRoot())
    }

    /// Erlang C: the probability that an arrival waits, and the mean wait, in M/M/c.
    static func erlangC(servers c: Int, arrivalRate lambda: Double, serviceRate mu: Double) -> (waits: Double, meanWait: Double) {
        let load = lambda / mu
        var term = 1.0, sum = 0.0
        for k in 0..<c {
            if k > 0 { term *= load / Double(k) }
            sum += term
        }
        let top = term * load / Double(c) * Double(c) / (Double(c) - load)
        let waits = top / (sum + top)
        return (waits, waits / (Double(c) * mu - lambda))
    }

    func testExponentialServiceOnCReplicasGivesErlangC() {
        // Service = output tokens × 1 µs, tokens geometric with mean 100,000: exponential with
        // mean 100 ms to within a 10⁻⁵ share. Two replicas at 75 % load: 15 requests a second.
        let config = SharedBackendConfig(replicas: 2, maxBatch: 1, iteration: .init(baseNanos: 1_000, perRequestNanos: 0,
                                                                                     perPrefillTokenNanos: 0), queueLimit: 1 << 20)
        let p = 1e-5
        let expected = Self.erlangC(servers: 2, arrivalRate: 15, serviceRate: 10)
        var waits: [Double] = [], shares: [Double] = []
        for replication in 0..<20 {
            let measured = Self.replicate(config: config, ratePerSecond: 15, count: 4_000, warmUp: 300, seed: 27,
                                          replication: replication) { rng in
                1 + Int((Foundation.log(rng.nextOpenUnit()) / Foundation.log1p(-p)).rounded(.down))
            }
            waits.append(measured.meanWaitSeconds)
            shares.append(measured.waitedShare)
        }
        let wait = Self.interval(waits), share = Self.interval(shares)
        print("Erlang C (c = 2, ρ = 0.75): mean wait expected \(expected.meanWait) s, measured \(wait.mean) ± \(wait.halfWidth); "
              + "P(wait) expected \(expected.waits), measured \(share.mean) ± \(share.halfWidth)")
        XCTAssertEqual(wait.mean, expected.meanWait, accuracy: wait.halfWidth)
        XCTAssertEqual(share.mean, expected.waits, accuracy: share.halfWidth)
        XCTAssertLessThan(wait.halfWidth, 0.15 * expected.meanWait, "an interval narrow enough to mean something")
    }

    func testConstantServiceOnOneReplicaGivesPollaczekKhinchine() {
        // 100 ms a request (100 tokens of 1 ms), 6 requests a second: ρ = 0.6.
        let config = SharedBackendConfig(replicas: 1, maxBatch: 1, iteration: .init(baseNanos: 1_000_000, perRequestNanos: 0,
                                                                                     perPrefillTokenNanos: 0), queueLimit: 1 << 20)
        let rho = 0.6, service = 0.1
        let expected = rho * service / (2 * (1 - rho))
        var waits: [Double] = []
        for replication in 0..<20 {
            waits.append(Self.replicate(config: config, ratePerSecond: 6, count: 3_000, warmUp: 200, seed: 28,
                                        replication: replication) { _ in 100 }.meanWaitSeconds)
        }
        let wait = Self.interval(waits)
        print("M/D/1 (ρ = 0.6): mean wait expected \(expected) s, measured \(wait.mean) ± \(wait.halfWidth)")
        XCTAssertEqual(wait.mean, expected, accuracy: wait.halfWidth)
        XCTAssertLessThan(wait.halfWidth, 0.1 * expected, "an interval narrow enough to mean something")
    }

    func testLittlesLawHoldsOnTheMinuteSamples() {
        let config = SharedBackendConfig(replicas: 2, maxBatch: 1, iteration: .init(baseNanos: 1_000, perRequestNanos: 0,
                                                                                     perPrefillTokenNanos: 0), queueLimit: 1 << 20)
        let measured = Self.replicate(config: config, ratePerSecond: 15, count: 6_000, warmUp: 0, seed: 29, replication: 0) { rng in
            1 + Int((Foundation.log(rng.nextOpenUnit()) / Foundation.log1p(-1e-5)).rounded(.down))
        }
        // Exactly: the queue's integral is the sum of the waits.
        XCTAssertEqual(measured.meter.queueLengthNanos, measured.meter.queueWaitNanos)
        // Over the minutes: mean queue length = arrival rate × mean wait, within sampling error.
        let minutes = measured.minutes
        XCTAssertGreaterThan(minutes.count, 5)
        let meanQueue = minutes.map(\.queue).reduce(0, +) / Double(minutes.count)
        let meanRate = minutes.map(\.rate).reduce(0, +) / Double(minutes.count)
        let meanWait = minutes.map { $0.wait * $0.rate }.reduce(0, +) / minutes.map(\.rate).reduce(0, +)
        print("Little: L = \(meanQueue), λW = \(meanRate * meanWait) over \(minutes.count) minutes")
        XCTAssertEqual(meanQueue, meanRate * meanWait, accuracy: 0.05 * meanQueue)
        for (index, m) in minutes.enumerated() {
            XCTAssertEqual(m.queue, m.rate * m.wait, accuracy: 0.5 * max(m.queue, 0.2), "minute \(index)")
        }
    }
}
