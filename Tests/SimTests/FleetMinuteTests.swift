import XCTest
@testable import Sim

/// A fleet's minutes add exactly: meters field by field, histograms bucket by bucket, so
/// that partitions run apart merge into what one machine would report.
final class FleetMinuteTests: XCTestCase {
    /// A meter with every field set to a distinct value from `base`.
    static func meter(_ base: Int) -> SharedBackendMeter {
        var meter = SharedBackendMeter()
        meter.arrivals = base + 1
        meter.admitted = base + 2
        meter.rejected = RejectionReason.allCases.indices.map { base + 3 + $0 }
        meter.started = base + 20
        meter.served = base + 21
        meter.abandoned = base + 22
        meter.queueWaitNanos = Int64(base + 23)
        meter.inputTokens = Int64(base + 24)
        meter.cachedTokens = Int64(base + 25)
        meter.outputTokens = Int64(base + 26)
        meter.costPicoUSD = Int64(base + 27)
        meter.queueLengthNanos = Int64(base + 28)
        meter.busyReplicaNanos = Int64(base + 29)
        meter.batchedRequestNanos = Int64(base + 30)
        return meter
    }

    func testMetersAddAndSubtractEveryField() {
        let a = Self.meter(100)
        let b = Self.meter(7)
        // A field added to the meter but not to its arithmetic would stay zero in the sum.
        XCTAssertEqual(Mirror(reflecting: a).children.count, 14, "a new meter field needs its place in + and -")
        XCTAssertEqual((a + b) - b, a)
        XCTAssertEqual((a - b).arrivals, 93)
        XCTAssertEqual((a - b).rejected, Array(repeating: 93, count: RejectionReason.allCases.count))
        var c = a
        c += b
        XCTAssertEqual(c.batchedRequestNanos, 167)  // (100 + 30) + (7 + 30)
        XCTAssertEqual(c, a + b)
    }

    func testHistogramsAddValueByValueAndMergeExactly() {
        for seed in UInt64(1)...20 {
            var random = RandomStream(seed: seed, replication: 0, name: "test.histogram")
            let values = (0..<300).map { _ in Int64(random.nextUInt64() % 2_000_000_000) }
            var one = LatencyHistogram()
            for value in values { one.add(value) }
            XCTAssertEqual(one, LatencyHistogram(sorted: values.sorted()), "seed \(seed)")
            var left = LatencyHistogram()
            var right = LatencyHistogram()
            for (i, value) in values.enumerated() { if i % 3 == 0 { left.add(value) } else { right.add(value) } }
            left.merge(right)
            XCTAssertEqual(left, one, "seed \(seed)")
            XCTAssertEqual(left.percentile(95), one.percentile(95), "seed \(seed)")
        }
    }

    func testMinutesOfTwoPartitionsMergeIntoTheirSum() {
        var a = FleetMinute(minute: 7, replicas: 2)
        a.backend = Self.meter(10)
        a.sessionsStarted = 3
        a.openSessionNanos = 120 * FleetMinute.lengthNanos
        a.keys = 500
        a.firstToken.add(300_000_000)
        a.underlinesEnded = 4
        a.underlinesWithVerdict = 3
        var b = FleetMinute(minute: 7, replicas: 3)
        b.backend = Self.meter(20)
        b.sessionsStarted = 1
        b.openSessionNanos = 30 * FleetMinute.lengthNanos
        b.keys = 250
        b.firstToken.add(100_000_000)
        b.underlinesEnded = 6
        b.underlinesWithVerdict = 6
        var merged = a
        merged.merge(b)
        XCTAssertEqual(merged.replicas, 5)
        XCTAssertEqual(merged.backend, a.backend + b.backend)
        XCTAssertEqual(merged.keys, 750)
        XCTAssertEqual(merged.meanOpenSessions, 150, accuracy: 1e-12)
        XCTAssertEqual(merged.firstToken.count, 2)
        XCTAssertEqual(merged.verdictCoverage!, 0.9, accuracy: 1e-12)
        XCTAssertEqual(merged.arrivalsPerSecond, Double(11 + 21) / 60, accuracy: 1e-12)
        XCTAssertNil(FleetMinute(minute: 0, replicas: 1).verdictCoverage)
        XCTAssertEqual(FleetMinute(minute: 0, replicas: 1).utilisation, 0)
    }
}
