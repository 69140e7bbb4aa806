import Foundation
import Synchronization

/// Threads that take work off a fleet partition's simulation thread, in two kinds, with the
/// same result as if that thread did it all:
///
/// - **Sessions' preparations** (their typing synthesised), numbered in the order the
///   simulation opens them: helpers claim them in that order, at most `window` past the last
///   one taken; the simulation takes each (`prepared(_:)`), and prepares one itself when no
///   helper has claimed it yet, rather than wait.
/// - **Runs ahead** (`AheadRun`): a session's steps ahead of the fleet's order, which touch
///   nothing but the session itself (`FleetSimulation.stepSession`). The simulation hands
///   one over (`submit`) and goes on with the fleet. When its order reaches the run's next
///   step it asks for the run (`collect`): done by then, taken back; or run there and then,
///   if no helper has started it; or, while a helper runs it, the run's progress (the fleet
///   time of its next step) once that lies past the step the fleet is at, so that the
///   fleet goes on until it reaches the run's progress again.
///
/// Helpers keep a few preparations ready before anything else (a session that cannot open
/// holds the whole fleet up), then take runs ahead, the one the fleet needs soonest first
/// (the others the simulation may take back itself meanwhile), then prepare further.
public final class FleetHelpers<Prepared: Sendable>: FleetAheadDispatch, @unchecked Sendable {
    /// The number of helper threads; a run ahead taken on helper k (1…threads) is run with
    /// lane k, one taken back by the simulation with lane 0.
    public let threads: Int
    private let condition = NSCondition()
    private let prepare: @Sendable (Int) throws -> Prepared
    private var preparations: [Result<Prepared, Error>?]
    /// The next preparation to claim, and the one after the last taken.
    private var nextClaim = 0
    private var consumed = 0
    private let window: Int
    /// Preparations helpers keep ready before they take runs ahead.
    private let ready: Int
    /// Whether the simulation runs a run ahead itself when no helper has started it.
    private let takesBack: Bool
    /// Runs ahead handed over and not yet started, in no order.
    private var pending: [AheadRun] = []
    private var stopped = false
    /// Bumped (under the lock) by every `submit` and taken preparation: an idle helper spins
    /// on it a while before it sleeps, since waking a sleeping thread takes longer than the
    /// fleet takes to reach most runs.
    private let news = Atomic<Int>(0)
    private let finished = DispatchGroup()
    /// Runs ahead the simulation took back before any helper started them, runs helpers
    /// took, and times the simulation found a helper's run not yet past its step and waited
    /// (for benchmarks' diagnostics).
    public private(set) var takenBack = 0
    public private(set) var runsOnHelpers = 0
    public private(set) var waits = 0

    /// Starts `threads` helpers over preparations `0..<count`.
    /// - Parameters:
    ///   - window: how many preparations past the last one taken helpers may make.
    ///   - ready: how many of those they make before taking runs ahead.
    ///   - takesBack: false (for tests): the simulation waits for a helper to take every run
    ///     ahead, rather than run it itself.
    ///   - prepare: makes preparation n; it must touch nothing the simulation touches.
    public init(threads: Int, count: Int, window: Int, ready: Int = 8, takesBack: Bool = true,
                prepare: @escaping @Sendable (Int) throws -> Prepared) {
        precondition(threads >= 1 && count >= 0 && window >= 1 && ready >= 0)
        self.threads = threads
        self.takesBack = takesBack
        self.prepare = prepare
        self.window = window
        self.ready = min(ready, window)
        preparations = Array(repeating: nil, count: count)
        for lane in 1...threads {
            finished.enter()
            let thread = Thread { [self] in
                work(lane: lane)
                finished.leave()
            }
            // The simulation does not recurse deeply, but Foundation may; the default
            // secondary-thread stack is small on some platforms.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Preparation `position`, the one after the last taken: a helper's, waited for if one is
    /// making it, or made here if none has claimed it. Throws what making it threw.
    public func prepared(_ position: Int) throws -> Prepared {
        condition.lock()
        precondition(position == consumed, "preparations are taken in order")
        if position >= nextClaim {
            nextClaim = position + 1
            consumed = position + 1
            condition.unlock()
            return try prepare(position)
        }
        while preparations[position] == nil { condition.wait() }
        let result = preparations[position]!
        preparations[position] = nil
        consumed = position + 1
        news.add(1, ordering: .releasing)
        condition.broadcast()  // the window moved
        condition.unlock()
        return try result.get()
    }

    public func submit(_ run: AheadRun) {
        condition.lock()
        pending.append(run)
        news.add(1, ordering: .releasing)
        condition.signal()
        condition.unlock()
    }

    public func collect(_ run: AheadRun, at step: Int64) -> Int64? {
        condition.lock()
        while !takesBack && run.state == .pending {
            condition.unlock()
            sched_yield()
            condition.lock()
        }
        guard run.state != .pending else {
            pending.remove(at: pending.firstIndex { $0 === run }!)
            run.state = .running
            takenBack += 1
            condition.unlock()
            run.body(run, 0)
            return nil
        }
        condition.unlock()
        // A run lasts some hundred microseconds and publishes its progress at every step:
        // spin for it.
        var waited = false
        while true {
            if run.done.load(ordering: .acquiring) {
                if waited { count { $0.waits += 1 } }
                return nil
            }
            let progress = run.progress.load(ordering: .acquiring)
            if progress > step {
                if waited { count { $0.waits += 1 } }
                return progress
            }
            waited = true
        }
    }

    private func count(_ change: (FleetHelpers) -> Void) {
        condition.lock()
        change(self)
        condition.unlock()
    }

    /// Stops the helpers once their work in hand is done, and waits for them. Runs ahead
    /// still pending are dropped (the simulation gave up). Call it once the simulation is
    /// done or gives up (a `defer`): the helpers' threads hold the pool until then.
    public func finish() {
        condition.lock()
        stopped = true
        pending.removeAll()
        condition.broadcast()
        condition.unlock()
        finished.wait()
    }

    private enum Job { case prepare(Int), ahead(AheadRun) }

    /// A helper's loop, with the condition locked except while it works.
    private func work(lane: Int) {
        condition.lock()
        while let job = nextJob() {
            condition.unlock()
            switch job {
            case .prepare(let position):
                let result = Result { try prepare(position) }
                condition.lock()
                preparations[position] = result
                if case .failure = result { stopped = true }
            case .ahead(let run):
                run.body(run, lane)
                run.done.store(true, ordering: .releasing)
                condition.lock()
                runsOnHelpers += 1
            }
            condition.broadcast()
        }
        condition.unlock()
    }

    /// Waits for news (the condition locked): spins a while, then sleeps.
    private func idle() {
        let seen = news.load(ordering: .acquiring)
        condition.unlock()
        for _ in 0..<Self.spins where news.load(ordering: .acquiring) == seen {}
        condition.lock()
        if news.load(ordering: .acquiring) == seen && !stopped { condition.wait() }
    }

    /// How many times an idle helper looks for news before it sleeps: some tens of
    /// microseconds.
    static var spins: Int { 20_000 }

    /// The next job (the condition locked), waiting for one; nil once stopped.
    private func nextJob() -> Job? {
        while !stopped {
            let canPrepare = nextClaim < preparations.count
            if canPrepare && nextClaim < consumed + ready {
                nextClaim += 1
                return .prepare(nextClaim - 1)
            }
            if let first = pending.indices.min(by: { pending[$0].deadline < pending[$1].deadline }) {
                let run = pending.remove(at: first)
                run.state = .running
                return .ahead(run)
            }
            if canPrepare && nextClaim < consumed + window {
                nextClaim += 1
                return .prepare(nextClaim - 1)
            }
            idle()
        }
        return nil
    }
}

/// Where a fleet's simulation hands its sessions' runs ahead (`FleetHelpers`).
public protocol FleetAheadDispatch: AnyObject, Sendable {
    /// Hands `run` to a helper.
    func submit(_ run: AheadRun)
    /// Asks for `run` when the fleet's order is at its session's step at fleet time `step`
    /// (the run has not published progress past it): nil once it is done (run here, lane 0,
    /// if no helper has started it); else its progress, later than `step`, once a helper's
    /// run has got that far.
    func collect(_ run: AheadRun, at step: Int64) -> Int64?
}

/// A session's run ahead of the fleet, handed to a helper: `body(run, lane)` runs it on the
/// thread that takes it, publishing its `progress` as it goes.
public final class AheadRun: @unchecked Sendable {
    enum State { case pending, running }
    /// The fleet time of the run's first step: when the simulation will need it.
    public let deadline: Int64
    let body: (AheadRun, Int) -> Void
    /// Changed under the dispatcher's lock.
    var state = State.pending
    /// The fleet time of the run's next step: every step before it has been taken, and
    /// none of them sent the backend anything.
    public let progress: Atomic<Int64>
    /// Set once `body` has returned on a helper.
    let done = Atomic<Bool>(false)

    /// A run whose first step is at fleet time `deadline`.
    public init(deadline: Int64, body: @escaping (AheadRun, Int) -> Void) {
        self.deadline = deadline
        self.body = body
        progress = Atomic(deadline)
    }
}
