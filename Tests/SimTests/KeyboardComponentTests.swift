import XCTest
@testable import Sim

/// Each component of the keyboard, stepped one event at a time through `KeyboardHarness`
/// (which checks every component's invariants after every event).
final class SuggestionPipelineTests: XCTestCase {
    func testAJobGoesThroughLookupRerankAndDraw() throws {
        var harness = KeyboardHarness(.exact)
        try harness.type("a", fromMs: 0)
        XCTAssertEqual(harness.simulation.suggestions.jobsInFlight, 0, "nothing until the key lands")
        harness.advance(to: SimTime(milliseconds: 2))
        XCTAssertEqual(harness.simulation.suggestions.jobsInFlight, 1, "the key landed at 2 ms: the lookup is queued")
        harness.advance(to: SimTime(milliseconds: 4.5))
        XCTAssertTrue(harness.sink.suggestions.isEmpty, "looked up 2–3, re-ranked 3–4, drawing 4–5")
        harness.advance(to: SimTime(milliseconds: 5))
        XCTAssertEqual(harness.simulation.suggestions.jobsInFlight, 0)
        let shown = try XCTUnwrap(harness.sink.suggestions.first { _ in true })
        XCTAssertEqual(shown.outcome, .shown)
        XCTAssertEqual(shown.end.milliseconds, 5)
        XCTAssertFalse(shown.tooLate)
        _ = harness.finish()
    }

    func testJobsForReplacedTextAreSupersededQueuedOrRunning() throws {
        var config = KeyboardConfig.exact
        config.work[.lookup]!.cost = .constant(10)
        var harness = KeyboardHarness(config)
        try harness.type("abc", everyMs: 1, fromMs: 0)
        // Keys land at 2, 4 and 6 ms; the first lookup runs 2–12 and the second waits behind it.
        harness.advance(to: SimTime(milliseconds: 6))
        var outcomes = harness.sink.suggestions.map { ($0.keyIndex, $0.outcome, $0.end.milliseconds) }
        XCTAssertEqual(outcomes.map(\.0), [1], "the queued lookup for 'ab' is cancelled when 'abc' lands")
        XCTAssertEqual(outcomes.first?.1, .superseded)
        harness.advance(to: SimTime(milliseconds: 12))
        outcomes = harness.sink.suggestions.map { ($0.keyIndex, $0.outcome, $0.end.milliseconds) }
        XCTAssertEqual(outcomes.map(\.0), [1, 0], "the running lookup for 'a' finds its text changed")
        _ = harness.finish()
        outcomes = harness.sink.suggestions.map { ($0.keyIndex, $0.outcome, $0.end.milliseconds) }
        XCTAssertEqual(outcomes.last?.0, 2)
        XCTAssertEqual(outcomes.last?.1, .shown)
        XCTAssertEqual(outcomes.last?.2, 24, "looked up 12–22, re-ranked 22–23, drawn 23–24")
    }
}

final class UnderlinesTests: XCTestCase {
    func testALocalUnderlineIsCheckedDrawnThenConfirmed() throws {
        var harness = KeyboardHarness(.exact, intendedText: "I think so")
        try harness.type("I thnik so ", fromMs: 0)
        // The space after "thnik" was touched at 700 ms and landed at 702; the lookup runs
        // 702–703 on the background queue, the check 703–704, the chip is drawn 704–705.
        harness.advance(to: SimTime(milliseconds: 1002))
        let chip = try XCTUnwrap(harness.simulation.underlines.chips.values.first)
        XCTAssertEqual(harness.simulation.underlines.chips.count, 1)
        XCTAssertEqual(chip.word, "thnik")
        XCTAssertEqual(chip.fix, "think")
        XCTAssertEqual(chip.shown?.milliseconds, 705)
        XCTAssertNil(chip.confirmed, "the request leaves 400 ms after the last edit")
        harness.advance(to: SimTime(milliseconds: 1752))
        XCTAssertEqual(harness.simulation.underlines.chips.values.first?.confirmed?.milliseconds, 1752)
        _ = harness.finish()
        XCTAssertEqual(harness.sink.underlines.map(\.outcome), [.open])
    }

    func testAnAcceptedFixRewritesTheWordAndTellsTheDebounce() throws {
        var config = KeyboardConfig.exact
        config.underlines.acceptanceRate = 1
        config.underlines.acceptanceDelay = .constant(100)
        var harness = KeyboardHarness(config, intendedText: "I think so")
        try harness.type("I thnik so ", fromMs: 0)
        _ = harness.finish()
        XCTAssertEqual(harness.text, "I think so ")
        XCTAssertEqual(harness.sink.fixes.map(\.applied), [true])
        XCTAssertEqual(harness.sink.underlines.map(\.outcome), [.accepted])
        XCTAssertEqual(harness.sink.requests.count, 2, "the fix changed the text: it is sent again")
    }

    func testAChipCountsAsReflaggedWhenItsWordIsCheckedAgain() throws {
        var harness = KeyboardHarness(.exact, intendedText: "I think so")
        try harness.type("I thnik ", fromMs: 0)
        try harness.feed(TraceEvent(time: SimTime(milliseconds: 900), kind: .backspace(touchUp: nil, point: nil)))
        try harness.type(" ", fromMs: 1000)
        _ = harness.finish()
        XCTAssertEqual(harness.simulation.underlines.counters.reflaggedWords, 1)
    }
}

final class CloudClientTests: XCTestCase {
    func testTheDebounceSendsOnceAndTheAnswerArrivesAfterTheRoundTrip() throws {
        var harness = KeyboardHarness(.exact)
        try harness.type("Hi.", fromMs: 0)
        harness.advance(to: SimTime(milliseconds: 601))

        XCTAssertEqual(harness.simulation.cloud.requestsSent, 0, "the last edit landed at 202 ms")
        harness.advance(to: SimTime(milliseconds: 602))
        XCTAssertEqual(harness.simulation.cloud.requestsSent, 1)
        XCTAssertEqual(harness.simulation.cloud.requests.count, 1, "in flight")
        harness.advance(to: SimTime(milliseconds: 952))
        XCTAssertTrue(harness.simulation.cloud.requests.isEmpty, "answered after 50 ms of network and 300 ms of service")
        XCTAssertEqual(harness.sink.requests.map(\.outcome), [.answered])
        XCTAssertEqual(harness.sink.requests.first?.end.milliseconds, 952)
        _ = harness.finish()
    }

    func testLostAnswersAreRetriedWithBackoffThenFail() throws {
        var config = KeyboardConfig.exact
        config.network.goodLoss = 1
        config.network.timeout = .milliseconds(1000)
        config.network.maxAttempts = 3
        config.network.retryBackoff = .milliseconds(100)
        var harness = KeyboardHarness(config)
        try harness.type("Hi.", fromMs: 0)
        _ = harness.finish()
        let request = try XCTUnwrap(harness.sink.requests.first)
        XCTAssertEqual(request.outcome, .failed)
        XCTAssertEqual(request.attempts, 3)
        XCTAssertEqual(request.timeouts, 3)
        // Sent at 602; timeouts at 1602, 2702 (after 100 ms), 3902 (after 200 ms).
        XCTAssertEqual(request.end.milliseconds, 3902)
    }

    func testAKillAbandonsRequestsInFlightAndResetsTheDebounce() throws {
        var config = KeyboardConfig.exact
        config.memory = .killsAfterThreeWords
        config.debounce = .fixed(delay: .milliseconds(10))
        var harness = KeyboardHarness(config)
        // Every edit lands 2 ms after its touch; a word is sent 10 ms after the "." that
        // finished it (at 112, 412 and 712 ms); answers take 350 ms.
        try harness.type("a. b. c. ", everyMs: 100, fromMs: 0)
        harness.advance(to: SimTime(milliseconds: 802))
        XCTAssertTrue(harness.simulation.process.restarting, "the third word's space landed at 802 ms")
        XCTAssertTrue(harness.simulation.cloud.requests.isEmpty)
        XCTAssertEqual(harness.sink.requests.map(\.outcome), [.answered, .answered, .killed], "the one sent at 712 ms was in flight")
        _ = harness.finish()
        XCTAssertEqual(harness.sink.requests.count, 3, "the debounce armed by the last edit died with the process")
    }
}

final class ExtensionProcessTests: XCTestCase {
    func testTheCachesGrowWithWordsUntilTheSystemKillsTheExtension() throws {
        var config = KeyboardConfig.exact
        config.memory = .killsAfterThreeWords
        var harness = KeyboardHarness(config)
        try harness.type("a b ", fromMs: 0)
        harness.advance(byMs: 10)
        XCTAssertFalse(harness.simulation.process.restarting)
        XCTAssertEqual(harness.simulation.process.wordsSinceStart, 2)
        try harness.type("c ", fromMs: 400)
        // The space after "c" lands at 502 ms: three words of cache push it over 20 MB.
        harness.advance(to: SimTime(milliseconds: 502))
        XCTAssertTrue(harness.simulation.process.restarting)
        XCTAssertEqual(harness.simulation.process.footprintMegabytes, 0, "the process is gone")
        try harness.type("d", fromMs: 600)
        XCTAssertEqual(harness.simulation.process.held.map(\.index), [6], "a key touched during the restart waits")
        harness.advance(to: SimTime(milliseconds: 1002))
        XCTAssertFalse(harness.simulation.process.restarting, "the 500 ms restart is over")
        XCTAssertTrue(harness.simulation.process.held.isEmpty)
        _ = harness.finish()
        XCTAssertTrue(harness.text.hasSuffix("d"), "the held key landed after the restart")
        let kills = harness.sink.extensionRecords.kills
        XCTAssertEqual(kills.count, 1)
        XCTAssertEqual(kills.first?.time.milliseconds, 502)
        XCTAssertEqual(kills.first?.restarted.milliseconds, 1002)
        XCTAssertEqual(kills.first?.keysHeld, [6])
    }
}

final class NetworkModelTests: XCTestCase {
    private func network(_ seed: UInt64) -> NetworkModel {
        var config = NetworkConfig()
        config.offlinePeriods = [SimTime(milliseconds: 1000)..<SimTime(milliseconds: 2000)]
        return NetworkModel(config: config) { RandomStream(seed: seed, replication: 0, name: $0) }
    }

    func testEachKindOfTransferDrawsFromItsOwnStream() {
        for seed in UInt64(1)...20 {
            var alone = network(seed), mixed = network(seed)
            var checksAlone: [SimDuration] = [], checksMixed: [SimDuration] = []
            for _ in 0..<10 {
                checksAlone.append(alone.roundTrip(.checkRequest, in: .good))
                _ = mixed.roundTrip(.download, in: .bad)
                _ = mixed.roundTrip(.tokenCheck, in: .good)
                checksMixed.append(mixed.roundTrip(.checkRequest, in: .good))
            }
            XCTAssertEqual(checksAlone, checksMixed, "seed \(seed): downloads and token checks shift no check request's draw")
        }
    }

    func testOfflinePeriodsAndForcedConditions() {
        var model = network(1)
        XCTAssertEqual(model.state(at: SimTime(milliseconds: 500)), .good)
        XCTAssertEqual(model.state(at: SimTime(milliseconds: 1500)), .offline)
        XCTAssertEqual(model.cut(SimTime(milliseconds: 3000), after: SimTime(milliseconds: 100)).milliseconds, 1000)
        XCTAssertEqual(model.cut(SimTime(milliseconds: 900), after: SimTime(milliseconds: 100)).milliseconds, 900)
        model.force(.offline)
        XCTAssertEqual(model.state(at: SimTime(milliseconds: 2500)), .offline)
        model.force(.online)
        XCTAssertEqual(model.state(at: SimTime(milliseconds: 2600)), .good)
    }
}

final class KeyboardHarnessTests: XCTestCase {
    /// Stepping through the harness gives the records `run` gives, when no trace event ties
    /// with an engine event (random costs make ties vanishingly rare).
    func testSteppingGivesWhatRunGives() throws {
        for seed in UInt64(1)...5 {
            let intended = "the quick brown fox jumps over the lazy dog. it was not amused."
            var events: [TraceEvent] = []
            var time = 0.0
            for character in intended {
                time += 90 + Double((character.asciiValue ?? 0) % 7) * 13.37
                events.append(TraceEvent(time: SimTime(milliseconds: time), kind: .key(text: String(character), touchUp: nil, point: nil)))
            }
            var source = ArrayTraceSource(events)
            var runSink = ObservationBuffer()
            var simulation = KeyboardSimulation(config: KeyboardConfig(), seed: seed, replication: 0,
                                                header: TraceHeader(intendedText: intended))
            let runSummary = try simulation.run(&source, into: &runSink)
            var harness = KeyboardHarness(KeyboardConfig(), seed: seed, intendedText: intended)
            for event in events { try harness.feed(event) }
            let harnessSummary = harness.finish()
            XCTAssertEqual(harnessSummary, runSummary, "seed \(seed)")
            XCTAssertEqual(harness.sink.underlines, runSink.underlines, "seed \(seed)")
            XCTAssertEqual(harness.sink.requests, runSink.requests, "seed \(seed)")
            XCTAssertEqual(Array(harness.sink.keys), Array(runSink.keys), "seed \(seed)")
            XCTAssertTrue(harness.steps > events.count, "engine events were stepped too")
        }
    }
}

extension MemoryConfig {
    /// 17.6 MB when started (10 MB base, one 7.6 MB language file), 1 MB of cache per word,
    /// a 20 MB limit: the third word kills the extension, which restarts in 500 ms.
    static var killsAfterThreeWords: MemoryConfig {
        var memory = MemoryConfig()
        memory.baseMegabytes = 10
        memory.dictionaryMegabytes = 0
        memory.modelMegabytes = 0
        memory.languageFileMegabytes = 7.6
        memory.cacheMegabytesPerWord = 1
        memory.cacheCapMegabytes = 10
        memory.limitMegabytes = 20
        memory.restart = .constant(500)
        return memory
    }
}
