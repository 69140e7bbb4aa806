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

    /// Half-way values round away from zero, as `rounded()` does, on both sides of zero.
    func testMillisecondConversionRoundsHalfAwayFromZero() {
        // Milliseconds whose nanoseconds are exact halves (k + ½ for small k is exact in
        // binary, and so is its product with 10⁶ here).
        for halves in [0.5, -0.5, 2.5, -2.5, 1_000_001.5] {
            let ms = halves / 1_000_000
            guard ms * 1_000_000 == halves else { continue }
            XCTAssertEqual(SimDuration(milliseconds: ms).nanoseconds, Int64(halves.rounded()), "\(halves)")
        }
        XCTAssertEqual(SimDuration(milliseconds: 0.0000025 * 2).nanoseconds, 5)
        XCTAssertEqual(SimDuration(milliseconds: -1e30).nanoseconds, -SimDuration.maxNanoseconds)
        var rng = RandomStream(seed: 3, replication: 0, name: "rounding")
        for _ in 0..<10_000 {
            let ms = (rng.nextDouble() - 0.5) * 1e6
            XCTAssertEqual(SimDuration(milliseconds: ms).nanoseconds, Int64((ms * 1_000_000).rounded()), "\(ms)")
        }
    }

    /// A reservation orders among queued events as an event scheduled when it was made.
    func testAReservationFiresWhereAnEventScheduledThenWould() {
        var engine = Engine<String>()
        engine.schedule("before", at: SimTime(nanoseconds: 10))
        let reservation = engine.reserve(at: SimTime(nanoseconds: 10))
        engine.schedule("after", at: SimTime(nanoseconds: 10))
        engine.schedule("earlier", at: SimTime(nanoseconds: 5))
        var order: [String] = []
        var held: Engine<String>.Reservation? = reservation
        while let step = engine.next(or: held) {
            switch step {
            case .event(let name): order.append(name)
            case .reserved: order.append("reserved"); held = nil
            }
            XCTAssertEqual(engine.now.nanoseconds, order.last == "earlier" ? 5 : 10)
        }
        XCTAssertEqual(order, ["earlier", "before", "reserved", "after"])
        XCTAssertEqual(engine.eventsProcessed, 4, "the reserved event counts as processed")
        XCTAssertTrue(engine.isIdle)
        XCTAssertNil(engine.next(or: nil))
    }
}
