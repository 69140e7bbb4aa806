import XCTest
@testable import Sim

/// The speculative underline-then-retract protocol, the network's failures and fixes.
final class UnderlineProtocolTests: XCTestCase {
    /// A keyboard whose checkers are certain (every true error flagged, nothing else), with
    /// fixed costs and a 300 ms cloud behind a 50 ms network.
    func certainConfig() -> KeyboardConfig { .exact }

    func events(_ typed: String, every ms: Double = 100, from start: Double = 0) -> [TraceEvent] {
        typed.enumerated().map { index, character in
            TraceEvent(time: SimTime(milliseconds: start + Double(index) * ms), kind: .key(text: String(character), touchUp: nil, point: nil))
        }
    }

    func run(_ config: KeyboardConfig, _ events: [TraceEvent], intended: String) throws -> ObservationBuffer {
        var source = ArrayTraceSource(events)
        var sink = ObservationBuffer()
        var simulation = KeyboardSimulation(config: config, seed: 3, replication: 0, header: TraceHeader(intendedText: intended))
        _ = try simulation.run(&source, into: &sink)
        return sink
    }

    func testLocalUnderlineAtOnceThenConfirmedByTheCloud() throws {
        let sink = try run(certainConfig(), events("I thnik so "), intended: "I think so")
        let chips = sink.underlines
        XCTAssertEqual(chips.count, 1)
        let chip = try XCTUnwrap(chips.first)
        XCTAssertEqual(chip.wordOrdinal, 1)
        XCTAssertEqual(chip.origin, .local)
        XCTAssertTrue(chip.trueError)
        // " " after "thnik" touched at 700 ms, landed 702; on the background queue the
        // suggestion lookup runs first (702–703), then the check (703–704); drawn 704–705.
        XCTAssertEqual(chip.shown?.milliseconds, 705)
        XCTAssertEqual(chip.timeToUnderline?.milliseconds, 5)
        // The last edit lands at 1002; the request leaves at 1402 and is answered at 1752.
        XCTAssertEqual(chip.confirmed?.milliseconds, 1752)
        XCTAssertEqual(chip.outcome, .open)
    }

    func testWaitingForTheCloudDelaysEveryUnderline() throws {
        var config = certainConfig()
        config.underlines.speculative = false
        let chip = try XCTUnwrap(run(config, events("I thnik so "), intended: "I think so").underlines.first)
        XCTAssertEqual(chip.shown?.milliseconds, 1753, "drawn only after the answer at 1752")
        XCTAssertEqual(chip.timeToUnderline?.milliseconds, 1053, "the word finished at 700 ms")
    }

    func testAFalseLocalFlagIsRetractedAndFlickers() throws {
        var config = certainConfig()
        config.checker.falsePositiveRate = 1   // the local checker flags every correct word
        // The chip is drawn at 205 ms; the request leaves at 602 and its answer retracts
        // the chip at 952: shown for 747 ms, a flicker.
        let quick = try XCTUnwrap(run(config, events("ok "), intended: "ok").underlines.first)
        XCTAssertEqual(quick.outcome, .retracted)
        XCTAssertEqual(quick.shown?.milliseconds, 205)
        XCTAssertEqual(quick.end.milliseconds, 952)
        XCTAssertTrue(quick.flicker)
        config.debounce = .fixed(delay: .milliseconds(2000))
        let slow = try XCTUnwrap(run(config, events("ok "), intended: "ok").underlines.first)
        XCTAssertEqual(slow.outcome, .retracted)
        XCTAssertFalse(slow.flicker, "shown for 2,347 ms: longer than the 1 s window")
    }

    /// A stale answer is reconciled word by word: a word the user edited closed its chip at
    /// the edit, its verdict is lost, and the word is never changed.
    func testStaleAnswerNeverChangesTextThatMoved() throws {
        var config = certainConfig()
        config.underlines.acceptanceRate = 1
        config.underlines.acceptanceDelay = .constant(0)
        // "thnik " typed, request sent at 1002 + ... ; meanwhile the user deletes the word.
        var typed = events("I thnik ")
        let deletions = (0..<6).map { TraceEvent(time: SimTime(milliseconds: 1300 + Double($0) * 50), kind: .backspace(touchUp: nil, point: nil)) }
        typed += deletions
        typed += events("know ", every: 50, from: 1700)
        let sink = try run(config, typed, intended: "I know")
        XCTAssertTrue(sink.requests.contains { $0.stale && $0.lostWords > 0 }, "an answer arrived for an older text and lost a word")
        XCTAssertEqual(sink.underlines.first?.outcome, .edited, "the chip closed when the user deleted into its word")
        XCTAssertEqual(sink.underlines.first?.end.milliseconds, 1352, "the first backspace took the space, the second the 'k'")
        XCTAssertTrue(sink.fixes.allSatisfy { !$0.applied || !$0.corrupted })
        XCTAssertFalse(sink.fixes.contains { $0.applied && $0.wordOrdinal == 1 && $0.underlineID == 0 })
    }

    func testOfflineRequestsRetryWithBackoffThenFail() throws {
        var config = certainConfig()
        config.network.offlinePeriods = [SimTime.zero..<SimTime(milliseconds: 60_000)]
        config.network.maxAttempts = 3
        config.network.retryBackoff = .milliseconds(500)
        let sink = try run(config, events("hi "), intended: "hi")
        let request = try XCTUnwrap(sink.requests.first)
        XCTAssertEqual(request.outcome, .failed)
        XCTAssertEqual(request.attempts, 3)
        XCTAssertEqual(request.offlineFailures, 3)
        // Sent at 602; fails at 607, retry at 1107 fails at 1112, retry at 2112 fails at 2117.
        XCTAssertEqual(request.end.milliseconds, 2117)
    }

    func testTimeoutsRetryAndTheLateAnswerIsIgnored() throws {
        var config = certainConfig()
        config.network.goodRoundTrip = .constant(6_000)
        config.network.timeout = .milliseconds(1_000)
        config.network.maxAttempts = 2
        config.network.retryBackoff = .milliseconds(100)
        let request = try XCTUnwrap(run(config, events("hi "), intended: "hi").requests.first)
        XCTAssertEqual(request.timeouts, 2)
        XCTAssertEqual(request.outcome, .failed)
        XCTAssertEqual(request.end.milliseconds, 602 + 1000 + 100 + 1000)
    }

    func testAcceptedFixRepairsTheText() throws {
        var config = certainConfig()
        config.underlines.acceptanceRate = 1
        config.underlines.acceptanceDelay = .constant(100)
        let sink = try run(config, events("I thnik so "), intended: "I think so")
        let fix = try XCTUnwrap(sink.fixes.first)
        XCTAssertTrue(fix.applied)
        XCTAssertFalse(fix.corrupted)
        XCTAssertEqual(sink.underlines.first?.outcome, .accepted)
    }

    func testGilbertElliottChannelIsDeterministicAndSwitches() {
        var network = NetworkConfig()
        network.meanGoodMs = 1_000
        network.meanBadMs = 500
        func states(_ seed: UInt64) -> [ChannelState] {
            var channel = NetworkChannel(config: network, switches: RandomStream(seed: seed, replication: 0, name: "net"))
            return (0..<200).map { channel.state(at: SimTime(milliseconds: Double($0) * 100)) }
        }
        XCTAssertEqual(states(1), states(1))
        XCTAssertTrue(states(1).contains(.bad) && states(1).contains(.good))
        let badShare = Double(states(1).filter { $0 == .bad }.count) / 200
        XCTAssertEqual(badShare, 1.0 / 3.0, accuracy: 0.2)
        var forced = NetworkChannel(config: network, switches: RandomStream(seed: 1, replication: 0, name: "net"))
        forced.force(.offline)
        XCTAssertEqual(forced.state(at: .zero), .offline)
        forced.force(.slow)
        XCTAssertEqual(forced.state(at: .zero), .bad)
    }
}
