import Foundation

/// Runs numbered pieces of work on worker threads and hands their results to the calling
/// thread in number order, whatever order they finish in.
///
/// This is how `--jobs N` stays deterministic: replications run on N threads, but the
/// report writer — which owns the SQLite connection and so stays on one thread — sees
/// result 0, then 1, then 2 …, exactly as with one thread. Workers run at most `window`
/// positions ahead of the consumer, which bounds the results held in memory.
///
/// Failures are deterministic too: positions are claimed in order and the consumer meets
/// them in order, so the error reported is that of the first failing position, and every
/// position before it has been consumed — for any number of threads.
public enum OrderedParallel {
    /// Runs `work(0..<count)` on `threads` worker threads and calls `consume` with each
    /// result on the calling thread, in position order.
    /// - Parameters:
    ///   - window: how many positions past the last consumed one workers may start
    ///     (at least `threads`).
    ///   - workerNice: how much lower than the calling thread's the workers' scheduling
    ///     priority is (a nice increment, Linux). When the consumer is the critical path — one
    ///     report writer behind as many workers as cores — a worker that waits costs nothing
    ///     while a writer that waits stalls every worker behind the window: at +5 the kernel
    ///     gives the writer about three times a worker's share of a contended core.
    ///   - work: runs on a worker thread; it must not touch the consumer's state.
    ///   - consume: runs on the calling thread; an error stops the workers and is rethrown.
    /// - Throws: the error of the first failing position, or the first error of `consume`.
    public static func run<Result: Sendable>(
        count: Int, threads: Int, window: Int, workerNice: Int32 = 0,
        work: @escaping @Sendable (Int) throws -> Result,
        consume: (Int, Result) throws -> Void
    ) throws {
        precondition(count >= 0 && threads >= 1 && window >= 1)
        guard count > 0 else { return }
        let state = SharedSlots<Result>(count: count, window: max(window, threads))
        let workers = min(threads, count)
        let finished = DispatchGroup()
        for _ in 0..<workers {
            finished.enter()
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
        defer {
            state.stop()
            finished.wait()
        }
        for position in 0..<count {
            switch state.take(position) {
            case .success(let result): try consume(position, result)
            case .failure(let error): throw error
            }
        }
    }
}

/// The slots workers fill and the consumer empties, under one condition variable.
private final class SharedSlots<Result: Sendable>: @unchecked Sendable {
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
