import XCTest
@testable import Sim

/// Queueing theory as an oracle: an FIFO single-core executor fed Poisson arrivals with
/// exponential costs is an M/M/1 queue, whose mean response time is 1/(μ − λ).
final class MM1Tests: XCTestCase {
    func testMeanResponseTimeMatchesMM1() {
        let arrivalRatePerMs = 0.06   // λ
        let serviceRatePerMs = 0.1    // μ: mean cost 10 ms, utilisation 0.6
        let expected = 1 / (serviceRatePerMs - arrivalRatePerMs)  // 25 ms
        var batchMeans: [Double] = []
        for replication in 0..<20 {
            var arrivals = RandomStream(seed: 7, replication: replication, name: "arrivals")
            var costs = RandomStream(seed: 7, replication: replication, name: "costs")
            let interArrival = Distribution.exponential(mean: 1 / arrivalRatePerMs)
            let cost = Distribution.exponential(mean: 1 / serviceRatePerMs)
            var h = ExecutorHarness(ExecutorConfig(name: "server"))
            var t = 0.0
            for id in 0..<20_000 {
                t += interArrival.sample(&arrivals)
                h.release(ExecutorTask(id: UInt64(id), kind: 0, cost: cost.sampleDuration(&costs)), atMs: t)
            }
            h.run()
            // Drop the warm-up so the queue starts near its stationary state.
            let responses = h.records.dropFirst(2_000).map { $0.responseTime.milliseconds }
            batchMeans.append(responses.reduce(0, +) / Double(responses.count))
        }
        let mean = batchMeans.reduce(0, +) / Double(batchMeans.count)
        let variance = batchMeans.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(batchMeans.count - 1)
        let halfWidth = 2.093 * (variance / Double(batchMeans.count)).squareRoot()  // t(0.975, 19)
        XCTAssertLessThan(abs(mean - expected), halfWidth,
                          "M/M/1 mean response \(mean) ms, expected \(expected) ms ± \(halfWidth)")
    }
}
