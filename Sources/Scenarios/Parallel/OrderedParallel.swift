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
        let feed = OrderedFeed(count: count, threads: threads, window: window, workerNice: workerNice, work: work)
        defer { feed.finish() }
        for position in 0..<count { try consume(position, try feed.take(position)) }
    }
}
