import XCTest
@testable import Sim

/// The network presets against their documented figures (`docs/models.md`, "Network
/// presets"), and the radio's wake-up and the connection's hand-shake, worked out by hand.
final class NetworkPresetTests: XCTestCase {
    /// `count` round trips of a check request on `preset`'s network, milliseconds.
    private func roundTrips(_ preset: NetworkPreset, seed: UInt64, count: Int) -> [Double] {
        var network = NetworkModel(config: preset.config) { RandomStream(seed: seed, replication: 0, name: $0) }
        return (0..<count).map { _ in network.roundTrip(.checkRequest, in: .good).milliseconds }
    }

    func testMediansAreOrderedWifiThen5GThenLTEThenPoor() {
        for seed: UInt64 in 1...5 {
            let medians = NetworkPreset.allCases.map { preset -> Double in
                let sorted = roundTrips(preset, seed: seed, count: 4_001).sorted()
                return sorted[sorted.count / 2]
            }
            let (wifi, lte, fiveG, poor) = (medians[0], medians[1], medians[2], medians[3])
            XCTAssertLessThan(wifi, fiveG, "seed \(seed)")
            XCTAssertLessThanOrEqual(fiveG, lte, "seed \(seed)")
            XCTAssertLessThan(lte, poor, "seed \(seed)")
        }
    }

    /// The share of round trips at or below the documented median is one half within
    /// sampling error (four standard errors of a proportion of 20,000 draws: ±1.4 %).
    func testEveryPresetReproducesItsDocumentedMedian() {
        let count = 20_000
        let allowed = 4 * (0.25 / Double(count)).squareRoot()
        for seed: UInt64 in 1...3 {
            for preset in NetworkPreset.allCases {
                let below = roundTrips(preset, seed: seed, count: count).filter { $0 <= preset.documentedMedianMs }.count
                let share = Double(below) / Double(count)
                XCTAssertEqual(share, 0.5, accuracy: allowed, "\(preset.rawValue), seed \(seed): median \(preset.documentedMedianMs) ms")
            }
        }
        XCTAssertEqual(NetworkPreset.allCases.map(\.documentedMedianMs), [26, 58, 53, 350])
    }

    func testPoorReproducesUbersTailAndWifiSuisHop() {
        let poor = roundTrips(.poor, seed: 7, count: 40_000).sorted()
        XCTAssertEqual(poor[Int(0.95 * 40_000)], 725, accuracy: 15)
        XCTAssertEqual(poor[Int(0.99 * 40_000)], 2_300, accuracy: 150)
        // The Wi-Fi hop on top of the 23 ms fixed line: p90 20 ms, p99 250 ms.
        let wifi = roundTrips(.wifi, seed: 7, count: 40_000).sorted()
        XCTAssertEqual(wifi[Int(0.9 * 40_000)] - 23, 20, accuracy: 1.5)
        XCTAssertEqual(wifi[Int(0.99 * 40_000)] - 23, 250, accuracy: 25)
    }

    /// A constant 50 ms round trip, a constant 260 ms promotion after 10 s idle, TCP + TLS 1.3
    /// kept alive for 60 s.
    private var handShakeNetwork: NetworkModel {
        var config = NetworkConfig()
        config.goodRoundTrip = .constant(50)
        config.radio = RadioConfig(promotion: .constant(260), idleAfter: .seconds(10))
        config.connection = ConnectionConfig(setup: .tcpTLS13, keepAlive: .seconds(60))
        return NetworkModel(config: config) { RandomStream(seed: 1, replication: 0, name: $0) }
    }

    func testTheRadioWakesAfterIdleAndTheConnectionOpensAfterItsKeepAlive() {
        var network = handShakeNetwork
        let ms = { (x: Double) in SimTime(milliseconds: x) }
        // Cold: the promotion, then TCP's and TLS 1.3's round trips.
        XCTAssertEqual(network.checkRequestSetUp(at: ms(0), in: .good), .milliseconds(360))
        network.checkRequestUsed(until: ms(460))
        // Within both: nothing.
        XCTAssertEqual(network.checkRequestSetUp(at: ms(5_000), in: .good), .zero)
        network.checkRequestUsed(until: ms(5_100))
        // 10.9 s idle: the radio slept, the connection is kept.
        XCTAssertEqual(network.checkRequestSetUp(at: ms(16_000), in: .good), .milliseconds(260))
        network.checkRequestUsed(until: ms(16_100))
        // 64 s idle: both again.
        XCTAssertEqual(network.checkRequestSetUp(at: ms(80_100), in: .good), .milliseconds(360))
        // No network closes the connection.
        network.checkRequestFoundNoNetwork()
        XCTAssertEqual(network.checkRequestSetUp(at: ms(80_200), in: .good), .milliseconds(360))
    }

    func testQUICShakesHandsInOneRoundTripAndTheDefaultNetworkNotAtAll() {
        var config = NetworkConfig()
        config.goodRoundTrip = .constant(50)
        config.connection.setup = .quic
        var quic = NetworkModel(config: config) { RandomStream(seed: 1, replication: 0, name: $0) }
        XCTAssertEqual(quic.checkRequestSetUp(at: .zero, in: .good), .milliseconds(50))
        var plain = NetworkModel(config: NetworkConfig()) { RandomStream(seed: 1, replication: 0, name: $0) }
        XCTAssertEqual(plain.checkRequestSetUp(at: .zero, in: .good), .zero)
    }

    /// Through the keyboard: a request's network time is the hand-shake plus the round trip.
    func testARequestPaysForTheHandShakeInItsNetworkTime() throws {
        var config = KeyboardConfig.exact
        config.network.radio = RadioConfig(promotion: .constant(260), idleAfter: .seconds(10))
        config.network.connection = ConnectionConfig(setup: .tcpTLS13, keepAlive: .seconds(60))
        var h = KeyboardHarness(config)
        try h.type("ab ", fromMs: 0)             // lands 202: sent at 602, cold: 260 + 2 × 50 before the trip
        try h.type("cd ", fromMs: 2_000)         // lands 2202: sent at 2602, warm
        _ = h.finish()
        let requests = h.sink.requests
        XCTAssertEqual(requests.map(\.networkRoundTrip), [.milliseconds(410), .milliseconds(50)])
        XCTAssertEqual(requests.map { $0.end.milliseconds }, [602 + 410 + 300, 2_602 + 50 + 300])
    }
}
