import XCTest
@testable import Sim

/// The token bucket against its promises, over random times and costs (seed loops).
final class TokenBucketTests: XCTestCase {
    func testAWaitIsExactToTheNanosecond() {
        for seed: UInt64 in 1...30 {
            var rng = RandomStream(seed: seed, replication: 0, name: "test.bucket")
            let rate = Int64(1 + rng.nextInt(below: 100_000))
            var bucket = TokenBucket(ratePerMinute: rate, capacity: Int64(1 + rng.nextInt(below: 50_000)))
            var now = SimTime.zero
            for _ in 0..<200 {
                now = now + SimDuration(nanoseconds: Int64(rng.nextInt(below: 2_000_000_000)))
                bucket.refill(to: now)
                bucket.checkInvariants()
                let cost = Int64(1 + rng.nextInt(below: Int(bucket.capacity)))
                guard let wait = bucket.wait(for: cost) else { return XCTFail("seed \(seed): a cost within the capacity always passes") }
                if wait > .zero {
                    var early = bucket
                    early.refill(to: now + wait - SimDuration(nanoseconds: 1))
                    XCTAssertGreaterThan(early.wait(for: cost)!, .zero, "seed \(seed): not a nanosecond early")
                    now = now + wait
                    bucket.refill(to: now)
                }
                XCTAssertEqual(bucket.wait(for: cost), .zero, "seed \(seed)")
                bucket.take(cost)
            }
            XCTAssertNil(bucket.wait(for: bucket.capacity + 1), "seed \(seed): more than the capacity never passes")
        }
    }

    /// Capacity B, N a minute: at most N + B − 1 admitted in any half-open 60 s window.
    func testAnyMinuteAdmitsAtMostTheRatePlusTheBurstLessOne() {
        for seed: UInt64 in 1...30 {
            var rng = RandomStream(seed: seed, replication: 0, name: "test.window")
            let rate = 1 + rng.nextInt(below: 30), burst = 1 + rng.nextInt(below: 4)
            var bucket = TokenBucket(ratePerMinute: Int64(rate), capacity: Int64(burst))
            var now = SimTime.zero
            var admitted: [SimTime] = []
            for _ in 0..<2_000 {
                now = now + SimDuration(nanoseconds: Int64(rng.nextInt(below: 3_000_000_000)))
                bucket.refill(to: now)
                if bucket.wait(for: 1) == .zero { bucket.take(1); admitted.append(now) }
            }
            for (i, start) in admitted.enumerated() {
                let inWindow = admitted[i...].prefix { $0 < start + .seconds(60) }.count
                XCTAssertLessThanOrEqual(inWindow, rate + burst - 1, "seed \(seed): \(rate)/min, burst \(burst)")
            }
        }
    }

    func testAFullBucketStaysFullAndAnEmptyOneFillsAtItsRate() {
        var bucket = TokenBucket(ratePerMinute: 60, capacity: 10)
        bucket.take(10)
        XCTAssertEqual(bucket.wait(for: 1), .seconds(1))
        bucket.refill(to: SimTime(nanoseconds: 2_500_000_000))
        XCTAssertEqual(bucket.wait(for: 2), .zero)
        XCTAssertEqual(bucket.wait(for: 3), .milliseconds(500))
        bucket.refill(to: SimTime(nanoseconds: 3_600_000_000_000))
        XCTAssertEqual(bucket.levelUnits, 10 * TokenBucket.unitsPerToken)
        // The largest bucket keeps its arithmetic within 64 bits.
        var largest = TokenBucket(ratePerMinute: TokenBucket.tokensMax, capacity: TokenBucket.tokensMax)
        largest.take(TokenBucket.tokensMax)
        largest.refill(to: SimTime(nanoseconds: 1 << 53))
        largest.checkInvariants()
    }
}
