import XCTest
@testable import Sim

final class EventQueueTests: XCTestCase {
    func testPopsInTimeThenInsertionOrder() {
        var queue = EventQueue<String>()
        queue.schedule("c", at: 30)
        queue.schedule("a1", at: 10)
        queue.schedule("b", at: 20)
        queue.schedule("a2", at: 10)
        queue.schedule("a3", at: 10)
        var order: [String] = []
        while let (_, payload) = queue.popEarliest() { order.append(payload) }
        XCTAssertEqual(order, ["a1", "a2", "a3", "b", "c"])
        XCTAssertTrue(queue.isEmpty)
    }

    func testCancelAndStaleHandles() {
        var queue = EventQueue<Int>()
        let first = queue.schedule(1, at: 5)
        let second = queue.schedule(2, at: 6)
        XCTAssertTrue(queue.cancel(first))
        XCTAssertFalse(queue.cancel(first), "a cancelled handle cannot cancel twice")
        XCTAssertFalse(queue.isPending(first))
        // The freed slot is reused; the old handle must not reach the new event.
        let third = queue.schedule(3, at: 7)
        XCTAssertFalse(queue.cancel(first))
        XCTAssertTrue(queue.isPending(third))
        XCTAssertEqual(queue.popEarliest()?.payload, 2)
        XCTAssertFalse(queue.isPending(second), "a fired handle is no longer pending")
        XCTAssertEqual(queue.popEarliest()?.payload, 3)
        XCTAssertNil(queue.popEarliest())
    }

    func testRescheduleMovesAndCountsAsNewInsertion() {
        var queue = EventQueue<String>()
        let timer = queue.schedule("timer", at: 100)
        queue.schedule("key", at: 50)
        XCTAssertTrue(queue.reschedule(timer, to: 50, payload: "timer-rearmed"))
        XCTAssertEqual(queue.time(of: timer), 50)
        // Re-armed at the same instant as "key", after it: fires second.
        XCTAssertEqual(queue.popEarliest()?.payload, "key")
        XCTAssertEqual(queue.popEarliest()?.payload, "timer-rearmed")
        XCTAssertFalse(queue.reschedule(timer, to: 10))
    }

    /// Random operations against a sorted-array model, over many seeds.
    func testRandomOperationsMatchAReferenceModel() {
        for seed in UInt64(1)...40 {
            var rng = TestRNG(state: seed)
            var queue = EventQueue<Int>()
            var model: [(time: Int64, seq: Int, id: Int)] = []
            var handles: [Int: TimerHandle] = [:]
            var seq = 0
            var nextID = 0
            for _ in 0..<600 {
                switch rng.below(10) {
                case 0...4:
                    let time = Int64(rng.below(200))
                    handles[nextID] = queue.schedule(nextID, at: time)
                    model.append((time, seq, nextID))
                    seq += 1
                    nextID += 1
                case 5, 6:
                    guard !model.isEmpty else { continue }
                    let victim = model[rng.below(model.count)].id
                    XCTAssertTrue(queue.cancel(handles[victim]!), "seed \(seed)")
                    model.removeAll { $0.id == victim }
                case 7:
                    guard !model.isEmpty else { continue }
                    let index = rng.below(model.count)
                    let time = Int64(rng.below(200))
                    XCTAssertTrue(queue.reschedule(handles[model[index].id]!, to: time), "seed \(seed)")
                    model[index].time = time
                    model[index].seq = seq
                    seq += 1
                default:
                    let expected = model.min { ($0.time, $0.seq) < ($1.time, $1.seq) }
                    let popped = queue.popEarliest()
                    XCTAssertEqual(popped?.payload, expected?.id, "seed \(seed)")
                    XCTAssertEqual(popped?.time, expected?.time, "seed \(seed)")
                    if let expected { model.removeAll { $0.id == expected.id } }
                }
                XCTAssertEqual(queue.count, model.count, "seed \(seed)")
            }
            queue.checkInvariants()
            model.sort { ($0.time, $0.seq) < ($1.time, $1.seq) }
            for expected in model {
                XCTAssertEqual(queue.popEarliest()?.payload, expected.id, "seed \(seed)")
            }
            XCTAssertTrue(queue.isEmpty, "seed \(seed)")
        }
    }

    /// A copy is an independent value: mutating either side, in any way, leaves the other
    /// as it was when copied (the queues share storage until the first mutation).
    func testCopiesAreIndependentValues() {
        var original = EventQueue<String>()
        let early = original.schedule("early", at: 10)
        original.schedule("middle", at: 20)
        let late = original.schedule("late", at: 30)

        var copy = original
        copy.schedule("copy-only", at: 5)
        XCTAssertTrue(copy.cancel(late))
        XCTAssertTrue(copy.reschedule(early, to: 40, payload: "early-moved"))
        XCTAssertEqual(copy.popEarliest()?.payload, "copy-only")

        // The original still holds its three events, at their times, with their payloads.
        XCTAssertEqual(original.count, 3)
        XCTAssertEqual(original.earliestTime, 10)
        XCTAssertTrue(original.isPending(late))
        XCTAssertEqual(original.time(of: early), 10)
        original.checkInvariants()
        copy.checkInvariants()

        // And the other way round: draining the original does not touch the copy.
        var drained: [String] = []
        while let (_, payload) = original.popEarliest() { drained.append(payload) }
        XCTAssertEqual(drained, ["early", "middle", "late"])
        XCTAssertEqual(copy.count, 2)
        XCTAssertFalse(copy.isPending(late))
        XCTAssertEqual(copy.time(of: early), 40)
        var rest: [String] = []
        while let (_, payload) = copy.popEarliest() { rest.append(payload) }
        XCTAssertEqual(rest, ["middle", "early-moved"])
    }

    /// A copy taken while the queue is full (the next schedule grows it) and copies of an
    /// empty queue stay independent too.
    func testCopiesStayIndependentAcrossGrowth() {
        for seed in UInt64(1)...10 {
            var rng = TestRNG(state: seed)
            var queue = EventQueue<Int>()
            for id in 0..<(16 + rng.below(40)) { queue.schedule(id, at: Int64(rng.below(100))) }
            let snapshot = queue
            var expected: [Int] = []
            var copyToDrain = snapshot
            while let (_, payload) = copyToDrain.popEarliest() { expected.append(payload) }
            XCTAssertTrue(copyToDrain.isEmpty, "seed \(seed)")

            for id in 1000..<1300 { queue.schedule(id, at: Int64(rng.below(100))) }
            _ = queue.popEarliest()
            var fromSnapshot: [Int] = []
            var again = snapshot
            while let (_, payload) = again.popEarliest() { fromSnapshot.append(payload) }
            XCTAssertEqual(fromSnapshot, expected, "seed \(seed)")
            XCTAssertEqual(queue.count, 16 + 300 + expected.count - 16 - 1, "seed \(seed)")
            queue.checkInvariants()
        }
        let empty = EventQueue<Int>()
        var filled = empty
        filled.schedule(1, at: 1)
        XCTAssertTrue(empty.isEmpty)
        XCTAssertEqual(filled.count, 1)
    }

    /// Payloads with identity are released exactly once: on pop, on cancel, when re-armed
    /// with a new payload, and with the queue (and its copies) when events are left pending.
    func testPayloadsAreReleasedExactlyOnce() {
        typealias Tracked = LifetimeCensus.Tracked
        let census = LifetimeCensus()
        do {
            var rng = TestRNG(state: 7)
            var queue = EventQueue<Tracked>()
            var handles: [TimerHandle] = []
            for _ in 0..<500 {
                switch rng.below(6) {
                case 0, 1, 2:
                    handles.append(queue.schedule(Tracked(census), at: Int64(rng.below(1000))))
                case 3:
                    _ = queue.popEarliest()
                case 4:
                    if !handles.isEmpty { queue.cancel(handles[rng.below(handles.count)]) }
                default:
                    if !handles.isEmpty {
                        let payload = rng.below(2) == 0 ? Tracked(census) : nil
                        queue.reschedule(handles[rng.below(handles.count)], to: Int64(rng.below(1000)), payload: payload)
                    }
                }
                if rng.below(50) == 0 {
                    var copy = queue
                    copy.schedule(Tracked(census), at: 1)
                    _ = copy.popEarliest()
                }
            }
            XCTAssertEqual(census.alive, queue.count, "exactly the pending payloads are alive")
            queue.checkInvariants()
        }
        XCTAssertEqual(census.alive, 0, "dropping the queue releases what was still pending")
    }

    /// Times across the whole `Int64` range, negative ones included, order as signed numbers.
    func testExtremeAndNegativeTimesOrderAsSignedNumbers() {
        var queue = EventQueue<Int64>()
        let times: [Int64] = [0, .max, -1, .min, 1, .min + 1, .max - 1, -1_000_000_000]
        for time in times { queue.schedule(time, at: time) }
        var popped: [Int64] = []
        while let (time, payload) = queue.popEarliest() {
            XCTAssertEqual(time, payload)
            popped.append(time)
        }
        XCTAssertEqual(popped, times.sorted())
    }

    /// A handle that names a slot the queue never had (it came from a bigger queue) is not
    /// pending and cannot cancel or re-arm anything.
    func testForeignHandlesAreNotPending() {
        var big = EventQueue<Int>()
        var handles: [TimerHandle] = []
        for id in 0..<100 { handles.append(big.schedule(id, at: Int64(id))) }
        var small = EventQueue<Int>()
        small.schedule(0, at: 0)
        let foreign = handles[99]
        XCTAssertFalse(small.isPending(foreign))
        XCTAssertNil(small.time(of: foreign))
        XCTAssertFalse(small.cancel(foreign))
        XCTAssertFalse(small.reschedule(foreign, to: 1))
        XCTAssertEqual(small.count, 1)
        XCTAssertTrue(big.isPending(foreign))
    }

    /// The hold model the benchmark runs, at sizes that cross several capacity doublings and
    /// the 256-entry limit of the full debug check, against a sorted reference.
    func testHoldModelMatchesAReferenceAtManySizes() {
        for (seed, pending) in [(UInt64(1), 1), (2, 5), (3, 17), (4, 64), (5, 300), (6, 1000)] {
            var rng = TestRNG(state: seed)
            var queue = EventQueue<Int>()
            var model: [(time: Int64, id: Int)] = []
            var now: Int64 = 0
            for id in 0..<pending {
                let time = Int64(rng.below(1000))
                queue.schedule(id, at: time)
                model.append((time, id))
            }
            // Stable sort: equal times keep their insertion order, as the queue promises.
            model = model.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
            for id in pending..<(pending + 3000) {
                guard let (time, payload) = queue.popEarliest() else { return XCTFail("seed \(seed): empty") }
                let expected = model.removeFirst()
                XCTAssertEqual(payload, expected.id, "seed \(seed)")
                XCTAssertEqual(time, expected.time, "seed \(seed)")
                XCTAssertGreaterThanOrEqual(time, now, "seed \(seed)")
                now = time
                let next = now + Int64(rng.below(1000))
                queue.schedule(id, at: next)
                // Inserted after every entry with the same time: it is the newest.
                let insertAt = model.firstIndex { $0.time > next } ?? model.count
                model.insert((next, id), at: insertAt)
            }
            XCTAssertEqual(queue.count, pending, "seed \(seed)")
            queue.checkInvariants()
        }
    }

    /// Every operation, with the read-only accessors checked after each one and copies taken
    /// at random moments (also right after a pop, while the root is empty), against a model.
    func testRandomOperationsWithPeeksAndCopiesMatchAReferenceModel() {
        typealias Model = [(time: Int64, seq: Int, id: Int)]
        func sorted(_ model: Model) -> Model { model.sorted { ($0.time, $0.seq) < ($1.time, $1.seq) } }
        for seed in UInt64(100)...130 {
            var rng = TestRNG(state: seed)
            var queue = EventQueue<Int>()
            var model: Model = []
            var handles: [Int: TimerHandle] = [:]
            var seq = 0
            var snapshots: [(queue: EventQueue<Int>, order: [Int])] = []
            for step in 0..<800 {
                switch rng.below(12) {
                case 0...4:
                    let time = Int64(rng.below(300)) - 100
                    handles[seq] = queue.schedule(seq, at: time)
                    model.append((time, seq, seq))
                case 5, 6:
                    guard !model.isEmpty else { continue }
                    let victim = model[rng.below(model.count)].id
                    XCTAssertTrue(queue.cancel(handles[victim]!), "seed \(seed) step \(step)")
                    model.removeAll { $0.id == victim }
                case 7:
                    guard !model.isEmpty else { continue }
                    let index = rng.below(model.count)
                    let time = Int64(rng.below(300)) - 100
                    XCTAssertTrue(queue.reschedule(handles[model[index].id]!, to: time), "seed \(seed) step \(step)")
                    model[index].time = time
                    model[index].seq = seq
                default:
                    let expected = sorted(model).first
                    let popped = queue.popEarliest()
                    XCTAssertEqual(popped?.payload, expected?.id, "seed \(seed) step \(step)")
                    XCTAssertEqual(popped?.time, expected?.time, "seed \(seed) step \(step)")
                    if let expected { model.removeAll { $0.id == expected.id } }
                }
                seq += 1
                XCTAssertEqual(queue.count, model.count, "seed \(seed) step \(step)")
                XCTAssertEqual(queue.isEmpty, model.isEmpty, "seed \(seed) step \(step)")
                XCTAssertEqual(queue.earliestTime, sorted(model).first?.time, "seed \(seed) step \(step)")
                if !model.isEmpty {
                    let entry = model[rng.below(model.count)]
                    XCTAssertTrue(queue.isPending(handles[entry.id]!), "seed \(seed) step \(step)")
                    XCTAssertEqual(queue.time(of: handles[entry.id]!), entry.time, "seed \(seed) step \(step)")
                }
                if rng.below(40) == 0 { snapshots.append((queue, sorted(model).map(\.id))) }
            }
            queue.checkInvariants()
            for (index, snapshot) in snapshots.enumerated() {
                var copy = snapshot.queue
                copy.checkInvariants()
                var order: [Int] = []
                while let (_, payload) = copy.popEarliest() { order.append(payload) }
                XCTAssertEqual(order, snapshot.order, "seed \(seed) snapshot \(index)")
            }
            var order: [Int] = []
            while let (_, payload) = queue.popEarliest() { order.append(payload) }
            XCTAssertEqual(order, sorted(model).map(\.id), "seed \(seed)")
        }
    }
}
