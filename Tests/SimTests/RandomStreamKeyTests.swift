import XCTest
@testable import Sim

/// The shortcuts a hot path takes to a stream's key and first draw give exactly what the
/// stream named in full gives: they are part of the determinism contract.
final class RandomStreamKeyTests: XCTestCase {
    /// Numbers around every power of ten, the packing limit (10¹⁶), the extremes and negatives.
    private static let numbers: [Int] = {
        var numbers = [0, 1, 9, -1, -10, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            numbers += [power - 1, power, power + 1]
        }
        return numbers
    }()

    func testStreamKeyFromAPrefixHashIsTheKeyOfTheWholeName() {
        let suffixes = ["", "a", "teh", "don't", "café", "naïve-über", "😀x", String(repeating: "z", count: 40)]
        for seed: UInt64 in [0, .max] {
            for replication in [0, 1_000] {
                for prefix in ["", "cloud.verdict/", "user7/cloud.verdict/"] {
                    let hashed = RandomStream.Prefix(seed: seed, replication: replication).appending(prefix)
                    for number in Self.numbers {
                        for suffix in suffixes {
                            for separator in ["/", "."] {
                                let name = prefix + String(number) + separator + suffix
                                XCTAssertEqual(hashed.appending(decimal: number).appending(separator).key(suffix),
                                               RandomStream.streamKey(seed: seed, replication: replication, name: name),
                                               "seed \(seed) replication \(replication) name \(name)")
                            }
                        }
                    }
                }
            }
        }
    }

    func testPrefixedStreamIsTheStreamOfTheWholeName() {
        // The names a keyboard session gives its streams, and some awkward ones.
        let names = ["network.state", "work.key.cost", "cloud.retry-jitter", "dictation.transcription", "", "/", "café",
                     "😀", String(repeating: "w", count: 70)]
        var draws = RandomStream(seed: 3, replication: 0, name: "test.prefixes")
        for round in 0..<200 {
            let seed = round < 2 ? [0, UInt64.max][round] : draws.nextUInt64()
            let replication = round < 4 ? [0, 0, 1, 1_000_000][round] : draws.nextInt(below: 1 << 40)
            let user = draws.nextInt(below: 1 << 20)
            let session = draws.nextInt(below: 100)
            let traceKey = round % 3 == 0 ? "user\(user)/session\(session)" : round % 3 == 1 ? "ab12cd34" : ""
            let trace = round % 5 == 0 ? String(user) : "\(traceKey)"
            var prefix = RandomStream.Prefix(seed: seed, replication: replication).appending("trace")
            prefix = round % 5 == 0 ? prefix.appending(decimal: user) : prefix.appending(traceKey)
            prefix = prefix.appending("/")
            for name in names {
                var whole = RandomStream(seed: seed, replication: replication, name: "trace\(trace)/\(name)")
                var prefixed = prefix.stream(name)
                XCTAssertEqual(prefixed.key, whole.key, "seed \(seed) replication \(replication) trace \(trace) name \(name)")
                XCTAssertEqual(prefixed.nextUInt64(), whole.nextUInt64(), "seed \(seed) trace \(trace) name \(name)")
            }
        }
    }

    func testCloudVerdictsFromAPrefixDrawAsFromItsText() {
        let config = CloudConfig()
        for seed: UInt64 in [0, 4, .max] {
            for prefix in ["", "trace0/", "traceuser12/session3/"] {
                let byText = CloudVerdicts(config: config, seed: seed, replication: 5, streamPrefix: prefix)
                let byHash = CloudVerdicts(config: config, prefix: RandomStream.Prefix(seed: seed, replication: 5).appending(prefix))
                for (ordinal, word) in [(0, "a"), (12, "teh"), (345, "naïve")] {
                    XCTAssertEqual(byHash.draw(ordinal: ordinal, word: word), byText.draw(ordinal: ordinal, word: word),
                                   "seed \(seed) prefix \(prefix) \(ordinal)/\(word)")
                }
            }
        }
    }

    func testDecimalHashIsTheHashOfTheNumbersText() {
        var draws = RandomStream(seed: 11, replication: 0, name: "test.numbers")
        var numbers = Self.numbers
        for _ in 0..<2_000 { numbers.append(Int(bitPattern: UInt(draws.nextUInt64())) >> draws.nextInt(below: 64)) }
        for number in numbers {
            for start: UInt64 in [0xCBF2_9CE4_8422_2325, 0, 12_345] {
                XCTAssertEqual(RandomStream.fnv1a64(decimal: number, from: start), RandomStream.fnv1a64(String(number), from: start),
                               "number \(number) from \(start)")
            }
        }
    }

    func testFirstDoubleIsTheStreamsFirstDraw() {
        for seed: UInt64 in [0, 1, 5, 42, .max] {
            var keys = RandomStream(seed: seed, replication: 0, name: "test.keys")
            for index in 0..<5_000 {
                let key = index < 3 ? [0, 1, .max][index] : keys.nextUInt64()
                var stream = RandomStream(key: key)
                XCTAssertEqual(RandomStream.firstDouble(key: key), stream.nextDouble(), "seed \(seed) key \(key)")
            }
        }
    }

    func testCloudVerdictDrawIsTheFirstDrawOfTheWordsNamedStream() {
        let config = CloudConfig()
        for seed: UInt64 in [1, 7, 99] {
            for replication in [0, 2] {
                for prefix in ["", "user3/session1/"] {
                    let verdicts = CloudVerdicts(config: config, seed: seed, replication: replication, streamPrefix: prefix)
                    for (ordinal, word) in [(0, "the"), (7, "teh"), (1_234, "café"), (99_999, "don't")] {
                        var stream = RandomStream(seed: seed, replication: replication, name: "\(prefix)cloud.verdict/\(ordinal)/\(word)")
                        XCTAssertEqual(verdicts.draw(ordinal: ordinal, word: word), stream.nextDouble(),
                                       "seed \(seed) replication \(replication) \(prefix)\(ordinal)/\(word)")
                    }
                }
            }
        }
    }
}
