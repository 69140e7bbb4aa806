import XCTest
@testable import Sim

final class EngineTests: XCTestCase {
    enum Event: Equatable { case tick(Int), debounce }

    func testTimeOnlyMovesWhenAnEventIsPopped() {
        var engine = Engine<Event>()
        engine.schedule(.tick(1), after: .milliseconds(5))
        engine.schedule(.tick(2), at: SimTime(nanoseconds: 2_000_000))
        XCTAssertEqual(engine.now, .zero)
        XCTAssertEqual(engine.next(), .tick(2))
        XCTAssertEqual(engine.now, SimTime(nanoseconds: 2_000_000))
        XCTAssertEqual(engine.next(), .tick(1))
        XCTAssertEqual(engine.now.nanoseconds, 5_000_000)
        XCTAssertNil(engine.next())
        XCTAssertTrue(engine.isIdle)
        XCTAssertEqual(engine.eventsProcessed, 2)
    }

    func testNextNotAfterLeavesLaterEventsPending() {
        var engine = Engine<Event>()
        engine.schedule(.tick(1), after: .milliseconds(1))
        engine.schedule(.tick(2), after: .milliseconds(3))
        XCTAssertEqual(engine.next(notAfter: SimTime(milliseconds: 2)), .tick(1))
        XCTAssertNil(engine.next(notAfter: SimTime(milliseconds: 2)))
        XCTAssertEqual(engine.pendingCount, 1)
        XCTAssertEqual(engine.next(), .tick(2))
        XCTAssertTrue(engine.isIdle)
    }

    /// A debounce timer re-armed by every key fires once, at the last key + delay.
    func testTimerReArmedByEveryKeyFiresOnceAfterTheLast() {
        var engine = Engine<Event>()
        var timer = SimTimer()
        let keys: [Int64] = [0, 150, 320, 700, 1_100]
        for (i, ms) in keys.enumerated() { engine.schedule(.tick(i), at: SimTime(nanoseconds: ms * 1_000_000)) }
        var fired: [SimTime] = []
        while let event = engine.next() {
            switch event {
            case .tick: timer.arm(.debounce, at: engine.now + .milliseconds(400), in: &engine)
            case .debounce: fired.append(engine.now)
            }
        }
        XCTAssertEqual(fired, [SimTime(nanoseconds: 1_500_000_000)])
        XCTAssertFalse(timer.isArmed(in: engine))
        XCTAssertTrue(engine.isIdle)
    }

    func testCancelledTimerNeverFires() {
        var engine = Engine<Event>()
        var timer = SimTimer()
        timer.arm(.debounce, at: SimTime(milliseconds: 10), in: &engine)
        XCTAssertEqual(timer.fireTime(in: engine), SimTime(milliseconds: 10))
        timer.cancel(in: &engine)
        XCTAssertNil(engine.next())
    }

    func testMillisecondConversionRoundsToNanoseconds() {
        XCTAssertEqual(SimTime(milliseconds: 123.5).nanoseconds, 123_500_000)
        XCTAssertEqual(SimTime(milliseconds: 0.000001).nanoseconds, 1)
        XCTAssertEqual(SimDuration(milliseconds: 2.0000004).nanoseconds, 2_000_000)
        XCTAssertEqual(SimDuration(milliseconds: 1e30).nanoseconds, SimDuration.maxNanoseconds)
    }
}
