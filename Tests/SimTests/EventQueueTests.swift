import XCTest
@testable import Sim

/// A tiny deterministic generator for the tests themselves (independent of RandomStream).
struct TestRNG {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

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
}
