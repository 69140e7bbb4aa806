import Foundation

/// Numbered pieces of work run on worker threads ahead of one consumer, who takes their
/// results in number order (`take(0)`, `take(1)`, …) whatever order they finish in: the
/// pull side of `OrderedParallel.run`, for a consumer that asks for the next result from
/// inside a loop of its own (a fleet's simulation opening its next session).
///
/// Workers run at most `window` positions ahead of the last position taken, which bounds the
/// results held. Failures are deterministic: positions are claimed in order, so the error a
/// `take` rethrows is that of the first failing position, for any number of threads.
public final class OrderedFeed<Result: Sendable>: @unchecked Sendable {
    private let state: SharedSlots<Result>
    private let finished = DispatchGroup()

    /// Starts `min(threads, count)` workers on `work(0..<count)`.
    /// - Parameters:
    ///   - window: how many positions past the last one taken workers may start (at least
    ///     `threads`).
    ///   - workerNice: how much lower than the calling thread's the workers' scheduling
    ///     priority is (a nice increment, Linux), as for `OrderedParallel.run`.
    ///   - work: runs on a worker thread; it must not touch the consumer's state.
    public init(count: Int, threads: Int, window: Int, workerNice: Int32 = 0,
                work: @escaping @Sendable (Int) throws -> Result) {
        precondition(count >= 0 && threads >= 1 && window >= 1)
        state = SharedSlots<Result>(count: count, window: max(window, threads))
        for _ in 0..<min(threads, count) {
            finished.enter()
            let state = state
            let finished = finished
            let thread = Thread {
                #if os(Linux)
                // Linux keeps a nice value per thread: `who` 0 is the calling thread. A refusal
                // (a sandbox) leaves the default priority, which is only slower.
                if workerNice != 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) + workerNice) }
                #endif
                state.workLoop(work)
                finished.leave()
            }
            // The simulation does not recurse deeply, but trace parsing and Foundation may;
            // the default secondary-thread stack is small on some platforms.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Waits for the result at `position` (the one after the last taken) and hands it over.
    /// - Throws: the error its work threw.
    public func take(_ position: Int) throws -> Result {
        try state.take(position).get()
    }

    /// Stops the workers from claiming more positions and waits for those running to end.
    /// Call it once the consumer is done, or gives up (a `defer`).
    public func finish() {
        state.stop()
        finished.wait()
    }

    deinit { finish() }
}

/// The slots workers fill and the consumer empties, under one condition variable.
fileprivate final class SharedSlots<Result: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var slots: [Swift.Result<Result, Error>?]
    private var nextClaim = 0
    private var consumed = 0
    private var stopped = false
    private let window: Int

    init(count: Int, window: Int) {
        slots = Array(repeating: nil, count: count)
        self.window = window
    }

    /// Claims positions in order until none are left or the run stopped.
    func workLoop(_ work: (Int) throws -> Result) {
        while let position = claim() {
            let result = Swift.Result { try work(position) }
            condition.lock()
            slots[position] = result
            if case .failure = result { stopped = true }
            condition.broadcast()
            condition.unlock()
        }
    }

    private func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped && nextClaim < slots.count && nextClaim >= consumed + window {
            condition.wait()
        }
        // After a failure nothing new starts; positions already claimed still finish, so
        // the consumer can reach the failure through every position before it.
        guard !stopped, nextClaim < slots.count else { return nil }
        nextClaim += 1
        return nextClaim - 1
    }

    /// Waits for the result at `position` and removes it.
    func take(_ position: Int) -> Swift.Result<Result, Error> {
        condition.lock()
        defer { condition.unlock() }
        while slots[position] == nil {
            if stopped && position >= nextClaim {
                // Stopped by a failure at a later-claimed position? Impossible: positions
                // are claimed in order, so the failure is before this one and was taken.
                preconditionFailure("position \(position) was never claimed")
            }
            condition.wait()
        }
        let result = slots[position]!
        slots[position] = nil
        consumed = position + 1
        condition.broadcast()
        return result
    }

    /// Stops the workers from claiming more positions.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
