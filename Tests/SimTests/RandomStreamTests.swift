import XCTest
@testable import Sim

final class RandomStreamTests: XCTestCase {
    private func firstOutputs(_ stream: RandomStream, count: Int = 8) -> [UInt64] {
        var stream = stream
        return (0..<count).map { _ in stream.nextUInt64() }
    }

    // MARK: Determinism and identity

    func testSameSeedReplicationAndNameGiveTheSameSequence() {
        for seed: UInt64 in [0, 1, 42, .max] {
            let a = RandomStream(seed: seed, replication: 3, name: "network.cloudLatency")
            let b = RandomStream(seed: seed, replication: 3, name: "network.cloudLatency")
            XCTAssertEqual(firstOutputs(a, count: 100), firstOutputs(b, count: 100), "seed \(seed)")
        }
    }

    func testAnyDifferentInputGivesADifferentSequence() {
        let base = firstOutputs(RandomStream(seed: 7, replication: 0, name: "keyboard"))
        let variants: [(String, RandomStream)] = [
            ("seed", RandomStream(seed: 8, replication: 0, name: "keyboard")),
            ("replication", RandomStream(seed: 7, replication: 1, name: "keyboard")),
            ("name", RandomStream(seed: 7, replication: 0, name: "keyboarD")),
            ("name suffix", RandomStream(seed: 7, replication: 0, name: "keyboard ")),
            ("empty name", RandomStream(seed: 7, replication: 0, name: "")),
        ]
        for (label, stream) in variants {
            let outputs = firstOutputs(stream)
            XCTAssertNotEqual(outputs, base, label)
            // Not merely shifted: no output in common at all, as for independent streams.
            XCTAssertTrue(Set(outputs).isDisjoint(with: base), label)
        }
    }

    func testManyNamesAndReplicationsGiveDistinctStreams() {
        var firstWords = Set<UInt64>()
        for replication in 0..<50 {
            for component in 0..<40 {
                var stream = RandomStream(seed: 1, replication: replication, name: "component\(component)")
                firstWords.insert(stream.nextUInt64())
            }
        }
        XCTAssertEqual(firstWords.count, 2_000)
    }

    // MARK: Golden values: a change here changes every report ever produced

    func testGoldenOutputsForAFixedStream() {
        var stream = RandomStream(seed: 42, replication: 0, name: "keyboard.mainThread")
        XCTAssertEqual(stream.nextUInt64(), 0xFA0A_4189_5F60_92FA)
        XCTAssertEqual(stream.nextUInt64(), 0x12D4_2173_0D61_80D8)
        XCTAssertEqual(stream.nextUInt64(), 0xD7F3_3B19_448E_07DE)
    }

    func testFNV1aMatchesPublishedVectors() {
        XCTAssertEqual(RandomStream.fnv1a64(""), 0xCBF2_9CE4_8422_2325)
        XCTAssertEqual(RandomStream.fnv1a64("a"), 0xAF63_DC4C_8601_EC8C)
        XCTAssertEqual(RandomStream.fnv1a64("foobar"), 0x8594_4171_F739_67E8)
    }

    func testSplitMix64MatchesTheReferenceFromSeedZero() {
        var generator = SplitMix64(state: 0)
        XCTAssertEqual(generator.next(), 0xE220_A839_7B1D_CDAF)
        XCTAssertEqual(generator.next(), 0x6E78_9E6A_A1B9_65F4)
        XCTAssertEqual(generator.next(), 0x06C4_5D18_8009_454F)
    }

    func testXoshiro256StarStarMatchesTheReferenceFromState1234() {
        let stream = RandomStream(xoshiroState: (1, 2, 3, 4))
        XCTAssertEqual(firstOutputs(stream, count: 4), [11520, 0, 1_509_978_240, 1_215_971_899_390_074_240])
    }

    // MARK: Doubles

    func testNextDoubleIsUniformByChiSquare() {
        // 100 equal bins, 100_000 draws: χ² has 99 degrees of freedom, mean 99, sd 14.07.
        // P(χ² > 160) ≈ 5e-5 and P(χ² < 55) ≈ 1e-5 for a uniform source.
        let binCount = 100
        let drawCount = 100_000
        for seed: UInt64 in [1, 2, 3] {
            var stream = RandomStream(seed: seed, replication: 0, name: "uniformity")
            var bins = [Int](repeating: 0, count: binCount)
            for _ in 0..<drawCount {
                let u = stream.nextDouble()
                XCTAssertTrue(u >= 0 && u < 1, "seed \(seed): \(u) outside [0, 1)")
                bins[Int(u * Double(binCount))] += 1
            }
            let expected = Double(drawCount) / Double(binCount)
            let chiSquare = bins.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
            XCTAssertLessThan(chiSquare, 160, "seed \(seed)")
            XCTAssertGreaterThan(chiSquare, 55, "seed \(seed): suspiciously even")
        }
    }

    func testNextDoubleHas53RandomBits() {
        var stream = RandomStream(seed: 5, replication: 0, name: "bits")
        var sawLowBit = false
        for _ in 0..<1_000 {
            let scaled = stream.nextDouble() * 0x1p53
            XCTAssertEqual(scaled, scaled.rounded(), "not a multiple of 2^-53")
            if scaled.truncatingRemainder(dividingBy: 2) == 1 { sawLowBit = true }
        }
        XCTAssertTrue(sawLowBit, "the 53rd bit never varied")
    }

    func testNextOpenUnitStaysInsideTheOpenInterval() {
        var stream = RandomStream(seed: 6, replication: 0, name: "open")
        var sum = 0.0
        let drawCount = 100_000
        for _ in 0..<drawCount {
            let u = stream.nextOpenUnit()
            XCTAssertTrue(u > 0 && u < 1)
            sum += u
        }
        // Mean 1/2, standard error √(1/12/n) ≈ 0.0009.
        XCTAssertEqual(sum / Double(drawCount), 0.5, accuracy: 0.005)
    }

    // MARK: Integers and coins

    func testNextIntCoversTheRangeEvenly() {
        for seed: UInt64 in [1, 2] {
            var stream = RandomStream(seed: seed, replication: 0, name: "dice")
            var counts = [Int](repeating: 0, count: 7)
            for _ in 0..<70_000 { counts[stream.nextInt(below: 7)] += 1 }
            // Each count is Binomial(70000, 1/7): mean 10000, sd 92.6.
            for (value, count) in counts.enumerated() {
                XCTAssertEqual(Double(count), 10_000, accuracy: 5 * 92.6, "seed \(seed), value \(value)")
            }
        }
        var stream = RandomStream(seed: 3, replication: 0, name: "one")
        for _ in 0..<100 { XCTAssertEqual(stream.nextInt(below: 1), 0) }
        for _ in 0..<100 { XCTAssertTrue((0..<Int.max).contains(stream.nextInt(below: .max))) }
    }

    func testNextIntHasNoModuloBias() {
        // For n = 3·2⁶¹, `next % n` would land below 2⁶² three times as often as a correct
        // draw per value: a fraction of 3/4 instead of 2/3.
        let n = 3 << 61
        var stream = RandomStream(seed: 9, replication: 0, name: "bias")
        let drawCount = 30_000
        var below = 0
        for _ in 0..<drawCount where stream.nextInt(below: n) < 1 << 62 { below += 1 }
        // Standard error √(2/9/n) ≈ 0.0027.
        XCTAssertEqual(Double(below) / Double(drawCount), 2.0 / 3.0, accuracy: 0.015)
    }

    func testBernoulliHonoursItsProbabilityAndAlwaysConsumesOneDraw() {
        var stream = RandomStream(seed: 10, replication: 0, name: "coin")
        for _ in 0..<1_000 {
            XCTAssertFalse(stream.bernoulli(0))
            XCTAssertTrue(stream.bernoulli(1))
        }
        let drawCount = 100_000
        var heads = 0
        for _ in 0..<drawCount where stream.bernoulli(0.3) { heads += 1 }
        // Standard error √(0.21/n) ≈ 0.00145.
        XCTAssertEqual(Double(heads) / Double(drawCount), 0.3, accuracy: 0.0075)

        var coin = RandomStream(seed: 11, replication: 0, name: "sync")
        var reference = coin
        for p in [0.0, 0.5, 1.0, 0.01] { _ = coin.bernoulli(p) }
        for _ in 0..<4 { _ = reference.nextUInt64() }
        XCTAssertEqual(coin.nextUInt64(), reference.nextUInt64())
    }

    // MARK: Derived streams

    func testDerivingDoesNotDisturbTheParent() {
        var plain = RandomStream(seed: 1, replication: 2, name: "dictation")
        var deriving = plain
        for _ in 0..<10 {
            var child = deriving.derived("transcriber")
            _ = child.nextUInt64()
            XCTAssertEqual(deriving.nextUInt64(), plain.nextUInt64())
        }
    }

    func testDerivedStreamsDependOnIdentityNotPosition() {
        let parent = RandomStream(seed: 1, replication: 2, name: "dictation")
        var advanced = parent
        for _ in 0..<1_000 { _ = advanced.nextUInt64() }
        XCTAssertEqual(firstOutputs(parent.derived("audio")), firstOutputs(advanced.derived("audio")))

        let child = firstOutputs(parent.derived("audio"))
        XCTAssertNotEqual(child, firstOutputs(parent))
        XCTAssertNotEqual(child, firstOutputs(parent.derived("audio2")))
        XCTAssertNotEqual(child, firstOutputs(parent.derived("audio").derived("audio")))
        XCTAssertNotEqual(child, firstOutputs(RandomStream(seed: 1, replication: 2, name: "audio")))
        XCTAssertNotEqual(child, firstOutputs(RandomStream(seed: 1, replication: 3, name: "dictation").derived("audio")))
    }

    func testGoldenOutputOfADerivedStream() {
        var child = RandomStream(seed: 42, replication: 0, name: "keyboard").derived("checker")
        XCTAssertEqual(child.nextUInt64(), RandomStreamTests.goldenDerivedFirstOutput)
    }

    private static let goldenDerivedFirstOutput: UInt64 = 0x4D62_D921_5FF2_030F
}
