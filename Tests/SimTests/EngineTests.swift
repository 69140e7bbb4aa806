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

    /// Posted events order among scheduled ones exactly as if they had been scheduled: two
    /// engines fed the same operations, one posting a random half of its events, pop the same
    /// events at the same times, through re-arms, cancels, reservations and `next(notAfter:)`.
    func testPostedEventsOrderAsScheduledOnesWould() {
        var rng = RandomStream(seed: 3, replication: 0, name: "test.posts")
        var scheduled = Engine<Int>()
        var mixed = Engine<Int>()
        var timerA = SimTimer(), timerB = SimTimer()
        var reservationA: Engine<Int>.Reservation?, reservationB: Engine<Int>.Reservation?
        var popsA: [(Int, Int64)] = [], popsB: [(Int, Int64)] = []
        /// Pops one step, noting the event (-2 for the reserved one) and the time.
        func step(_ engine: inout Engine<Int>, _ reservation: inout Engine<Int>.Reservation?, _ pops: inout [(Int, Int64)]) -> Bool {
            guard let step = engine.next(or: reservation) else { return false }
            if case .event(let event) = step { pops.append((event, engine.now.nanoseconds)) } else { pops.append((-2, engine.now.nanoseconds)); reservation = nil }
            return true
        }
        var next = 0
        for _ in 0..<20_000 {
            switch rng.nextInt(below: 10) {
            case 0...3:
                // Ties are common: times on a coarse grid.
                let time = SimTime(nanoseconds: scheduled.now.nanoseconds + Int64(rng.nextInt(below: 8)) * 1_000)
                scheduled.schedule(next, at: time)
                if rng.nextInt(below: 2) == 0 { mixed.post(next, at: time) } else { mixed.schedule(next, at: time) }
                next += 1
            case 4:
                let time = SimTime(nanoseconds: scheduled.now.nanoseconds + Int64(rng.nextInt(below: 8)) * 1_000)
                timerA.arm(-1, at: time, in: &scheduled)
                timerB.arm(-1, at: time, in: &mixed)
            case 5:
                timerA.cancel(in: &scheduled)
                timerB.cancel(in: &mixed)
            case 6 where reservationA == nil:
                let time = SimTime(nanoseconds: scheduled.now.nanoseconds + Int64(rng.nextInt(below: 8)) * 1_000)
                reservationA = scheduled.reserve(at: time)
                reservationB = mixed.reserve(at: time)
            case 7 where reservationA == nil:
                // Without a reservation held: `next(notAfter:)` does not know of one.
                let limit = SimTime(nanoseconds: scheduled.now.nanoseconds + 2_000)
                if let a = scheduled.next(notAfter: limit) { popsA.append((a, scheduled.now.nanoseconds)) }
                if let b = mixed.next(notAfter: limit) { popsB.append((b, mixed.now.nanoseconds)) }
            default:
                _ = step(&scheduled, &reservationA, &popsA)
                _ = step(&mixed, &reservationB, &popsB)
            }
            XCTAssertEqual(scheduled.pendingCount, mixed.pendingCount)
            XCTAssertEqual(scheduled.nextEventTime, mixed.nextEventTime)
        }
        while step(&scheduled, &reservationA, &popsA) {}
        while step(&mixed, &reservationB, &popsB) {}
        XCTAssertGreaterThan(popsA.count, 8_000)
        XCTAssertEqual(popsA.map(\.0), popsB.map(\.0))
        XCTAssertEqual(popsA.map(\.1), popsB.map(\.1))
        XCTAssertEqual(scheduled.eventsProcessed, mixed.eventsProcessed)
        XCTAssertTrue(mixed.isIdle)
    }

    /// An engine is a value: a copy taken with events posted goes on independently, and
    /// growing one copy's posts leaves the other's alone.
    func testPostedEventsAreCopiedWithTheEngine() {
        var engine = Engine<Int>()
        for i in 0..<10 { engine.post(i, at: SimTime(nanoseconds: Int64(100 - i))) }
        var copy = engine
        for i in 10..<100 { copy.post(i, at: SimTime(nanoseconds: Int64(i))) }
        XCTAssertEqual(engine.next(), 9)
        var original: [Int] = []
        while let event = engine.next() { original.append(event) }
        XCTAssertEqual(original, Array((0...8).reversed()))
        var copied: [Int] = []
        while let event = copy.next() { copied.append(event) }
        XCTAssertEqual(copied, Array(10..<91) + [9, 91, 8, 92, 7, 93, 6, 94, 5, 95, 4, 96, 3, 97, 2, 98, 1, 99, 0])
        XCTAssertEqual(copy.eventsProcessed, 100)
        XCTAssertTrue(copy.isIdle)
    }
}
