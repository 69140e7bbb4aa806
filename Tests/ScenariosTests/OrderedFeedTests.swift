import Foundation
import XCTest
import Scenarios

/// `OrderedFeed`: results taken in position order whatever order workers finish them, the
/// first failure rethrown where it stands, and a consumer that gives up early does not hang.
final class OrderedFeedTests: XCTestCase {
    private struct Failure: Error, Equatable { var position: Int }

    /// Uneven work, so that positions finish out of order.
    private static func spin(_ position: Int, seed: Int) -> Int {
        var x = UInt64(position &* 7919 &+ seed)
        for _ in 0..<((position * 37 + seed) % 5) * 2000 { x = x &* 6364136223846793005 &+ 1 }
        return position + Int(x % 1)
    }

    func testResultsAreTakenInOrderAndTheFirstFailureIsRethrownInPlace() throws {
        for seed in 0..<10 {
            for threads in [1, 2, 4] {
                let feed = OrderedFeed(count: 50, threads: threads, window: 3) { Self.spin($0, seed: seed) * 2 }
                for position in 0..<50 { XCTAssertEqual(try feed.take(position), position * 2, "seed \(seed), \(threads) threads") }
                feed.finish()

                let failing = OrderedFeed(count: 50, threads: threads, window: 4) { position -> Int in
                    if position == 13 || position == 29 { throw Failure(position: position) }
                    return Self.spin(position, seed: seed)
                }
                defer { failing.finish() }
                for position in 0..<13 { XCTAssertEqual(try failing.take(position), position) }
                XCTAssertThrowsError(try failing.take(13)) { error in
                    XCTAssertEqual(error as? Failure, Failure(position: 13), "seed \(seed), \(threads) threads")
                }
            }
        }
    }

    func testAConsumerThatStopsEarlyEndsTheWorkers() throws {
        let started = Counter()
        for threads in [1, 3] {
            let feed = OrderedFeed(count: 10_000, threads: threads, window: 8) { position -> Int in
                started.add()
                return position
            }
            for position in 0..<5 { XCTAssertEqual(try feed.take(position), position) }
            feed.finish()
            // Workers stop within the window past the last position taken.
            XCTAssertLessThanOrEqual(started.value, 5 + 8 + threads)
            started.reset()
        }
        // Dropped without finish(): its deinit stops and joins the workers.
        do { _ = OrderedFeed(count: 100, threads: 2, window: 4) { $0 } }
    }
}

/// A count shared with worker threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    func reset() { lock.lock(); count = 0; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
