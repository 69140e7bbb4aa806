import XCTest
@testable import Sim

/// The adaptive debounce policy: its window of pauses against a reference model, and its
/// request times on hand-built traces.
final class AdaptiveDebounceTests: XCTestCase {
    let base = DebouncerTests.self

    func adaptive(quantile: Double = 0.5, scale: Double = 2, minMs: Int64 = 50, maxMs: Int64 = 2000, window: Int = 8,
                  warmup: Int = 4, sentenceEndMs: Int64 = 0) -> DebouncePolicy {
        .adaptive(AdaptiveDebounce(quantile: quantile, scale: scale, minimum: .milliseconds(minMs), maximum: .milliseconds(maxMs),
                                   window: window, warmup: warmup, sentenceEnd: .milliseconds(sentenceEndMs)))
    }

    func testWindowMatchesASortedCopyOfTheLastPauses() {
        for seed in UInt64(1)...40 {
            var random = RandomStream(seed: seed, replication: 0, name: "test.pauses")
            let capacity = random.nextInt(below: 20) + 1
            var window = PauseWindow(capacity: capacity)
            var all: [SimDuration] = []
            for _ in 0..<200 {
                // Few distinct values, so that ties are common.
                let pause = SimDuration.milliseconds(Int64(random.nextInt(below: 12)) * 50)
                window.add(pause)
                all.append(pause)
                let kept = Array(all.suffix(capacity)).sorted()
                XCTAssertEqual(window.sorted, kept, "seed \(seed)")
                for q in [0.01, 0.25, 0.5, 0.9, 1.0] {
                    let rank = Int((q * Double(kept.count)).rounded(.up))
                    XCTAssertEqual(window.quantile(q), kept[max(rank, 1) - 1], "seed \(seed), quantile \(q)")
                }
                window.checkInvariants()
            }
        }
    }

    func testMaximumUntilWarmThenTheScaledQuantile() throws {
        // Keys land 2 ms after their touches, 100 ms apart: four pauses of 100 ms after the
        // fifth key, so it arms for the median (100 ms) × 2 = 200 ms instead of 2 s.
        let keys: [(Double, String)] = [(0, "a "), (100, "b "), (200, "c "), (300, "d "), (400, "e ")]
        XCTAssertEqual(try base.requestTimes(adaptive(), keys), [602])
        // Before the warm-up is reached, the maximum: one key fewer waits 2 s.
        XCTAssertEqual(try base.requestTimes(adaptive(), Array(keys.prefix(4))), [2302])
        // A pause of 1,098 ms joins the window; its median is still 100 ms.
        XCTAssertEqual(try base.requestTimes(adaptive(), keys + [(1500, "f ")]), [602, 1702])
    }

    func testTheWaitIsClamped() throws {
        let keys: [(Double, String)] = [(0, "a "), (100, "b "), (200, "c "), (300, "d "), (400, "e ")]
        XCTAssertEqual(try base.requestTimes(adaptive(minMs: 350), keys), [752])
        XCTAssertEqual(try base.requestTimes(adaptive(scale: 20, maxMs: 1500), keys), [1902])
    }

    func testSentenceEndSendsAtOnce() throws {
        let typed: [(Double, String)] = [(0, "O"), (100, "k"), (200, "."), (1000, " "), (1100, "s ")]
        // "Ok." lands at 202 ms and goes at once; "s " waits the maximum (not yet warm).
        XCTAssertEqual(try base.requestTimes(adaptive(warmup: 8), typed), [202, 3102])
        XCTAssertEqual(try base.requestTimes(adaptive(warmup: 8, sentenceEndMs: 300), typed), [502, 3102])
    }

    func testPausesAfterASentenceEndAreNotLearned() {
        var debouncer = Debouncer(adaptive())
        _ = debouncer.edit(at: .zero, endsSentence: true, endedSentence: true, endedWord: true)
        _ = debouncer.edit(at: SimTime(milliseconds: 5000), endsSentence: false, endedSentence: false, endedWord: false)
        XCTAssertEqual(debouncer.pausesLearned, 0)
        _ = debouncer.edit(at: SimTime(milliseconds: 5100), endsSentence: false, endedSentence: false, endedWord: false)
        XCTAssertEqual(debouncer.pausesLearned, 1)
    }

    func testStartingOverKeepsWhatWasLearnedButNotTheLastEdit() {
        var debouncer = Debouncer(adaptive())
        for k in 0..<6 { _ = debouncer.edit(at: SimTime(milliseconds: Double(k) * 100), endsSentence: false, endedSentence: false, endedWord: false) }
        XCTAssertEqual(debouncer.pausesLearned, 5)
        var again = debouncer.startingOver()
        XCTAssertEqual(again.pausesLearned, 5)
        // The first edit after starting over has no pause before it, and is already warm.
        let decision = again.edit(at: SimTime(milliseconds: 60_000), endsSentence: false, endedSentence: false, endedWord: false)
        XCTAssertEqual(again.pausesLearned, 5)
        XCTAssertEqual(decision.arm?.time, SimTime(milliseconds: 60_200))
        XCTAssertEqual(Debouncer(adaptive()).pausesLearned, 0)
    }

    /// A field change (a message sent) keeps the typist's rhythm: the next message is warm.
    func testTheRhythmOutlivesAFieldChange() throws {
        var events = [(0.0, "a "), (100, "b "), (200, "c "), (300, "d "), (400, "e ")].map {
            TraceEvent(time: SimTime(milliseconds: $0.0), kind: .key(text: $0.1, touchUp: nil, point: nil))
        }
        events.append(TraceEvent(time: SimTime(milliseconds: 5000), kind: .field(FieldChange(.cleared))))
        events.append(TraceEvent(time: SimTime(milliseconds: 6000), kind: .key(text: "x ", touchUp: nil, point: nil)))
        var source = ArrayTraceSource(events)
        var sink = ObservationBuffer()
        var simulation = KeyboardSimulation(config: base.config(adaptive()), seed: 1, replication: 0)
        _ = try simulation.run(&source, into: &sink)
        XCTAssertEqual(sink.requests.map(\.sent.milliseconds).sorted(), [602, 6202])
    }

    /// Every other policy starts over exactly as a new debouncer does.
    func testStartingOverIsAFreshStateForTheOtherPolicies() {
        let policies: [DebouncePolicy] = [.seedDefault, .fixed(delay: .milliseconds(500)), .throttle(interval: .milliseconds(300)),
                                          .edges(wait: .milliseconds(500), leading: true, trailing: true, maxWait: nil),
                                          .boundary(sentencesOnly: false, delay: .zero)]
        for policy in policies {
            var used = Debouncer(policy)
            _ = used.edit(at: .zero, endsSentence: false, endedSentence: false, endedWord: true)
            var again = used.startingOver()
            var fresh = Debouncer(policy)
            let now = SimTime(milliseconds: 50)
            XCTAssertEqual(again.edit(at: now, endsSentence: false, endedSentence: false, endedWord: true),
                           fresh.edit(at: now, endsSentence: false, endedSentence: false, endedWord: true), "\(policy.name)")
        }
    }
}
